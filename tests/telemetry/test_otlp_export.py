"""OpenTelemetry's OTLP variables read as the specification says, and spans and metrics really
delivered to receivers the tests start: OTLP/HTTP (a base URL) and OTLP/gRPC."""

import asyncio
import time
from collections.abc import Iterator
from concurrent import futures
from dataclasses import dataclass, field

import grpc
import pytest
from opentelemetry.proto.collector.metrics.v1 import metrics_service_pb2, metrics_service_pb2_grpc
from opentelemetry.proto.collector.trace.v1 import trace_service_pb2, trace_service_pb2_grpc
from opentelemetry.sdk.metrics import MeterProvider
from opentelemetry.sdk.trace import TracerProvider

from policypal.config import Settings
from policypal.devstack import free_port
from policypal.telemetry import OtlpTarget, build_meter_provider, build_tracer_provider, otlp_target
from tests.support.otlp_collector import SpanCollector
from tests.support.serving import serve


def _settings() -> Settings:
    """Settings from this process's environment only (the OTLP variables a test has just set)."""
    return Settings(_env_file=None, environment="test")


@pytest.mark.parametrize(
    ("variables", "traces", "metrics"),
    [
        ({}, None, None),
        (
            {"OTEL_EXPORTER_OTLP_ENDPOINT": "http://collector:4318"},
            OtlpTarget("http://collector:4318/v1/traces", "http/protobuf"),
            OtlpTarget("http://collector:4318/v1/metrics", "http/protobuf"),
        ),
        (
            {"OTEL_EXPORTER_OTLP_ENDPOINT": "https://otel.example.com/otlp/"},
            OtlpTarget("https://otel.example.com/otlp/v1/traces", "http/protobuf"),
            OtlpTarget("https://otel.example.com/otlp/v1/metrics", "http/protobuf"),
        ),
        (
            {
                "OTEL_EXPORTER_OTLP_ENDPOINT": "http://collector:4318",
                "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "http://tempo:4318/custom/traces",
            },
            OtlpTarget("http://tempo:4318/custom/traces", "http/protobuf"),
            OtlpTarget("http://collector:4318/v1/metrics", "http/protobuf"),
        ),
        (
            {"OTEL_EXPORTER_OTLP_METRICS_ENDPOINT": "http://prometheus:9090/api/v1/otlp/v1/metrics"},
            None,
            OtlpTarget("http://prometheus:9090/api/v1/otlp/v1/metrics", "http/protobuf"),
        ),
        (
            {"OTEL_EXPORTER_OTLP_ENDPOINT": "http://collector:4317", "OTEL_EXPORTER_OTLP_PROTOCOL": "grpc"},
            OtlpTarget("http://collector:4317", "grpc"),
            OtlpTarget("http://collector:4317", "grpc"),
        ),
        (
            {
                "OTEL_EXPORTER_OTLP_ENDPOINT": "http://collector:4318",
                "OTEL_EXPORTER_OTLP_METRICS_PROTOCOL": "grpc",
                "OTEL_EXPORTER_OTLP_METRICS_ENDPOINT": "http://collector:4317",
            },
            OtlpTarget("http://collector:4318/v1/traces", "http/protobuf"),
            OtlpTarget("http://collector:4317", "grpc"),
        ),
        # How PolicyPal read the variable before (the full traces URL): taken as its base.
        (
            {"OTEL_EXPORTER_OTLP_ENDPOINT": "http://jaeger:4318/v1/traces"},
            OtlpTarget("http://jaeger:4318/v1/traces", "http/protobuf"),
            OtlpTarget("http://jaeger:4318/v1/metrics", "http/protobuf"),
        ),
    ],
)
def test_targets_follow_the_specification(
    variables: dict[str, str], traces: OtlpTarget | None, metrics: OtlpTarget | None
) -> None:
    with pytest.MonkeyPatch.context() as patch:
        for name, value in variables.items():
            patch.setenv(name, value)
        settings = _settings()
    assert otlp_target(settings, "traces") == traces
    assert otlp_target(settings, "metrics") == metrics


