"""Broker factory: one NatsBroker per process, traced, quiet per message."""

import logging
from typing import Any

from faststream.nats import NatsBroker
from faststream.nats.opentelemetry import NatsTelemetryMiddleware
from faststream.nats.security import NatsUserPassword
from opentelemetry.trace import TracerProvider

from policypal.bus.streams import declare_streams, jstream
from policypal.config import Settings
from policypal.contracts.streams import ALL_STREAMS, StreamSpec

__all__ = [
    "DEFAULT_NATS_URL",
    "StreamDeclaringBroker",
    "build_broker",
    "credentials",
    "jstream",
    "nats_servers",
]

DEFAULT_NATS_URL = "nats://127.0.0.1:4222"


def build_broker(
    settings: Settings, *, tracer_provider: TracerProvider | None = None
) -> "StreamDeclaringBroker":
    """A broker for ``settings.nats_url`` that joins callers' traces through message headers."""
    # Per-message INFO logs cost ~30 % throughput (docs/architecture.md, Platform facts); keep them at DEBUG.
    broker = StreamDeclaringBroker(
        # A list: nats-py reads a comma-separated string as one (invalid) URL.
        nats_servers(settings.nats_url or DEFAULT_NATS_URL),
        security=_security(settings),
        middlewares=[NatsTelemetryMiddleware(tracer_provider=tracer_provider)],
        log_level=logging.DEBUG,
        # A logger of our own: FastStream's default one writes coloured text beside the JSON logs.
        logger=logging.getLogger("faststream.access.nats"),
        max_reconnect_attempts=-1,
        # In-flight handlers get this long on SIGTERM; below Kubernetes' 60 s grace period.
        graceful_timeout=settings.graceful_timeout_seconds,
    )
    broker.stream_settings = settings
    return broker


class StreamDeclaringBroker(NatsBroker):
    """A NatsBroker that declares the streams its subscribers and publishers use, with the replicas and
    limits of its settings, before they start (``jstream`` keeps FastStream from declaring them)."""

    stream_settings: Settings | None = None

    async def start(self) -> None:
        """Connect, declare the streams in use, then start the subscribers."""
        await self.connect()
        await declare_streams(
            self.connection.jetstream(), self.streams_in_use(), settings=self.stream_settings
        )
        await super().start()

    def streams_in_use(self) -> tuple[StreamSpec, ...]:
        """The specs of the streams this broker's subscribers and publishers name."""
        names = {
            stream.name
            for endpoint in (*self.subscribers, *self.publishers)
            if (stream := getattr(endpoint, "stream", None)) is not None
        }
        return tuple(spec for spec in ALL_STREAMS if spec.name in names)


def nats_servers(url: str) -> list[str]:
    """The servers of a NATS_URL (comma-separated), each with a scheme as nats-py would read it."""
    servers = [server.strip() for server in url.split(",") if server.strip()]
    return [server if "://" in server else f"nats://{server}" for server in servers]


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
