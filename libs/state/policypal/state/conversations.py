"""Conversations and their messages; appending a message is idempotent by message id."""

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, Field, field_serializer, field_validator
from redis.asyncio import Redis

from policypal.contracts.envelope import utc_now
from policypal.contracts.message_metadata import MessageMetadata
from policypal.state import keys

# Adds the message only if its id is new and the conversation still exists, atomically: a retried
# append never duplicates history, and a late answer never brings back a deleted conversation. Only
# ``last_message_at`` of the stored record changes, so a rename made meanwhile is kept. The request
# ledger runs the same script inside its own (``RequestLedger.record_and_keep``).
APPEND_ONCE_SCRIPT = """
local raw = redis.call('GET', KEYS[3])
if not raw then
  return 0
end
if redis.call('SADD', KEYS[1], ARGV[1]) == 0 then
  return 0
end
redis.call('RPUSH', KEYS[2], ARGV[2])
local record = cjson.decode(raw)
record['last_message_at'] = ARGV[3]
redis.call('SET', KEYS[3], cjson.encode(record))
redis.call('ZADD', KEYS[4], ARGV[4], ARGV[5])
return 1
"""

# Stores a record unless one is there, and lists it for its owner; answers the record now stored.
_CREATE_ONCE = """
if redis.call('SET', KEYS[1], ARGV[1], 'NX') then
  redis.call('ZADD', KEYS[2], ARGV[2], ARGV[3])
  return ARGV[1]
end
return redis.call('GET', KEYS[1])
"""

# Changes the title of a stored record in place, leaving every other field as it is now.
_RENAME = """
local raw = redis.call('GET', KEYS[1])
if not raw then
  return nil
end
local record = cjson.decode(raw)
record['title'] = ARGV[1]
local encoded = cjson.encode(record)
redis.call('SET', KEYS[1], encoded)
return encoded
"""

# Titles a record still carrying the default title; a title the user gave it stays.
_TITLE_UNTITLED = """
local raw = redis.call('GET', KEYS[1])
if not raw then
  return nil
end
local record = cjson.decode(raw)
if record['title'] ~= ARGV[2] then
  return raw
end
record['title'] = ARGV[1]
local encoded = cjson.encode(record)
redis.call('SET', KEYS[1], encoded)
return encoded
"""


def user_message_id(request_id: str) -> str:
    """Id of the user turn that started a request: the same on every retry of the request."""
    return f"user-{request_id}"


def assistant_message_id(request_id: str) -> str:
    """Id of the one assistant turn that ends a request: the same on every redelivery."""
    return f"assistant-{request_id}"


def owned_conversation(raw: str | bytes | None, tenant_id: str, user_id: str) -> "ConversationRecord | None":
    """The stored conversation JSON ``raw`` if there is one and it belongs to this tenant and user."""
    if raw is None:
        return None
    record = ConversationRecord.model_validate_json(raw)
    if record.tenant_id != tenant_id or record.user_id != user_id:
        return None
    return record


class ConversationRecord(BaseModel):
    """A conversation owned by one user of one tenant."""

    conversation_id: str
    tenant_id: str
    user_id: str
    title: str = "New conversation"
    created_at: datetime = Field(default_factory=utc_now)
    last_message_at: datetime | None = None
    widget: bool = Field(
        default=False,
        description="Started by a website visitor's widget session: answered from the tenant's published documents.",
    )


class StoredMessage(BaseModel):
    """One turn of a conversation as kept in history."""

    message_id: str
    role: Literal["user", "assistant", "system"]
    content: str
    request_id: str
    created_at: datetime = Field(default_factory=utc_now)
    metadata: MessageMetadata | None = Field(
        default=None, description="What the turn is (an answer, an error, a question…), by its ``kind``."
    )

    @field_validator("metadata", mode="before")
    @classmethod
    def _empty_is_none(cls, value: Any) -> Any:
        # Records written before metadata was a contract stored "nothing" as {}.
        return None if value == {} else value

    @field_serializer("metadata")
    def _none_as_empty(self, metadata: MessageMetadata | None) -> MessageMetadata | dict[str, Any]:
        # Written as {} as before, so a reader of the earlier version (a rolling deployment) still reads it.
        return {} if metadata is None else metadata


def append_keys(conversation: ConversationRecord) -> list[str]:
    """The keys ``APPEND_ONCE_SCRIPT`` appends to ``conversation`` with (its KEYS[1-4])."""
    tenant, conversation_id = conversation.tenant_id, conversation.conversation_id
    return [
        keys.conversation_message_ids(tenant, conversation_id),
        keys.conversation_messages(tenant, conversation_id),
        keys.conversation(tenant, conversation_id),
        keys.user_conversations(tenant, conversation.user_id),
    ]


def append_args(conversation: ConversationRecord, message: StoredMessage) -> list[str | float]:
    """The arguments ``APPEND_ONCE_SCRIPT`` appends ``message`` to ``conversation`` with (its ARGV[1-5])."""
    return [
        message.message_id,
        message.model_dump_json(),
        message.model_dump(mode="json")["created_at"],
        message.created_at.timestamp(),
        conversation.conversation_id,
    ]


