"""Meter provider per process and PolicyPal's instruments: requests, latency, tokens, cost.

Exported like traces: over OTLP when a target is configured (``otlp_export``), to the console on request,
otherwise nowhere (the instruments still work and cost next to nothing). Attributes are low-cardinality
names only (service, action, outcome, model): never tenant or request ids, text or secrets.
"""

from collections.abc import Sequence

from opentelemetry import metrics
from opentelemetry.sdk.metrics import MeterProvider
from opentelemetry.sdk.metrics.export import (
    ConsoleMetricExporter,
    MetricReader,
    PeriodicExportingMetricReader,
)
from opentelemetry.sdk.resources import Resource

from policypal.telemetry.otlp_export import OtlpTarget, metric_exporter

REQUESTS = "policypal.requests"
REQUEST_DURATION = "policypal.request.duration"
LLM_TOKENS = "policypal.llm.tokens"
LLM_COST = "policypal.llm.cost"
CONSUMER_LAG = "policypal.consumer.lag"
#: Bytes and messages a JetStream stream holds (attribute ``stream``), against its max_bytes.
STREAM_BYTES = "policypal.stream.bytes"
STREAM_MESSAGES = "policypal.stream.messages"
#: Dead-lettered messages kept in the DLQ stream, by where they came from (attribute ``source``).
DLQ_DEPTH = "policypal.dlq.depth"

#: The gen_ai semantic conventions' attribute names shared by spans and metrics.
MODEL = "gen_ai.request.model"
TOKEN_TYPE = "gen_ai.token.type"

_meter = metrics.get_meter("policypal")
# Instruments made before setup_metrics are proxies that start recording once the provider is set.
_requests = _meter.create_counter(REQUESTS, unit="{request}", description="Handled messages by outcome.")
_duration = _meter.create_histogram(
    REQUEST_DURATION, unit="s", description="Time from receiving a message to settling it."
)
_tokens = _meter.create_counter(LLM_TOKENS, unit="{token}", description="LLM tokens by model and direction.")
_cost = _meter.create_counter(LLM_COST, unit="USD", description="LLM cost in US dollars by model.")


def setup_metrics(
    service_name: str,
    *,
    otlp: OtlpTarget | None = None,
    console: bool = False,
    readers: Sequence[MetricReader] = (),
) -> MeterProvider:
    """Install and return the global meter provider of this process (see :func:`build_meter_provider`)."""
    provider = build_meter_provider(service_name, otlp=otlp, console=console, readers=readers)
    metrics.set_meter_provider(provider)
    return provider


def build_meter_provider(
    service_name: str,
    *,
    otlp: OtlpTarget | None = None,
    console: bool = False,
    readers: Sequence[MetricReader] = (),
    export_interval_seconds: float | None = None,
) -> MeterProvider:
    """A meter provider exporting to ``otlp`` and to the console when asked; ``readers`` adds others
    (tests pass an ``InMemoryMetricReader``).
    """
    all_readers = list(readers)
    # None: the SDK's OTEL_METRIC_EXPORT_INTERVAL (milliseconds, default 60 s).
    interval_ms = export_interval_seconds * 1000 if export_interval_seconds is not None else None
    if otlp is not None:
        all_readers.append(
            PeriodicExportingMetricReader(metric_exporter(otlp), export_interval_millis=interval_ms)
        )
    if console:
        all_readers.append(
            PeriodicExportingMetricReader(ConsoleMetricExporter(), export_interval_millis=interval_ms)
        )
    return MeterProvider(metric_readers=all_readers, resource=Resource.create({"service.name": service_name}))


def record_request(service: str, action: str | None, outcome: str, seconds: float) -> None:
    """Count one handled message and its duration."""
    attributes = {"service": service, "action": action or "none", "outcome": outcome}
    _requests.add(1, attributes)
    _duration.record(seconds, attributes)


def record_llm_usage(model: str, input_tokens: int, output_tokens: int, cost_usd: float) -> None:
    """Count the tokens and cost of one LLM call."""
    _tokens.add(input_tokens, {MODEL: model, TOKEN_TYPE: "input"})
    _tokens.add(output_tokens, {MODEL: model, TOKEN_TYPE: "output"})
    _cost.add(cost_usd, {MODEL: model})
