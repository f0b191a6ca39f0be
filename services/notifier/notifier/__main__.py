"""``python -m notifier``: serve the notifier with uvicorn on settings.host:settings.notifier_port."""

import uvicorn

from notifier.app import create_app
from policypal.config import get_settings
from policypal.telemetry import configure_json_logging, metrics_endpoint, setup_metrics, setup_tracing


def main() -> None:
    """Read the settings, set up tracing and metrics and serve until stopped."""
    settings = get_settings()
    configure_json_logging("notifier", settings.log_level)
    provider = setup_tracing(
        "notifier", otlp_endpoint=settings.otel_exporter_otlp_endpoint, console=settings.otel_console
    )
    setup_metrics(
        "notifier",
        otlp_endpoint=metrics_endpoint(
            settings.otel_exporter_otlp_endpoint, settings.otel_exporter_otlp_metrics_endpoint
        ),
        console=settings.otel_console,
    )
    uvicorn.run(
        create_app(settings, tracer_provider=provider),
        host=settings.host,
        port=settings.notifier_port,
        log_level=settings.log_level.lower(),
        # uvicorn's loggers propagate to the JSON handler instead of their own.
        log_config=None,
    )


if __name__ == "__main__":
    main()
