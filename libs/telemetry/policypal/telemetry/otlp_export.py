"""Where traces and metrics go over OTLP, read as the OpenTelemetry specification defines its variables.

- ``OTEL_EXPORTER_OTLP_ENDPOINT`` is the collector's base URL. Over ``http/protobuf`` each signal goes
  to its path under it (``http://collector:4318`` -> ``/v1/traces`` and ``/v1/metrics``); over
  ``grpc`` both go to the base as it is (``http://collector:4317``).
- ``OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`` and ``OTEL_EXPORTER_OTLP_METRICS_ENDPOINT`` are used as given.
- ``OTEL_EXPORTER_OTLP_PROTOCOL`` is ``http/protobuf`` (the default) or ``grpc``;
  ``OTEL_EXPORTER_OTLP_TRACES_PROTOCOL`` and ``_METRICS_PROTOCOL`` choose per signal.

A base that already ends in ``/v1/traces`` (how PolicyPal read the variable before) is taken as the
base without that path, with a warning, so such a setting does not lose every span to a 404.
"""

import logging
from dataclasses import dataclass
from typing import Literal, Protocol

from opentelemetry.sdk.metrics.export import MetricExporter
from opentelemetry.sdk.trace.export import SpanExporter

OtlpProtocol = Literal["http/protobuf", "grpc"]
Signal = Literal["traces", "metrics"]
PROTOCOLS: tuple[OtlpProtocol, ...] = ("http/protobuf", "grpc")
SIGNAL_PATHS: dict[Signal, str] = {"traces": "/v1/traces", "metrics": "/v1/metrics"}

_log = logging.getLogger(__name__)


class OtlpVariables(Protocol):
    """The OTLP settings of a process (``policypal.config.Settings`` has them all)."""

    @property
    def otel_exporter_otlp_endpoint(self) -> str | None: ...
    @property
    def otel_exporter_otlp_traces_endpoint(self) -> str | None: ...
    @property
    def otel_exporter_otlp_metrics_endpoint(self) -> str | None: ...
    @property
    def otel_exporter_otlp_protocol(self) -> str | None: ...
    @property
    def otel_exporter_otlp_traces_protocol(self) -> str | None: ...
    @property
    def otel_exporter_otlp_metrics_protocol(self) -> str | None: ...


@dataclass(frozen=True)
class OtlpTarget:
    """Where one signal is exported and how."""

    endpoint: str
    protocol: OtlpProtocol


def _protocol(value: str | None, variable: str) -> OtlpProtocol:
    if value is None or not value.strip():
        return "http/protobuf"
    chosen = value.strip().lower()
    for protocol in PROTOCOLS:
        if chosen == protocol:
            return protocol
    raise ValueError(f"{variable}={value!r} is not supported: use one of {', '.join(PROTOCOLS)}")


def _base(endpoint: str) -> str:
    base = endpoint.rstrip("/")
    for path in SIGNAL_PATHS.values():
        if base.endswith(path):
            _log.warning(
                "OTEL_EXPORTER_OTLP_ENDPOINT=%s names a signal's path; it is the collector's base URL: "
                "using %s",
                endpoint,
                base.removesuffix(path),
            )
            return base.removesuffix(path)
    return base


def otlp_target(variables: OtlpVariables, signal: Signal) -> OtlpTarget | None:
    """Where ``signal`` goes, or None when no endpoint is configured for it."""
    upper = signal.upper()
    protocol = _protocol(
        getattr(variables, f"otel_exporter_otlp_{signal}_protocol") or variables.otel_exporter_otlp_protocol,
        f"OTEL_EXPORTER_OTLP_{upper}_PROTOCOL or OTEL_EXPORTER_OTLP_PROTOCOL",
    )
    specific: str | None = getattr(variables, f"otel_exporter_otlp_{signal}_endpoint")
    if specific:
        return OtlpTarget(specific, protocol)
    base = variables.otel_exporter_otlp_endpoint
    if not base:
        return None
    if protocol == "grpc":
        return OtlpTarget(base, protocol)
    return OtlpTarget(_base(base) + SIGNAL_PATHS[signal], protocol)


def span_exporter(target: OtlpTarget) -> SpanExporter:
    """The OTLP span exporter of ``target``."""
    if target.protocol == "grpc":
        from opentelemetry.exporter.otlp.proto.grpc.trace_exporter import OTLPSpanExporter as GrpcSpans

        return GrpcSpans(endpoint=target.endpoint, insecure=target.endpoint.startswith("http://"))
    from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter as HttpSpans

    return HttpSpans(endpoint=target.endpoint)


def metric_exporter(target: OtlpTarget) -> MetricExporter:
    """The OTLP metric exporter of ``target``."""
    if target.protocol == "grpc":
        from opentelemetry.exporter.otlp.proto.grpc.metric_exporter import OTLPMetricExporter as GrpcMetrics

        return GrpcMetrics(endpoint=target.endpoint, insecure=target.endpoint.startswith("http://"))
    from opentelemetry.exporter.otlp.proto.http.metric_exporter import OTLPMetricExporter as HttpMetrics

    return HttpMetrics(endpoint=target.endpoint)
