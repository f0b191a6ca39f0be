"""Redis state against a real Valkey: owner checks, idempotent history, one terminal event."""

import pytest
from redis.asyncio import Redis

from policypal.contracts import ErrorEvent, ResponseEvent
from policypal.state import (
    ConversationRecord,
    ConversationStore,
    DocumentCatalog,
    DocumentRecord,
    RequestLedger,
    StoredMessage,
)

pytestmark = pytest.mark.integration


def _document(document_id: str = "d1", tenant: str = "acme", user: str = "alice") -> DocumentRecord:
    return DocumentRecord(
        document_id=document_id,
        tenant_id=tenant,
        user_id=user,
        title="Basel",
        version="1",
        doc_type="regulatory",
        filename="b.pdf",
        content_type="application/pdf",
        size_bytes=10,
        sha256=f"sha-{document_id}",
        request_id="r1",
    )


async def test_catalog_reads_only_the_owners_documents(redis_client: Redis) -> None:
    catalog = DocumentCatalog(redis_client)
    await catalog.create(_document())
    assert (await catalog.get("acme", "alice", "d1")) is not None
    assert await catalog.get("acme", "bob", "d1") is None
    assert await catalog.get("globex", "alice", "d1") is None
    assert [d.document_id for d in await catalog.list("acme", "alice")] == ["d1"]
    assert await catalog.list("acme", "bob") == []
    found = await catalog.find_by_sha256("acme", "alice", "sha-d1")
    assert found is not None
    assert found.document_id == "d1"


async def test_catalog_keys_are_tenant_prefixed(redis_client: Redis) -> None:
    await DocumentCatalog(redis_client).create(_document())
    assert all(key.startswith("pp:acme:") for key in await redis_client.keys("*"))


async def test_save_updates_status(redis_client: Redis) -> None:
    catalog = DocumentCatalog(redis_client)
    record = _document()
    await catalog.create(record)
    await catalog.save(record.model_copy(update={"status": "ready", "pages": 3, "chunks": 7}))
    stored = await catalog.get("acme", "alice", "d1")
    assert stored is not None
    assert (stored.status, stored.pages, stored.chunks) == ("ready", 3, 7)


async def test_appending_the_same_message_twice_keeps_one(redis_client: Redis) -> None:
    store = ConversationStore(redis_client)
    conversation = ConversationRecord(conversation_id="c1", tenant_id="acme", user_id="alice")
    await store.create(conversation)
    message = StoredMessage(message_id="m1", role="user", content="hi", request_id="r1")
    assert await store.append(conversation, message) is True
    assert await store.append(conversation, message) is False
    assert [m.message_id for m in await store.messages("acme", "c1")] == ["m1"]
    updated = await store.get("acme", "alice", "c1")
    assert updated is not None
    assert updated.last_message_at == message.created_at
    assert await store.get("acme", "bob", "c1") is None


async def test_last_messages(redis_client: Redis) -> None:
    store = ConversationStore(redis_client)
    conversation = ConversationRecord(conversation_id="c1", tenant_id="acme", user_id="alice")
    await store.create(conversation)
    for i in range(5):
        await store.append(
            conversation, StoredMessage(message_id=f"m{i}", role="user", content=str(i), request_id="r")
        )
    assert [m.content for m in await store.messages("acme", "c1", last=2)] == ["3", "4"]


async def test_the_first_terminal_event_stands(redis_client: Redis) -> None:
    ledger = RequestLedger(redis_client)
    common = {"tenant_id": "acme", "user_id": "alice", "request_id": "r1", "thread_id": "c1"}
    first = ResponseEvent(**common, message_id="m", action="inquire", answer="a", model="offline-extractive")
    second = ErrorEvent(**common, code="late", message="late")
    assert await ledger.record_terminal(first) == first
    assert await ledger.record_terminal(second) == first
    assert await ledger.terminal("acme", "r1") == first
    assert await ledger.terminal("globex", "r1") is None
