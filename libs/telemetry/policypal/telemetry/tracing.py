"""Tracer provider per process: OTLP when an endpoint is configured, console on request.

Spans never carry document text or secrets: only ids, counts, model names and timings; the query
strings of HTTP spans are redacted (``policypal.telemetry.url_redaction``).
"""

from opentelemetry import trace
from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import BatchSpanProcessor, ConsoleSpanExporter, SpanExporter

from policypal.telemetry.url_redaction import QueryRedaction


def build_tracer_provider(
    service_name: str,
    *,
    otlp_endpoint: str | None = None,
    console: bool = False,
    exporter: SpanExporter | None = None,
) -> TracerProvider:
    """A tracer provider for ``service_name`` that redacts query strings from URL attributes."""
    provider = TracerProvider(resource=Resource.create({"service.name": service_name}))
    # First, so no exporter ever holds a span whose URL still carries its query values.
    provider.add_span_processor(QueryRedaction())
    if exporter is not None:
        provider.add_span_processor(BatchSpanProcessor(exporter))
    if otlp_endpoint:
        from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter

        provider.add_span_processor(BatchSpanProcessor(OTLPSpanExporter(endpoint=otlp_endpoint)))
    if console:
        provider.add_span_processor(BatchSpanProcessor(ConsoleSpanExporter()))
    return provider


def setup_tracing(
    service_name: str,
    *,
    otlp_endpoint: str | None = None,
    console: bool = False,
    exporter: SpanExporter | None = None,
) -> TracerProvider:
    """Install and return the global tracer provider of this process (see ``build_tracer_provider``)."""
    provider = build_tracer_provider(
        service_name, otlp_endpoint=otlp_endpoint, console=console, exporter=exporter
    )
    trace.set_tracer_provider(provider)
    return provider


def tracer(name: str) -> trace.Tracer:
    """A tracer from the global provider."""
    return trace.get_tracer(name)
