"""The resolver on a real nats-server and Valkey: hand-off, terminal errors, redelivery, dead letters."""

import uuid
from collections.abc import AsyncIterator

import nats
import pytest
from faststream.nats import NatsBroker
from nats.js import JetStreamContext
from redis.asyncio import Redis

from policypal.bus import build_broker, publish_event
from policypal.config import Settings
from policypal.contracts import ChatMentions, ChatRequested, ErrorNotice
from policypal.devstack import ManagedProcess
from policypal.state import ConversationRecord, ConversationStore, DocumentCatalog, DocumentRecord
from resolver.service import DURABLE, build_router
from tests.support.jetstream import (
    payload,
    reset_bus,
    stream_messages,
    wait_for_messages,
    wait_until_consumed,
)

pytestmark = pytest.mark.integration

USER = "alice"


@pytest.fixture
async def js(nats_server: ManagedProcess) -> AsyncIterator[JetStreamContext]:
    nc = await nats.connect(str(nats_server.url))
    yield nc.jetstream()
    await nc.drain()


@pytest.fixture
async def broker(
    nats_server: ManagedProcess, redis_client: Redis, js: JetStreamContext
) -> AsyncIterator[NatsBroker]:
    await reset_bus(
        js,
        durables={"CHAT": DURABLE},
        purge={"CHAT": "chat.requested", "ACTIONS": "actions.inquire.requested"},
    )
    settings = Settings(nats_url=nats_server.url, max_deliver=3, ack_wait_seconds=30)
    broker = build_broker(settings)
    broker.include_router(build_router(settings, redis=redis_client))
    await broker.start()
    yield broker
    await broker.stop()


@pytest.fixture
def tenant() -> str:
    return f"t{uuid.uuid4().hex[:10]}"


@pytest.fixture
async def conversation(redis_client: Redis, tenant: str) -> ConversationRecord:
    record = ConversationRecord(conversation_id="conv1", tenant_id=tenant, user_id=USER)
    await ConversationStore(redis_client).create(record)
    return record


async def add_document(redis: Redis, tenant: str, document_id: str, title: str) -> None:
    await DocumentCatalog(redis).create(
        DocumentRecord(
            document_id=document_id,
            tenant_id=tenant,
            user_id=USER,
            title=title,
            version="2024",
            doc_type="regulatory",
            filename="f.pdf",
            content_type="application/pdf",
            size_bytes=1,
            sha256=f"{tenant}{document_id}",
            status="ready",
            request_id="upload",
        )
    )


def chat(tenant: str, text: str, documents: list[str]) -> ChatRequested:
    return ChatRequested(
        tenant_id=tenant,
        user_id=USER,
        request_id=f"req-{uuid.uuid4().hex[:8]}",
        thread_id="conv1",
        message_id="m1",
        text=text,
        mentions=ChatMentions(action="inquire", documents=documents),
    )


async def test_explicit_inquire_is_handed_to_the_worker_once(
    broker: NatsBroker,
    js: JetStreamContext,
    redis_client: Redis,
    tenant: str,
    conversation: ConversationRecord,
) -> None:
    await add_document(redis_client, tenant, "bnm", "Bank Negara 2024")
    event = chat(tenant, "@Inquire @Bank Negara 2024 How long are records kept?", ["bnm"])

    # The same request delivered twice (a gateway retry after its duplicate window; ids unique per
    # test because the stream's duplicate window outlives a test).
    await publish_event(broker, event, msg_id=f"{event.request_id}-first")
    await publish_event(broker, event, msg_id=f"{event.request_id}-second")
    await wait_until_consumed(js, "CHAT", DURABLE)

    [action] = await wait_for_messages(js, "ACTIONS", "actions.inquire.requested")
    body = payload(action)
    assert body["request_id"] == event.request_id
    assert body["query"] == "How long are records kept?"
    assert body["documents"] == [
        {"document_id": "bnm", "title": "Bank Negara 2024", "version": "2024", "doc_type": "regulatory"}
    ]
    statuses = await stream_messages(js, "EVENTS", f"events.{tenant}.conv1.status")
    # docs/product.md, Intent: an explicit @action has no intent step.
    assert [payload(m)["stage"] for m in statuses] == ["documents", "docs_found", "validation"]
    assert await stream_messages(js, "EVENTS", f"events.{tenant}.conv1.error") == []


@pytest.mark.parametrize("owner", ["nobody", "other-tenant"])
async def test_unknown_document_ends_in_one_error_event_and_one_stored_turn(
    broker: NatsBroker,
    js: JetStreamContext,
    redis_client: Redis,
    tenant: str,
    conversation: ConversationRecord,
    owner: str,
) -> None:
    if owner == "other-tenant":
        await add_document(redis_client, f"{tenant}x", "secret", "Globex Secret Plan")
    event = chat(tenant, "@Inquire @secret what is in it?", ["secret"])

    await publish_event(broker, event, msg_id=f"{event.request_id}-first")
    await publish_event(broker, event, msg_id=f"{event.request_id}-second")  # a redelivered request
    await wait_until_consumed(js, "CHAT", DURABLE)

    [error] = await wait_for_messages(js, "EVENTS", f"events.{tenant}.conv1.error")
    body = payload(error)
    assert (body["code"], body["request_id"]) == ("document_not_found", event.request_id)
    assert "Globex" not in body["message"]
    [turn] = await ConversationStore(redis_client).messages(tenant, "conv1")
    assert (turn.role, turn.content, turn.metadata) == (
        "assistant",
        body["message"],
        ErrorNotice(error_code="document_not_found"),
    )
    assert await stream_messages(js, "ACTIONS", "actions.inquire.requested") == []


async def test_request_for_a_missing_conversation_is_dead_lettered(
    broker: NatsBroker, js: JetStreamContext, tenant: str
) -> None:
    event = chat(tenant, "@Inquire what?", ["x"])
    await publish_event(broker, event)
    await wait_until_consumed(js, "CHAT", DURABLE)

    letters = [
        m
        for m in await stream_messages(js, "DLQ", "dlq.chat.requested")
        if payload(m)["request_id"] == event.request_id
    ]
    assert len(letters) == 1
    assert letters[0].headers is not None
    assert "conversation" in letters[0].headers["Policypal-Error"]
    assert await stream_messages(js, "EVENTS", f"events.{tenant}.conv1.>") == []


async def test_invalid_payload_is_dead_lettered_with_the_reason(
    broker: NatsBroker, js: JetStreamContext
) -> None:
    marker = uuid.uuid4().hex
    await broker.publish(
        f"not json {marker}".encode(),
        "chat.requested",
        headers={"content-type": "application/json", "Nats-Msg-Id": marker},
        stream="CHAT",
    )
    await wait_until_consumed(js, "CHAT", DURABLE)

    letters = [
        m
        for m in await stream_messages(js, "DLQ", "dlq.chat.requested")
        if marker.encode() in (m.data or b"")
    ]
    assert len(letters) == 1
    assert letters[0].headers is not None
    # A body that is not JSON is refused on admission, before the event's model reads it.
    assert letters[0].headers["Policypal-Error"].startswith("invalid: the body is not JSON")
