"""The one-round-trip reads and writes of a request's life, against a real Valkey.

``read_request_start`` must check the conversation's owner as ``ConversationStore.get`` does, and
``RequestLedger.record_and_keep`` must keep the first terminal event, append the turn of the event
that stands once (also when it was recorded without one, never into a deleted conversation) and say
whether it reached the bus.
"""

import uuid

import pytest
from redis.asyncio import Redis

from policypal.contracts import ErrorEvent, ResponseEvent
from policypal.state import (
    ConversationRecord,
    ConversationStore,
    RequestLedger,
    RequestRecord,
    RequestTracker,
    read_request_start,
)

pytestmark = pytest.mark.integration


def _answer(request_id: str, thread: str = "c1") -> ResponseEvent:
    return ResponseEvent(
        tenant_id="acme",
        user_id="alice",
        request_id=request_id,
        thread_id=thread,
        message_id="m",
        action="inquire",
        answer="a",
        model="offline-extractive",
    )


async def test_a_new_request_starts_with_its_owned_conversation_and_nothing_else(redis_client: Redis) -> None:
    thread, request_id = f"c-{uuid.uuid4().hex[:8]}", str(uuid.uuid4())
    await ConversationStore(redis_client).create(
        ConversationRecord(conversation_id=thread, tenant_id="acme", user_id="alice")
    )
    start = await read_request_start(
        redis_client, tenant_id="acme", user_id="alice", conversation_id=thread, request_id=request_id
    )
    assert start.conversation is not None
    assert start.conversation.conversation_id == thread
    assert start.terminal is None
    assert start.tracked is None


async def test_another_users_or_tenants_conversation_is_not_found(redis_client: Redis) -> None:
    thread, request_id = f"c-{uuid.uuid4().hex[:8]}", str(uuid.uuid4())
    await ConversationStore(redis_client).create(
        ConversationRecord(conversation_id=thread, tenant_id="acme", user_id="alice")
    )
    for tenant, user in (("acme", "mallory"), ("globex", "alice")):
        start = await read_request_start(
            redis_client, tenant_id=tenant, user_id=user, conversation_id=thread, request_id=request_id
        )
        assert start.conversation is None


async def test_a_redelivered_request_starts_with_its_terminal_event_and_api_record(
    redis_client: Redis,
) -> None:
    thread, request_id = f"c-{uuid.uuid4().hex[:8]}", str(uuid.uuid4())
    answer = _answer(request_id, thread)
    await RequestLedger(redis_client).record_terminal(answer)
    tracker = RequestTracker(redis_client)
    await tracker.accept(
        RequestRecord(
            request_id=request_id, tenant_id="acme", requested_by="key-1", user_id="alice", thread_id=thread
        )
    )
    start = await read_request_start(
        redis_client, tenant_id="acme", user_id="alice", conversation_id=thread, request_id=request_id
    )
    assert start.terminal == answer
    assert start.tracked is not None
    assert start.tracked.phase == "queued"
    await tracker.mark_started(start.tracked)
    running = await tracker.get("acme", request_id)
    assert running is not None
    assert running.phase == "running"
    assert running.started_at is not None


def _conversation(thread: str) -> ConversationRecord:
    return ConversationRecord(conversation_id=thread, tenant_id="acme", user_id="alice")


def _late_error(request_id: str, thread: str) -> ErrorEvent:
    return ErrorEvent(
        tenant_id="acme",
        user_id="alice",
        request_id=request_id,
        thread_id=thread,
        code="late",
        message="late",
    )


async def test_the_first_terminal_event_stands_with_its_turn_kept_once(redis_client: Redis) -> None:
    ledger, store = RequestLedger(redis_client), ConversationStore(redis_client)
    thread, request_id = f"c-{uuid.uuid4().hex[:8]}", str(uuid.uuid4())
    conversation = _conversation(thread)
    await store.create(conversation)
    first, late = _answer(request_id, thread), _late_error(request_id, thread)
    recorded = await ledger.record_and_keep(first, conversation)
    assert (recorded.standing, recorded.published) == (first, False)
    recorded = await ledger.record_and_keep(late, conversation)
    assert (recorded.standing, recorded.published) == (first, False)
    await ledger.mark_published(first)
    recorded = await ledger.record_and_keep(late, conversation)
    assert (recorded.standing, recorded.published) == (first, True)
    assert [(m.message_id, m.content) for m in await store.messages("acme", thread)] == [
        (f"assistant-{request_id}", "a")
    ]
    assert await ledger.terminal("acme", request_id) == first


async def test_a_standing_event_recorded_without_its_turn_gets_it_kept(redis_client: Redis) -> None:
    ledger, store = RequestLedger(redis_client), ConversationStore(redis_client)
    thread, request_id = f"c-{uuid.uuid4().hex[:8]}", str(uuid.uuid4())
    conversation = _conversation(thread)
    await store.create(conversation)
    first = _answer(request_id, thread)
    await ledger.record_terminal(first)
    recorded = await ledger.record_and_keep(_late_error(request_id, thread), conversation)
    assert recorded.standing == first
    assert [m.content for m in await store.messages("acme", thread)] == ["a"]
    await ledger.record_and_keep(_late_error(request_id, thread), conversation)
    assert len(await store.messages("acme", thread)) == 1


async def test_a_deleted_conversation_gets_no_turn_back(redis_client: Redis) -> None:
    ledger, store = RequestLedger(redis_client), ConversationStore(redis_client)
    thread, request_id = f"c-{uuid.uuid4().hex[:8]}", str(uuid.uuid4())
    conversation = _conversation(thread)
    await store.create(conversation)
    await store.delete(conversation)
    answer = _answer(request_id, thread)
    recorded = await ledger.record_and_keep(answer, conversation)
    assert recorded.standing == answer
    recorded = await ledger.record_and_keep(_late_error(request_id, thread), conversation)
    assert recorded.standing == answer
    assert await store.get("acme", "alice", thread) is None
    assert await store.messages("acme", thread) == []
