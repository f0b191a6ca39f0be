"""Tracer provider per process: OTLP when a target is configured (``otlp_export``), console on request.

Spans never carry document text or secrets: only ids, counts, model names and timings; the query
strings of HTTP spans are redacted (``policypal.telemetry.url_redaction``).
"""

from opentelemetry import trace
from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import BatchSpanProcessor, ConsoleSpanExporter, SpanExporter

from policypal.telemetry.otlp_export import OtlpTarget, span_exporter
from policypal.telemetry.url_redaction import QueryRedaction


def build_tracer_provider(
    service_name: str,
    *,
    otlp: OtlpTarget | None = None,
    console: bool = False,
    exporter: SpanExporter | None = None,
) -> TracerProvider:
    """A tracer provider for ``service_name`` that redacts query strings from URL attributes."""
    provider = TracerProvider(resource=Resource.create({"service.name": service_name}))
    # First, so no exporter ever holds a span whose URL still carries its query values.
    provider.add_span_processor(QueryRedaction())
    if exporter is not None:
        provider.add_span_processor(BatchSpanProcessor(exporter))
    if otlp is not None:
        provider.add_span_processor(BatchSpanProcessor(span_exporter(otlp)))
    if console:
        provider.add_span_processor(BatchSpanProcessor(ConsoleSpanExporter()))
    return provider


def setup_tracing(
    service_name: str,
    *,
    otlp: OtlpTarget | None = None,
    console: bool = False,
    exporter: SpanExporter | None = None,
) -> TracerProvider:
    """Install and return the global tracer provider of this process (see ``build_tracer_provider``)."""
    provider = build_tracer_provider(service_name, otlp=otlp, console=console, exporter=exporter)
    trace.set_tracer_provider(provider)
    return provider


def tracer(name: str) -> trace.Tracer:
    """A tracer from the global provider."""
    return trace.get_tracer(name)
