"""OpenTelemetry set-up shared by every service."""

from policypal.telemetry.json_logs import JsonFormatter, configure_json_logging
from policypal.telemetry.metrics import build_meter_provider, record_llm_usage, record_request, setup_metrics
from policypal.telemetry.otlp_export import OtlpTarget, OtlpVariables, otlp_target
from policypal.telemetry.process_telemetry import ProcessTelemetry, setup_telemetry
from policypal.telemetry.request_scope import (
    RequestScope,
    current_scope,
    request_scope,
    scope_attributes,
    service_span,
    stamp_action,
)
from policypal.telemetry.tracing import build_tracer_provider, setup_tracing, tracer
from policypal.telemetry.url_redaction import AccessLogRedaction, QueryRedaction, redact_query, redact_url

__all__ = [
    "AccessLogRedaction",
    "JsonFormatter",
    "OtlpTarget",
    "OtlpVariables",
    "ProcessTelemetry",
    "QueryRedaction",
    "RequestScope",
    "build_meter_provider",
    "build_tracer_provider",
    "configure_json_logging",
    "current_scope",
    "otlp_target",
    "record_llm_usage",
    "record_request",
    "redact_query",
    "redact_url",
    "request_scope",
    "scope_attributes",
    "service_span",
    "setup_metrics",
    "setup_telemetry",
    "setup_tracing",
    "stamp_action",
    "tracer",
]
