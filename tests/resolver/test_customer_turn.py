"""A website customer's messages through the real resolver (nats-server, Valkey): a greeting, a
hand-over, a waiting notice, and questions handed to @Inquire over the published documents, made
standalone; never a PalAssist question."""

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import nats
import pytest
from faststream.nats import NatsBroker
from redis.asyncio import Redis

from policypal.auth.tenants import TenantSettings, TenantStore, WidgetSettings
from policypal.bus import build_broker
from policypal.config import Settings
from policypal.devstack import ManagedProcess
from policypal.state import ConversationRecord, ConversationStore, EscalationStore
from policypal.state.published import Publication, PublishedLibrary
from resolver.service import DURABLE, RESUME_DURABLE, build_router
from tests.resolver.bus_harness import USER, Talk, reset_resolver_bus
from tests.support.jetstream import payload, stream_messages

pytestmark = pytest.mark.integration
GREETING = "Welcome to Acme! Ask me anything about our policies."


@pytest.fixture
async def talk(nats_server: ManagedProcess, redis_client: Redis) -> AsyncIterator[Talk]:
    """The resolver running, and a customer's widget conversation."""
    nc = await nats.connect(str(nats_server.url))
    js = nc.jetstream()
    await reset_resolver_bus(js, durable=DURABLE, resume_durable=RESUME_DURABLE)
    settings = Settings(_env_file=None, nats_url=nats_server.url, max_deliver=3, ack_wait_seconds=30)
    broker: NatsBroker = build_broker(settings)
    broker.include_router(build_router(settings, redis=redis_client))
    await broker.start()
    talk = await Talk.open(broker, js, redis_client)
    # The harness's conversation, marked as a widget session's (the gateway does so on the first message).
    store = ConversationStore(redis_client)
    await redis_client.delete(f"pp:{talk.tenant}:conv:{talk.conversation_id}")
    await store.create(
        ConversationRecord(
            conversation_id=talk.conversation_id, tenant_id=talk.tenant, user_id=USER, widget=True
        )
    )
    await TenantStore(redis_client).put(talk.tenant, TenantSettings(widget=WidgetSettings(greeting=GREETING)))
    yield talk
    await broker.stop()
    await nc.drain()


async def _ending(talk: Talk, request_id: str, within: float = 20.0) -> dict[str, Any]:
    """The action request or terminal event (response, escalation, error, interrupt) of ``request_id``."""
    deadline = asyncio.get_running_loop().time() + within
    while True:
        for msg in await stream_messages(talk.js, "ACTIONS", "actions.*.requested"):
            if payload(msg)["request_id"] == request_id:
                return payload(msg)
        for msg in await stream_messages(talk.js, "EVENTS", f"events.{talk.tenant}.{talk.conversation_id}.>"):
            body = payload(msg)
            if body["request_id"] == request_id and body["type"] != "status":
                return body
        assert asyncio.get_running_loop().time() < deadline, f"no outcome for {request_id}"
        await asyncio.sleep(0.05)


async def test_small_talk_gets_the_greeting_and_asking_for_a_person_hands_over(talk: Talk) -> None:
    hello = await _ending(talk, await talk.say("hello"))
    assert (hello["type"], hello["answer"]) == ("response", GREETING)

    handed = await _ending(talk, await talk.say("I need to talk to a human"))
    assert handed["type"] == "escalation"
    assert handed["escalation_id"] in handed["message"]
    [ticket] = await EscalationStore(talk.redis).list(talk.tenant, "pending_human")
    assert ticket.thread_id == talk.conversation_id

    waiting = await _ending(talk, await talk.say("How long do refunds take?"))
    assert waiting["type"] == "response"
    assert ticket.escalation_id in waiting["answer"]
    assert "is with our team" in waiting["answer"]


async def test_nothing_published_hands_the_question_over(talk: Talk) -> None:
    ending = await _ending(talk, await talk.say("How long do refunds take?"))
    assert ending["type"] == "escalation"


async def test_questions_go_to_inquire_over_the_published_documents_made_standalone(talk: Talk) -> None:
    await talk.add_document("guide", "Editor Guide", "policy")
    await talk.add_document("memo", "Private Memo", "policy")
    await PublishedLibrary(talk.redis).publish(
        talk.tenant, Publication(kind="document", document_id="guide", owner_id=USER, published_by=USER)
    )

    first = await _ending(talk, await talk.say("Hi there, how do I create a DOCX file? Thanks!"))
    assert first["type"] == "action.requested"
    assert (first["action"], first["query"], first["published_scope"]) == (
        "inquire",
        "how do I create a DOCX file?",
        True,
    )
    assert [d["document_id"] for d in first["documents"]] == ["guide"]
    assert first["escalate_below"] == WidgetSettings().confidence_threshold

    follow_up = await _ending(talk, await talk.say("How do I export it to PDF?"))
    assert follow_up["query"] == "How do I export a DOCX file to PDF?"
    assert [d["document_id"] for d in follow_up["documents"]] == ["guide"]
