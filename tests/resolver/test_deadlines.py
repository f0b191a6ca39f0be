"""Overdue chat requests end with one deadline error; requests that ended are left alone."""

import asyncio
import time
import uuid
from functools import partial

import pytest
from faststream.nats import NatsBroker
from nats.js import JetStreamContext
from redis.asyncio import Redis

from policypal.config import Settings
from policypal.contracts import ErrorEvent, ResponseEvent
from policypal.state import ConversationRecord, ConversationStore, DeadlineBook, PendingRequest, RequestLedger
from resolver.deadlines import end_if_overdue, end_overdue_requests
from tests.support.jetstream import payload, stream_messages, wait_for_messages

pytestmark = pytest.mark.integration


async def _open_request(redis: Redis) -> PendingRequest:
    tenant = f"t{uuid.uuid4().hex[:8]}"
    conversation = ConversationRecord(
        conversation_id=f"c{uuid.uuid4().hex[:8]}", tenant_id=tenant, user_id="alice"
    )
    await ConversationStore(redis).create(conversation)
    return PendingRequest(
        tenant_id=tenant,
        user_id="alice",
        request_id=str(uuid.uuid4()),
        thread_id=conversation.conversation_id,
        deadline=time.time() - 1,
    )


async def test_an_overdue_request_ends_once_with_a_deadline_error(
    broker: NatsBroker, js: JetStreamContext, redis_client: Redis
) -> None:
    pending = await _open_request(redis_client)
    end = partial(
        end_if_overdue,
        broker=broker,
        ledger=RequestLedger(redis_client),
        conversations=ConversationStore(redis_client),
        deadline_seconds=180,
    )
    assert await end(pending) is True
    assert await end(pending) is False
    subject = f"events.{pending.tenant_id}.{pending.thread_id}.>"
    messages = await wait_for_messages(js, "EVENTS", subject)
    await asyncio.sleep(0.2)
    assert len(await stream_messages(js, "EVENTS", subject)) == 1
    error = payload(messages[0])
    assert (error["type"], error["code"], error["retryable"]) == ("error", "deadline_exceeded", True)
    history = await ConversationStore(redis_client).messages(pending.tenant_id, pending.thread_id)
    assert [(m.role, getattr(m.metadata, "error_code", None)) for m in history] == [
        ("assistant", "deadline_exceeded")
    ]


async def test_a_request_that_already_ended_is_left_alone(
    broker: NatsBroker, js: JetStreamContext, redis_client: Redis
) -> None:
    pending = await _open_request(redis_client)
    answered = ResponseEvent(
        tenant_id=pending.tenant_id,
        user_id="alice",
        request_id=pending.request_id,
        thread_id=pending.thread_id,
        message_id="m",
        action="inquire",
        answer="done",
        model="offline-extractive",
    )
    await RequestLedger(redis_client).record_terminal(answered)
    ended = await end_if_overdue(
        pending,
        broker=broker,
        ledger=RequestLedger(redis_client),
        conversations=ConversationStore(redis_client),
        deadline_seconds=180,
    )
    assert ended is False
    assert await stream_messages(js, "EVENTS", f"events.{pending.tenant_id}.{pending.thread_id}.>") == []


async def test_the_reaper_loop_ends_registered_overdue_requests(
    broker: NatsBroker, js: JetStreamContext, redis_client: Redis
) -> None:
    pending = await _open_request(redis_client)
    await DeadlineBook(redis_client).register(pending)
    settings = Settings(_env_file=None, deadline_check_seconds=0.05)
    loop = asyncio.create_task(end_overdue_requests(broker, redis=redis_client, settings=settings))
    try:
        messages = await wait_for_messages(
            js, "EVENTS", f"events.{pending.tenant_id}.{pending.thread_id}.error"
        )
    finally:
        loop.cancel()
    terminal = await RequestLedger(redis_client).terminal(pending.tenant_id, pending.request_id)
    assert isinstance(terminal, ErrorEvent)
    assert payload(messages[0])["event_id"] == terminal.event_id
