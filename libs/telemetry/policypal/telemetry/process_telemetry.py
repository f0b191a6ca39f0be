"""A service process's telemetry in one call: JSON logs, then tracer and meter providers from its settings."""

from dataclasses import dataclass
from typing import Protocol

from opentelemetry.sdk.metrics import MeterProvider
from opentelemetry.sdk.trace import TracerProvider

from policypal.telemetry.json_logs import configure_json_logging
from policypal.telemetry.metrics import setup_metrics
from policypal.telemetry.otlp_export import OtlpVariables, otlp_target
from policypal.telemetry.tracing import setup_tracing


class TelemetrySettings(OtlpVariables, Protocol):
    """What ``setup_telemetry`` reads (``policypal.config.Settings`` has it)."""

    @property
    def otel_console(self) -> bool: ...
    @property
    def log_level(self) -> str: ...


@dataclass(frozen=True)
class ProcessTelemetry:
    """The providers installed for this process."""

    tracer_provider: TracerProvider
    meter_provider: MeterProvider

    def force_flush(self) -> None:
        """Export what is buffered now (before a stop that may not run ``shutdown``)."""
        self.meter_provider.force_flush()
        self.tracer_provider.force_flush()

    def shutdown(self) -> None:
        """Export what is buffered and stop exporting."""
        self.meter_provider.shutdown()
        self.tracer_provider.shutdown()


def setup_telemetry(service_name: str, settings: TelemetrySettings) -> ProcessTelemetry:
    """JSON logs for ``service_name``, and the global tracer and meter providers exporting where the
    OTLP settings say (``policypal.telemetry.otlp_export``)."""
    configure_json_logging(service_name, settings.log_level)
    tracer_provider = setup_tracing(
        service_name, otlp=otlp_target(settings, "traces"), console=settings.otel_console
    )
    meter_provider = setup_metrics(
        service_name, otlp=otlp_target(settings, "metrics"), console=settings.otel_console
    )
    return ProcessTelemetry(tracer_provider, meter_provider)
