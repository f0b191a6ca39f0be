"""``python -m gateway``: serve the gateway with uvicorn on settings.host:settings.port."""

import uvicorn

from gateway.app import create_app
from policypal.config import get_settings
from policypal.telemetry import configure_json_logging, metrics_endpoint, setup_metrics, setup_tracing


def main() -> None:
    """Read the settings, set up tracing and metrics and serve until stopped."""
    settings = get_settings()
    configure_json_logging("gateway", settings.log_level)
    provider = setup_tracing(
        "gateway", otlp_endpoint=settings.otel_exporter_otlp_endpoint, console=settings.otel_console
    )
    meters = setup_metrics(
        "gateway",
        otlp_endpoint=metrics_endpoint(
            settings.otel_exporter_otlp_endpoint, settings.otel_exporter_otlp_metrics_endpoint
        ),
        console=settings.otel_console,
    )
    # Flushed when the app stops (uvicorn then re-raises SIGTERM, so nothing after run() would run).
    app = create_app(settings, tracer_provider=provider, on_stop=[meters.force_flush, provider.force_flush])
    # log_config=None: uvicorn's loggers propagate to the JSON handler instead of their own.
    uvicorn.run(
        app, host=settings.host, port=settings.port, log_level=settings.log_level.lower(), log_config=None
    )


if __name__ == "__main__":
    main()
