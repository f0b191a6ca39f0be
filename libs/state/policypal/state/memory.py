"""What a conversation remembers between turns, besides its messages.

- the document registry: every document a turn has used, with the turn that last used it; it only
  grows (docs/product.md, Conversation memory), so "those two docs" still resolves after many messages;
- the summary of older turns (docs/product.md, Conversation memory: past 15 messages, the last 10 stay verbatim);
- the pending interrupt: the PalAssist question the conversation waits on, with the turn's resume
  point (``policypal.contracts.ResumePoint``), which the resolver continues from.

Per-turn values (the action, the resolved documents of one message) are not kept here: the resolver
computes them afresh for every message, and saves them only inside a pending interrupt.
"""

from datetime import datetime
from typing import Any

from pydantic import BaseModel, Field, field_validator
from redis.asyncio import Redis

from policypal.contracts import DocType, InterruptEvent
from policypal.contracts.envelope import utc_now
from policypal.contracts.resume_point import ResumePoint
from policypal.state import keys

# Deletes the pending interrupt only if it is still the one named, so a late resume or a newer
# message never removes a question that was asked after it.
_DELETE_IF_SAME = """
local raw = redis.call('GET', KEYS[1])
if not raw then return 0 end
if cjson.decode(raw)['interrupt']['interrupt_id'] == ARGV[1] then
  redis.call('DEL', KEYS[1])
  return 1
end
return 0
"""


class RegistryEntry(BaseModel):
    """A document the conversation has used; ``last_used_turn`` orders the registry by recency."""

    document_id: str
    title: str
    version: str
    doc_type: DocType
    last_used_turn: int = 0

    @property
    def display_title(self) -> str:
        """The title as the library shows it: "Title (Version)"."""
        return f"{self.title} ({self.version})" if self.version else self.title


class ConversationSummary(BaseModel):
    """A summary of the conversation's first ``covers_messages`` messages."""

    text: str
    covers_messages: int = Field(ge=0)
    created_at: datetime = Field(default_factory=utc_now)


class PendingInterrupt(BaseModel):
    """The interrupt a conversation waits on and what the resolver needs to continue from it."""

    interrupt: InterruptEvent
    resume_point: ResumePoint | None = Field(
        default=None, description="Where the turn continues; None for a question with nothing to resume."
    )
    created_at: datetime = Field(default_factory=utc_now)

    @field_validator("resume_point", mode="before")
    @classmethod
    def _empty_is_none(cls, value: Any) -> Any:
        # Records written before the resume point was a contract stored "nothing" as {}.
        return None if value == {} else value


class ConversationMemory:
    """Registry, summary and pending interrupt of conversations; keys are per tenant."""

    def __init__(self, redis: Redis) -> None:
        self._redis = redis
        self._delete_if_same = redis.register_script(_DELETE_IF_SAME)

    async def registry(self, tenant_id: str, conversation_id: str) -> list[RegistryEntry]:
        """Every document the conversation has used, most recently used first."""
        raws = await self._redis.hvals(keys.conversation_registry(tenant_id, conversation_id))
        entries = [RegistryEntry.model_validate_json(raw) for raw in raws]
        return sorted(entries, key=lambda e: (-e.last_used_turn, e.title.lower()))

    async def remember_documents(
        self, tenant_id: str, conversation_id: str, entries: list[RegistryEntry]
    ) -> None:
        """Add ``entries`` to the registry as used by one new turn; nothing is ever removed."""
        if not entries:
            return
        turn = await self._redis.incr(keys.conversation_registry_turn(tenant_id, conversation_id))
        key = keys.conversation_registry(tenant_id, conversation_id)
        async with self._redis.pipeline(transaction=True) as pipe:
            for entry in entries:
                used = entry.model_copy(update={"last_used_turn": int(turn)})
                pipe.hset(key, entry.document_id, used.model_dump_json())
            await pipe.execute()

    async def summary(self, tenant_id: str, conversation_id: str) -> ConversationSummary | None:
        """The stored summary of older turns, if one was made."""
        raw = await self._redis.get(keys.conversation_summary(tenant_id, conversation_id))
        return ConversationSummary.model_validate_json(raw) if raw is not None else None

    async def save_summary(self, tenant_id: str, conversation_id: str, summary: ConversationSummary) -> None:
        """Replace the summary of older turns."""
        await self._redis.set(
            keys.conversation_summary(tenant_id, conversation_id), summary.model_dump_json()
        )

    async def pending(self, tenant_id: str, conversation_id: str) -> PendingInterrupt | None:
        """The interrupt the conversation waits on, if any."""
        raw = await self._redis.get(keys.conversation_pending_interrupt(tenant_id, conversation_id))
        return PendingInterrupt.model_validate_json(raw) if raw is not None else None

    async def save_pending(self, pending: PendingInterrupt) -> None:
        """Make ``pending`` the conversation's one pending interrupt (a conversation waits on one)."""
        event = pending.interrupt
        if event.thread_id is None:
            raise ValueError("an interrupt needs its conversation (thread_id)")
        await self._redis.set(
            keys.conversation_pending_interrupt(event.tenant_id, event.thread_id), pending.model_dump_json()
        )

    async def clear_pending(self, tenant_id: str, conversation_id: str, interrupt_id: str) -> bool:
        """Remove the pending interrupt if it is ``interrupt_id``; True if it was removed."""
        removed = await self._delete_if_same(
            keys=[keys.conversation_pending_interrupt(tenant_id, conversation_id)], args=[interrupt_id]
        )
        return bool(removed)
