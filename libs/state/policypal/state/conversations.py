"""Conversations and their messages; appending a message is idempotent by message id."""

from datetime import UTC, datetime
from typing import Any, Literal

from pydantic import BaseModel, Field
from redis.asyncio import Redis

from policypal.state import keys

# Adds the message only if its id is new, atomically: a retried append never duplicates history.
_APPEND_ONCE = """
if redis.call('SADD', KEYS[1], ARGV[1]) == 1 then
  redis.call('RPUSH', KEYS[2], ARGV[2])
  return 1
end
return 0
"""


def user_message_id(request_id: str) -> str:
    """Id of the user turn that started a request: the same on every retry of the request."""
    return f"user-{request_id}"


def assistant_message_id(request_id: str) -> str:
    """Id of the one assistant turn that ends a request: the same on every redelivery."""
    return f"assistant-{request_id}"


def _now() -> datetime:
    return datetime.now(UTC)


class ConversationRecord(BaseModel):
    """A conversation owned by one user of one tenant."""

    conversation_id: str
    tenant_id: str
    user_id: str
    title: str = "New conversation"
    created_at: datetime = Field(default_factory=_now)
    last_message_at: datetime | None = None


class StoredMessage(BaseModel):
    """One turn of a conversation as kept in history."""

    message_id: str
    role: Literal["user", "assistant", "system"]
    content: str
    request_id: str
    created_at: datetime = Field(default_factory=_now)
    metadata: dict[str, Any] = Field(default_factory=dict, description="Action, citations, model, usage...")


class ConversationStore:
    """Reads and writes conversations; every read checks the owner."""

    def __init__(self, redis: Redis) -> None:
        self._redis = redis
        self._append_once = redis.register_script(_APPEND_ONCE)

    async def create(self, record: ConversationRecord) -> None:
        """Store a new conversation and list it for its owner."""
        async with self._redis.pipeline(transaction=True) as pipe:
            pipe.set(keys.conversation(record.tenant_id, record.conversation_id), record.model_dump_json())
            pipe.zadd(
                keys.user_conversations(record.tenant_id, record.user_id),
                {record.conversation_id: record.created_at.timestamp()},
            )
            await pipe.execute()

    async def get(self, tenant_id: str, user_id: str, conversation_id: str) -> ConversationRecord | None:
        """The conversation if it exists and belongs to this tenant and user, else None."""
        raw = await self._redis.get(keys.conversation(tenant_id, conversation_id))
        if raw is None:
            return None
        record = ConversationRecord.model_validate_json(raw)
        if record.tenant_id != tenant_id or record.user_id != user_id:
            return None
        return record

    async def recent(self, tenant_id: str, user_id: str, limit: int = 100) -> list[ConversationRecord]:
        """The user's conversations, most recently active first."""
        ids = await self._redis.zrevrange(keys.user_conversations(tenant_id, user_id), 0, limit - 1)
        if not ids:
            return []
        raws = await self._redis.mget([keys.conversation(tenant_id, str(i)) for i in ids])
        return [ConversationRecord.model_validate_json(raw) for raw in raws if raw is not None]

    async def append(self, conversation: ConversationRecord, message: StoredMessage) -> bool:
        """Append ``message`` unless a message with its id is already there; True if appended."""
        tenant, conv_id = conversation.tenant_id, conversation.conversation_id
        added = await self._append_once(
            keys=[
                keys.conversation_message_ids(tenant, conv_id),
                keys.conversation_messages(tenant, conv_id),
            ],
            args=[message.message_id, message.model_dump_json()],
        )
        if added:
            updated = conversation.model_copy(update={"last_message_at": message.created_at})
            async with self._redis.pipeline(transaction=True) as pipe:
                pipe.set(keys.conversation(tenant, conv_id), updated.model_dump_json())
                pipe.zadd(
                    keys.user_conversations(tenant, conversation.user_id),
                    {conv_id: message.created_at.timestamp()},
                )
                await pipe.execute()
        return bool(added)

    async def messages(
        self, tenant_id: str, conversation_id: str, last: int | None = None
    ) -> list[StoredMessage]:
        """The messages, oldest first; only the ``last`` N when given."""
        start = -last if last else 0
        raws = await self._redis.lrange(keys.conversation_messages(tenant_id, conversation_id), start, -1)
        return [StoredMessage.model_validate_json(raw) for raw in raws]
