"""Per-request records that make processing effectively once."""

from dataclasses import dataclass

from redis.asyncio import Redis

from policypal.contracts import parse_event
from policypal.contracts.envelope import Envelope
from policypal.state import keys
from policypal.state.conversations import APPEND_ONCE_SCRIPT, ConversationRecord, StoredMessage

TERMINAL_TTL_SECONDS = 7 * 86_400

# Records the terminal event unless one stands and, when this one stands now, appends its turn with the
# conversation's own append script (KEYS[1-4], ARGV[1-5]), atomically: no other delivery can record or
# append in between. Returns {1, published, appended} or {0, published, the event that stands}.
_RECORD_AND_KEEP = f"""
local function append_once()
{APPEND_ONCE_SCRIPT}
end
local published = redis.call('EXISTS', KEYS[6])
if not redis.call('SET', KEYS[5], ARGV[6], 'NX', 'EX', ARGV[7]) then
  return {{0, published, redis.call('GET', KEYS[5])}}
end
return {{1, published, append_once()}}
"""


@dataclass(frozen=True)
class RecordedTerminal:
    """The terminal event that stands for a request, and whether it already reached the bus."""

    standing: Envelope
    published: bool
    #: Whether the standing event's turn was already handed to the history (``record_and_keep``, when
    #: its own event stood); otherwise the caller appends it.
    kept: bool = False


class RequestLedger:
    """Remembers the one terminal event of each request."""

    def __init__(self, redis: Redis) -> None:
        self._redis = redis
        self._record_and_keep = redis.register_script(_RECORD_AND_KEEP)

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

    async def record_and_keep(
        self, event: Envelope, conversation: ConversationRecord, turn: StoredMessage
    ) -> RecordedTerminal:
        """``record_terminal``, ``was_published`` and, if ``event`` stands, ``turn`` appended: one round trip.

        The append is the conversation's own (once per message id, never into a deleted conversation).
        When another event stood already, nothing is appended: the caller keeps that event's turn.
        """
        tenant, conv_id = conversation.tenant_id, conversation.conversation_id
        recorded, published, third = await self._record_and_keep(
            keys=[
                keys.conversation_message_ids(tenant, conv_id),
                keys.conversation_messages(tenant, conv_id),
                keys.conversation(tenant, conv_id),
                keys.user_conversations(tenant, conversation.user_id),
                keys.request_terminal(event.tenant_id, event.request_id),
                keys.request_terminal_published(event.tenant_id, event.request_id),
            ],
            args=[
                turn.message_id,
                turn.model_dump_json(),
                turn.model_dump(mode="json")["created_at"],
                turn.created_at.timestamp(),
                conv_id,
                event.model_dump_json(),
                TERMINAL_TTL_SECONDS,
            ],
        )
        if recorded:
            return RecordedTerminal(standing=event, published=bool(published), kept=True)
        return RecordedTerminal(standing=parse_event(third), published=bool(published))

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
