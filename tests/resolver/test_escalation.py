"""'Ask a reviewer' through the real resolver (nats-server, Valkey): a ticket, the user told, once.

The paused request is saved as the @Inquire worker saves it (its resume point), so this runs without
the worker; tests/actions/inquire covers the same choice after a real weak retrieval.
"""

import asyncio
from collections.abc import AsyncIterator

import nats
import pytest
from faststream.nats import NatsBroker
from redis.asyncio import Redis

from actions.inquire.low_confidence import OPTIONS, resume_point
from policypal.bus import build_broker, publish_event
from policypal.config import Settings
from policypal.contracts import (
    ActionRequested,
    ChatResumed,
    EscalationNotice,
    InterruptEvent,
    ResolvedDocument,
)
from policypal.devstack import ManagedProcess
from policypal.state import ConversationMemory, ConversationStore, EscalationStore, PendingInterrupt
from resolver.escalation import bridge_message
from resolver.service import DURABLE, RESUME_DURABLE, build_router
from tests.resolver.bus_harness import USER, Talk, reset_resolver_bus
from tests.support.jetstream import payload, stream_messages, wait_for_messages

pytestmark = pytest.mark.integration

QUESTION = "How long must customer records be kept?"


@pytest.fixture
async def talk(nats_server: ManagedProcess, redis_client: Redis) -> AsyncIterator[Talk]:
    """The resolver running, and a user with one conversation."""
    nc = await nats.connect(str(nats_server.url))
    js = nc.jetstream()
    await reset_resolver_bus(js, durable=DURABLE, resume_durable=RESUME_DURABLE)
    settings = Settings(_env_file=None, nats_url=nats_server.url, max_deliver=3, ack_wait_seconds=30)
    broker: NatsBroker = build_broker(settings)
    broker.include_router(build_router(settings, redis=redis_client))
    await broker.start()
    yield await Talk.open(broker, js, redis_client)
    await broker.stop()
    await nc.drain()


async def paused(talk: Talk) -> InterruptEvent:
    """A request the worker paused with its retrieval_low question (saved and published as it does)."""
    request = ActionRequested(
        tenant_id=talk.tenant,
        user_id=USER,
        request_id="req-weak",
        thread_id=talk.conversation_id,
        message_id="user-req-weak",
        action="inquire",
        query=QUESTION,
        documents=[ResolvedDocument(document_id="ret", title="Retention", version="3", doc_type="policy")],
    )
    interrupt = InterruptEvent(
        tenant_id=talk.tenant,
        user_id=USER,
        request_id=request.request_id,
        thread_id=talk.conversation_id,
        interrupt_id=f"interrupt-{request.request_id}",
        interrupt_type="retrieval_low",
        message="I couldn't find strong matches.",
        options=OPTIONS,
    )
    await ConversationMemory(talk.redis).save_pending(
        PendingInterrupt(interrupt=interrupt, resume_point=resume_point(request))
    )
    await publish_event(talk.broker, interrupt)
    return interrupt


async def test_ask_a_reviewer_opens_one_ticket_and_tells_the_user(talk: Talk) -> None:
    interrupt = await paused(talk)
    request_id = await talk.answer(interrupt.model_dump(mode="json"), "retrieval_low", "ask_reviewer")

    [found] = await wait_for_messages(
        talk.js, "EVENTS", f"events.{talk.tenant}.{talk.conversation_id}.escalation"
    )
    escalation = payload(found)
    [ticket] = await EscalationStore(talk.redis).list(talk.tenant)
    assert escalation["request_id"] == request_id
    assert escalation["escalation_id"] == ticket.escalation_id
    assert ticket.escalation_id in escalation["message"]
    assert escalation["message"] == bridge_message(ticket.escalation_id)
    assert (ticket.status, ticket.question, ticket.thread_id) == (
        "pending_human",
        QUESTION,
        talk.conversation_id,
    )
    assert (ticket.request_id, ticket.escalated_request_id, ticket.action) == (
        request_id,
        "req-weak",
        "inquire",
    )
    assert await ConversationMemory(talk.redis).pending(talk.tenant, talk.conversation_id) is None
    history = await ConversationStore(talk.redis).messages(talk.tenant, talk.conversation_id)
    assert history[-1].metadata == EscalationNotice(
        escalation_id=ticket.escalation_id, status="pending_human"
    )
    # Other tenants see nothing of it.
    assert await EscalationStore(talk.redis).get("someoneelse", ticket.escalation_id) is None


async def test_a_redelivered_answer_opens_no_second_ticket(talk: Talk) -> None:
    interrupt = await paused(talk)
    request_id = await talk.answer(interrupt.model_dump(mode="json"), "retrieval_low", "ask_reviewer")
    await wait_for_messages(talk.js, "EVENTS", f"events.{talk.tenant}.{talk.conversation_id}.escalation")
    # The gateway retrying the same answer (same request id, a new Nats-Msg-Id after the window).
    resumed = [
        payload(m)
        for m in await stream_messages(talk.js, "CHAT", "chat.resumed")
        if payload(m)["request_id"] == request_id
    ]
    again = ChatResumed.model_validate(resumed[0]).model_copy(update={"event_id": "retry-1"})
    await publish_event(talk.broker, again, msg_id="retry-1")
    await asyncio.sleep(1.0)
    escalations = await stream_messages(
        talk.js, "EVENTS", f"events.{talk.tenant}.{talk.conversation_id}.escalation"
    )
    assert len(escalations) == 1
    assert len(await EscalationStore(talk.redis).list(talk.tenant)) == 1
