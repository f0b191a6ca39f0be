"""Broker factory: one NatsBroker per process, traced, quiet per message."""

import logging
from typing import Any

from faststream.nats import JStream, NatsBroker, RetentionPolicy, StorageType
from faststream.nats.opentelemetry import NatsTelemetryMiddleware
from faststream.nats.security import NatsUserPassword
from opentelemetry.trace import TracerProvider

from policypal.config import Settings
from policypal.contracts.streams import StreamSpec

DEFAULT_NATS_URL = "nats://127.0.0.1:4222"


def build_broker(settings: Settings, *, tracer_provider: TracerProvider | None = None) -> NatsBroker:
    """A broker for ``settings.nats_url`` that joins callers' traces through message headers."""
    # Per-message INFO logs cost ~30 % throughput (docs/architecture.md, Platform facts); keep them at DEBUG.
    return NatsBroker(
        settings.nats_url or DEFAULT_NATS_URL,
        security=_security(settings),
        middlewares=[NatsTelemetryMiddleware(tracer_provider=tracer_provider)],
        log_level=logging.DEBUG,
        # A logger of our own: FastStream's default one writes coloured text beside the JSON logs.
        logger=logging.getLogger("faststream.access.nats"),
        max_reconnect_attempts=-1,
        # In-flight handlers get this long on SIGTERM; below Kubernetes' 60 s grace period.
        graceful_timeout=settings.graceful_timeout_seconds,
    )


def credentials(settings: Settings) -> dict[str, Any]:
    """Connect options that log this service in as its own NATS user (none when it has none)."""
    if settings.nats_user is None:
        return {}
    password = settings.nats_password.get_secret_value() if settings.nats_password else None
    return {"user": settings.nats_user, "password": password}


def _security(settings: Settings) -> NatsUserPassword | None:
    if settings.nats_user is None:
        return None
    password = settings.nats_password.get_secret_value() if settings.nats_password else ""
    return NatsUserPassword(settings.nats_user, password)


def jstream(spec: StreamSpec) -> JStream:
    """The FastStream declaration of a stream spec (file storage)."""
    return JStream(
        spec.name,
        subjects=list(spec.subjects),
        retention=RetentionPolicy.WORK_QUEUE if spec.retention == "workqueue" else RetentionPolicy.LIMITS,
        max_age=float(spec.max_age_seconds) or None,
        storage=StorageType.FILE,
        duplicate_window=float(spec.duplicate_window_seconds),
    )