def _span_and_count(service: str, span: str, **variables: str) -> tuple[TracerProvider, MeterProvider]:
    """Providers configured by ``variables`` (OTLP environment variables), one span and one count made."""
    with pytest.MonkeyPatch.context() as patch:
        for name, value in variables.items():
            patch.setenv(name, value)
        settings = _settings()
    tracer_provider = build_tracer_provider(service, otlp=otlp_target(settings, "traces"))
    meter_provider = build_meter_provider(
        service, otlp=otlp_target(settings, "metrics"), export_interval_seconds=0.1
    )
    with tracer_provider.get_tracer("test").start_as_current_span(span):
        meter_provider.get_meter("test").create_counter("policypal.requests").add(1)
    return tracer_provider, meter_provider


def test_an_unknown_protocol_is_refused_at_start() -> None:
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("OTEL_EXPORTER_OTLP_PROTOCOL", "http/json")
        with pytest.raises(ValueError, match="OTEL_EXPORTER_OTLP_PROTOCOL"):
            _settings()


async def test_a_base_url_delivers_spans_and_metrics_over_http() -> None:
    collector = SpanCollector()
    async with serve(collector.app()) as url:
        tracer_provider, meter_provider = _span_and_count(
            "resolver", "resolve", OTEL_EXPORTER_OTLP_ENDPOINT=url
        )
        # The exports are blocking HTTP calls to a server on this event loop: off the loop.
        await asyncio.to_thread(tracer_provider.shutdown)
        await asyncio.to_thread(meter_provider.shutdown)
    assert [span.name for span in collector.spans if span.service == "resolver"] == ["resolve"]
    assert "policypal.requests" in collector.metric_names["resolver"]


@dataclass
class GrpcReceiver(
    trace_service_pb2_grpc.TraceServiceServicer, metrics_service_pb2_grpc.MetricsServiceServicer
):
    """A real OTLP/gRPC receiver: keeps the names of the spans and metrics it is sent."""

    spans: list[str] = field(default_factory=list)
    metrics: list[str] = field(default_factory=list)

    def Export(  # noqa: N802 (the gRPC method's name)
        self,
        request: trace_service_pb2.ExportTraceServiceRequest
        | metrics_service_pb2.ExportMetricsServiceRequest,
        context: grpc.ServicerContext,
    ) -> trace_service_pb2.ExportTraceServiceResponse | metrics_service_pb2.ExportMetricsServiceResponse:
        if isinstance(request, trace_service_pb2.ExportTraceServiceRequest):
            for resource in request.resource_spans:
                self.spans += [span.name for scope in resource.scope_spans for span in scope.spans]
            return trace_service_pb2.ExportTraceServiceResponse()
        for resource_metrics in request.resource_metrics:
            self.metrics += [m.name for scope in resource_metrics.scope_metrics for m in scope.metrics]
        return metrics_service_pb2.ExportMetricsServiceResponse()


@pytest.fixture
def grpc_receiver() -> Iterator[tuple[GrpcReceiver, int]]:
    receiver = GrpcReceiver()
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=2))
    trace_service_pb2_grpc.add_TraceServiceServicer_to_server(receiver, server)
    metrics_service_pb2_grpc.add_MetricsServiceServicer_to_server(receiver, server)
    port = free_port()
    server.add_insecure_port(f"127.0.0.1:{port}")
    server.start()
    yield receiver, port
    server.stop(grace=None)


def test_grpc_delivers_spans_and_metrics(grpc_receiver: tuple[GrpcReceiver, int]) -> None:
    receiver, port = grpc_receiver
    tracer_provider, meter_provider = _span_and_count(
        "ingestor",
        "parse",
        OTEL_EXPORTER_OTLP_ENDPOINT=f"http://127.0.0.1:{port}",
        OTEL_EXPORTER_OTLP_PROTOCOL="grpc",
    )
    tracer_provider.shutdown()
    meter_provider.shutdown()
    deadline = time.monotonic() + 10
    while not (receiver.spans and receiver.metrics) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert receiver.spans == ["parse"]
    assert "policypal.requests" in receiver.metrics