class ConversationStore:
    """Reads and writes conversations; every read checks the owner."""

    def __init__(self, redis: Redis) -> None:
        self._redis = redis
        self._append_once = redis.register_script(APPEND_ONCE_SCRIPT)
        self._rename = redis.register_script(_RENAME)
        self._title_untitled = redis.register_script(_TITLE_UNTITLED)
        self._create_once = redis.register_script(_CREATE_ONCE)

    async def create(self, record: ConversationRecord) -> None:
        """Store a new conversation and list it for its owner."""
        async with self._redis.pipeline(transaction=True) as pipe:
            pipe.set(keys.conversation(record.tenant_id, record.conversation_id), record.model_dump_json())
            pipe.zadd(
                keys.user_conversations(record.tenant_id, record.user_id),
                {record.conversation_id: record.created_at.timestamp()},
            )
            await pipe.execute()

    async def create_once(self, record: ConversationRecord) -> ConversationRecord:
        """Store ``record`` unless its conversation exists (two first messages racing store one); the stored one."""
        raw = await self._create_once(
            keys=[
                keys.conversation(record.tenant_id, record.conversation_id),
                keys.user_conversations(record.tenant_id, record.user_id),
            ],
            args=[record.model_dump_json(), record.created_at.timestamp(), record.conversation_id],
        )
        return ConversationRecord.model_validate_json(raw)

    async def exists(self, tenant_id: str, conversation_id: str) -> bool:
        """True when a conversation with this id is stored in the tenant, whoever owns it."""
        return bool(await self._redis.exists(keys.conversation(tenant_id, conversation_id)))

    async def get(self, tenant_id: str, user_id: str, conversation_id: str) -> ConversationRecord | None:
        """The conversation if it exists and belongs to this tenant and user, else None."""
        raw = await self._redis.get(keys.conversation(tenant_id, conversation_id))
        return owned_conversation(raw, tenant_id, user_id)

    async def recent(self, tenant_id: str, user_id: str, limit: int = 100) -> list[ConversationRecord]:
        """The user's conversations, most recently active first."""
        ids = await self._redis.zrevrange(keys.user_conversations(tenant_id, user_id), 0, limit - 1)
        if not ids:
            return []
        raws = await self._redis.mget([keys.conversation(tenant_id, str(i)) for i in ids])
        return [ConversationRecord.model_validate_json(raw) for raw in raws if raw is not None]

    async def append(self, conversation: ConversationRecord, message: StoredMessage) -> bool:
        """Append ``message`` unless its id is already there or the conversation is gone; True if appended."""
        added = await self._append_once(
            keys=append_keys(conversation), args=append_args(conversation, message)
        )
        return bool(added)

    async def rename(self, conversation: ConversationRecord, title: str) -> ConversationRecord | None:
        """Set the title of a stored conversation; None if it was deleted meanwhile."""
        raw = await self._rename(
            keys=[keys.conversation(conversation.tenant_id, conversation.conversation_id)], args=[title]
        )
        return None if raw is None else ConversationRecord.model_validate_json(raw)

    async def title_untitled(self, conversation: ConversationRecord, title: str) -> ConversationRecord | None:
        """Set ``title`` only while the conversation has the default title (a user's rename wins, even a
        concurrent one); the stored record, or None if it was deleted meanwhile.
        """
        default = ConversationRecord.model_fields["title"].default
        raw = await self._title_untitled(
            keys=[keys.conversation(conversation.tenant_id, conversation.conversation_id)],
            args=[title, default],
        )
        return None if raw is None else ConversationRecord.model_validate_json(raw)

    async def delete(self, conversation: ConversationRecord) -> None:
        """Remove the conversation with its messages, memory and pending question, and unlist it."""
        tenant, conversation_id = conversation.tenant_id, conversation.conversation_id
        async with self._redis.pipeline(transaction=True) as pipe:
            pipe.delete(*keys.conversation_keys(tenant, conversation_id))
            pipe.zrem(keys.user_conversations(tenant, conversation.user_id), conversation_id)
            await pipe.execute()

    async def last_messages(self, tenant_id: str, conversation_ids: list[str]) -> list[StoredMessage | None]:
        """The newest message of each conversation (None for one without messages), in the given order."""
        if not conversation_ids:
            return []
        async with self._redis.pipeline(transaction=False) as pipe:
            for conversation_id in conversation_ids:
                pipe.lindex(keys.conversation_messages(tenant_id, conversation_id), -1)
            raws = await pipe.execute()
        return [None if raw is None else StoredMessage.model_validate_json(raw) for raw in raws]

    async def messages(
        self, tenant_id: str, conversation_id: str, last: int | None = None
    ) -> list[StoredMessage]:
        """The messages, oldest first; only the ``last`` N when given."""
        start = -last if last else 0
        raws = await self._redis.lrange(keys.conversation_messages(tenant_id, conversation_id), start, -1)
        return [StoredMessage.model_validate_json(raw) for raw in raws]
