"""A real OTLP/HTTP trace receiver for tests: services export to it exactly as to Jaeger."""

from collections import defaultdict
from dataclasses import dataclass, field

from fastapi import FastAPI, Request, Response
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import (
    ExportTraceServiceRequest,
    ExportTraceServiceResponse,
)


@dataclass(frozen=True)
class ReceivedSpan:
    """What the tests look at in one exported span."""

    service: str
    name: str
    trace_id: str
    span_id: str
    parent_span_id: str
    attributes: dict[str, str]


@dataclass
class SpanCollector:
    """Keeps every span received, by trace id."""

    spans: list[ReceivedSpan] = field(default_factory=list)

    def by_trace(self) -> dict[str, list[ReceivedSpan]]:
        """Spans grouped by trace id."""
        grouped: dict[str, list[ReceivedSpan]] = defaultdict(list)
        for span in self.spans:
            grouped[span.trace_id].append(span)
        return grouped

    def app(self) -> FastAPI:
        """The ASGI app answering ``POST /v1/traces`` (protobuf)."""
        app = FastAPI()

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
                                attributes={a.key: str(a.value) for a in span.attributes},
                            )
                        )
            return Response(
                ExportTraceServiceResponse().SerializeToString(), media_type="application/x-protobuf"
            )

        return app
