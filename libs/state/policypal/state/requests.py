"""Per-request records that make processing effectively once."""

from dataclasses import dataclass

from redis.asyncio import Redis

from policypal.contracts import parse_event
from policypal.contracts.envelope import Envelope
from policypal.state import keys
from policypal.state.conversations import (
    APPEND_ONCE_SCRIPT,
    ConversationRecord,
    ConversationStore,
    append_args,
    append_keys,
)
from policypal.state.terminal_turns import ChatTerminal, terminal_turn

TERMINAL_TTL_SECONDS = 7 * 86_400

# Records the terminal event unless one stands and, when this one stands now, appends its turn with the
# conversation's own append script (KEYS[1-4], ARGV[1-5]), atomically: no other delivery can record or
# append in between. Returns {1, published, appended} or {0, published, the event that stands, kept}:
# every terminal turn of a request has the same message id (ARGV[1]), so ``kept`` says whether the
# history holds the standing event's turn already (or cannot: the conversation is gone).
_RECORD_AND_KEEP = f"""
local function append_once()
{APPEND_ONCE_SCRIPT}
end
local published = redis.call('EXISTS', KEYS[6])
if not redis.call('SET', KEYS[5], ARGV[6], 'NX', 'EX', ARGV[7]) then
  local kept = redis.call('SISMEMBER', KEYS[1], ARGV[1]) == 1 or redis.call('EXISTS', KEYS[3]) == 0
  return {{0, published, redis.call('GET', KEYS[5]), kept and 1 or 0}}
end
return {{1, published, append_once()}}
"""


@dataclass(frozen=True)
class RecordedTerminal:
    """The terminal event that stands for a request, and whether it already reached the bus."""

    standing: Envelope
    published: bool


class RequestLedger:
    """Remembers the one terminal event of each request."""

    def __init__(self, redis: Redis) -> None:
        self._redis = redis
        self._record_and_keep = redis.register_script(_RECORD_AND_KEEP)
        self._conversations = ConversationStore(redis)

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
        self, event: ChatTerminal, conversation: ConversationRecord
    ) -> RecordedTerminal:
        """Record ``event`` as the request's end unless one stands, keep the standing event's turn in
        ``conversation``, and say whether it reached the bus: one round trip.

        The append is the conversation's own (once per message id, never into a deleted conversation).
        Only when another event stood already and its turn is missing (it was recorded without one) is
        that turn appended in a second round trip.
        """
        turn = terminal_turn(event)
        recorded, published, *rest = await self._record_and_keep(
            keys=[
                *append_keys(conversation),
                keys.request_terminal(event.tenant_id, event.request_id),
                keys.request_terminal_published(event.tenant_id, event.request_id),
            ],
            args=[*append_args(conversation, turn), event.model_dump_json(), TERMINAL_TTL_SECONDS],
        )
        if recorded:
            return RecordedTerminal(standing=event, published=bool(published))
        raw_standing, kept = rest
        standing = parse_event(raw_standing)
        if not kept and isinstance(standing, ChatTerminal):
            await self._conversations.append(conversation, terminal_turn(standing))
        return RecordedTerminal(standing=standing, published=bool(published))

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
