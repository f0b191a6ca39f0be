"""OpenTelemetry set-up shared by every service."""

from policypal.telemetry.json_logs import JsonFormatter, configure_json_logging
from policypal.telemetry.tracing import setup_tracing, tracer

__all__ = ["JsonFormatter", "configure_json_logging", "setup_tracing", "tracer"]
