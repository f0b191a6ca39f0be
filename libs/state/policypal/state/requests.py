"""Per-request records that make processing effectively once."""

from redis.asyncio import Redis

from policypal.contracts import parse_event
from policypal.contracts.envelope import Envelope
from policypal.state import keys

TERMINAL_TTL_SECONDS = 7 * 86_400


class RequestLedger:
    """Remembers the one terminal event of each request."""

    def __init__(self, redis: Redis) -> None:
        self._redis = redis

    async def record_terminal(self, event: Envelope) -> Envelope:
        """Record ``event`` as the request's terminal event unless one exists; return the one that stands.

        A redelivered or retried request thus re-publishes the same event (same event id, hence the
        same Nats-Msg-Id) instead of producing a second answer.
        """
        key = keys.request_terminal(event.tenant_id, event.request_id)
        stored = await self._redis.set(key, event.model_dump_json(), nx=True, ex=TERMINAL_TTL_SECONDS)
        if stored:
            return event
        existing = await self._redis.get(key)
        return parse_event(existing) if existing is not None else event

    async def mark_published(self, event: Envelope) -> None:
        """Remember that the request's terminal event reached the bus."""
        key = keys.request_terminal_published(event.tenant_id, event.request_id)
        await self._redis.set(key, event.event_id, ex=TERMINAL_TTL_SECONDS)

    async def was_published(self, event: Envelope) -> bool:
        """Whether the request's terminal event already reached the bus.

        JetStream's duplicate window (minutes) cannot cover a redelivery hours later; this can.
        """
        return bool(
            await self._redis.exists(keys.request_terminal_published(event.tenant_id, event.request_id))
        )

    async def terminal(self, tenant_id: str, request_id: str) -> Envelope | None:
        """The terminal event of a request, if it ended."""
        raw = await self._redis.get(keys.request_terminal(tenant_id, request_id))
        return parse_event(raw) if raw is not None else None
