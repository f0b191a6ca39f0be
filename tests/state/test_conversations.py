"""ConversationStore's rename, delete and previews against a real Valkey, with answers arriving late."""

import pytest
from redis.asyncio import Redis

from policypal.state import ConversationRecord, ConversationStore, StoredMessage

pytestmark = pytest.mark.integration


def _message(message_id: str, content: str = "hi") -> StoredMessage:
    return StoredMessage(message_id=message_id, role="assistant", content=content, request_id="r1")


async def test_rename_keeps_what_an_append_wrote_meanwhile(redis_client: Redis) -> None:
    store = ConversationStore(redis_client)
    conversation = ConversationRecord(conversation_id="c1", tenant_id="acme", user_id="alice")
    await store.create(conversation)
    renamed = await store.rename(conversation, "Retention")
    assert renamed is not None
    assert renamed.title == "Retention"
    # A worker appends with the copy it read before the rename: the new title stays.
    message = _message("m1")
    assert await store.append(conversation, message) is True
    stored = await store.get("acme", "alice", "c1")
    assert stored is not None
    assert (stored.title, stored.last_message_at) == ("Retention", message.created_at)
    assert [c.conversation_id for c in await store.recent("acme", "alice")] == ["c1"]


async def test_delete_removes_everything_and_a_late_answer_does_not_bring_it_back(
    redis_client: Redis,
) -> None:
    store = ConversationStore(redis_client)
    kept = ConversationRecord(conversation_id="c0", tenant_id="acme", user_id="alice")
    doomed = ConversationRecord(conversation_id="c1", tenant_id="acme", user_id="alice")
    await store.create(kept)
    await store.create(doomed)
    assert await store.append(doomed, _message("m1")) is True
    await redis_client.set("pp:acme:conv:c1:summary", "{}")

    await store.delete(doomed)
    assert await store.get("acme", "alice", "c1") is None
    assert await redis_client.keys("pp:acme:conv:c1*") == []
    assert await store.append(doomed, _message("m2")) is False
    assert await store.rename(doomed, "Back") is None
    assert await redis_client.keys("pp:acme:conv:c1*") == []
    assert [c.conversation_id for c in await store.recent("acme", "alice")] == ["c0"]


async def test_last_messages_in_the_given_order(redis_client: Redis) -> None:
    store = ConversationStore(redis_client)
    for conversation_id in ("c1", "c2"):
        await store.create(
            ConversationRecord(conversation_id=conversation_id, tenant_id="acme", user_id="alice")
        )
    c2 = ConversationRecord(conversation_id="c2", tenant_id="acme", user_id="alice")
    await store.append(c2, _message("m1", "first"))
    await store.append(c2, _message("m2", "second"))
    newest = await store.last_messages("acme", ["c1", "c2", "missing"])
    assert [m.content if m else None for m in newest] == [None, "second", None]
    assert await store.last_messages("acme", []) == []
