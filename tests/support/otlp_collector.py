"""A real OTLP/HTTP trace receiver for tests: services export to it exactly as to Jaeger."""

from collections import defaultdict
from dataclasses import dataclass, field

from fastapi import FastAPI, Request, Response
from opentelemetry.proto.collector.metrics.v1.metrics_service_pb2 import (
    ExportMetricsServiceRequest,
    ExportMetricsServiceResponse,
)
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import (
    ExportTraceServiceRequest,
    ExportTraceServiceResponse,
)
from opentelemetry.proto.common.v1.common_pb2 import AnyValue


@dataclass(frozen=True)
class ReceivedSpan:
    """What the tests look at in one exported span."""

    service: str
    name: str
    trace_id: str
    span_id: str
    parent_span_id: str
    attributes: dict[str, str]
    #: When the span started and ended, nanoseconds since the epoch (the exporting process's clock).
    start_ns: int = 0
    end_ns: int = 0


@dataclass
class SpanCollector:
    """Keeps every span received, by trace id."""

    spans: list[ReceivedSpan] = field(default_factory=list)
    #: Names of the metrics received on ``POST /v1/metrics``, by service.
    metric_names: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))

    def by_trace(self) -> dict[str, list[ReceivedSpan]]:
        """Spans grouped by trace id."""
        grouped: dict[str, list[ReceivedSpan]] = defaultdict(list)
        for span in self.spans:
            grouped[span.trace_id].append(span)
        return grouped

    def app(self) -> FastAPI:
        """The ASGI app answering ``POST /v1/traces`` and ``POST /v1/metrics`` (protobuf)."""
        app = FastAPI()

        @app.post("/v1/metrics")
        async def receive_metrics(request: Request) -> Response:
            export = ExportMetricsServiceRequest()
            export.ParseFromString(await request.body())
            for resource_metrics in export.resource_metrics:
                service = next(
                    (
                        a.value.string_value
                        for a in resource_metrics.resource.attributes
                        if a.key == "service.name"
                    ),
                    "",
                )
                for scope_metrics in resource_metrics.scope_metrics:
                    self.metric_names[service].update(m.name for m in scope_metrics.metrics)
            return Response(
                ExportMetricsServiceResponse().SerializeToString(), media_type="application/x-protobuf"
            )

        @app.post("/v1/traces")
        async def receive(request: Request) -> Response:
            export = ExportTraceServiceRequest()
            export.ParseFromString(await request.body())
            for resource_spans in export.resource_spans:
                service = next(
                    (
                        a.value.string_value
                        for a in resource_spans.resource.attributes
                        if a.key == "service.name"
                    ),
                    "",
                )
                for scope_spans in resource_spans.scope_spans:
                    for span in scope_spans.spans:
                        self.spans.append(
                            ReceivedSpan(
                                service=service,
                                name=span.name,
                                trace_id=span.trace_id.hex(),
                                span_id=span.span_id.hex(),
                                parent_span_id=span.parent_span_id.hex(),
                                attributes={a.key: _plain(a.value) for a in span.attributes},
                                start_ns=span.start_time_unix_nano,
                                end_ns=span.end_time_unix_nano,
                            )
                        )
            return Response(
                ExportTraceServiceResponse().SerializeToString(), media_type="application/x-protobuf"
            )

        return app


def _plain(value: AnyValue) -> str:
    """An attribute's value as text (``"acme"``, ``"3"``), not its protobuf form."""
    kind = value.WhichOneof("value")
    return "" if kind is None else str(getattr(value, kind))
