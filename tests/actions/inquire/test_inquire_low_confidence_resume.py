"""The user's answer to a retrieval_low question, through the real resolver and @Inquire worker.

Real nats-server, Valkey, local Qdrant and MiniLM: the worker pauses a weak-retrieval request, the
answer goes through the resolver (as the gateway's resume endpoint publishes it), and the chosen
remedy ends the new request exactly once.
"""

from collections.abc import AsyncIterator
from typing import Any

import pytest
from faststream.nats import NatsBroker
from nats.js import JetStreamContext
from redis.asyncio import Redis

from actions.inquire.confidence import LOW_CAUTION
from actions.inquire.handler import WEB_SEARCH_NOTICE
from policypal.bus import build_broker, publish_event
from policypal.config import Settings
from policypal.devstack import ManagedProcess
from policypal.embeddings import MiniLMEmbedder
from policypal.state import ConversationMemory, EscalationStore, RequestLedger, user_message_id
from policypal.vectorstore import ChunkIndex
from resolver.escalation import bridge_message
from resolver.low_retrieval import TAG_DOCUMENTS_PROMPT
from resolver.service import DURABLE, RESUME_DURABLE, build_router
from tests.actions.inquire.conftest import WorkerFactory
from tests.actions.inquire.retention_corpus import index_chunks, inquiry
from tests.actions.inquire.test_inquire_confidence import _index_facilities
from tests.resolver.bus_harness import Talk, reset_resolver_bus
from tests.support.jetstream import payload, stream_messages, wait_for_messages

pytestmark = pytest.mark.integration

WEAK_QUESTION = "How long must customer records be kept?"
TERMINAL_TYPES = {"response", "error", "interrupt", "escalation"}


@pytest.fixture
async def talk(
    nats_server: ManagedProcess,
    redis_client: Redis,
    js: JetStreamContext,
    start_worker: WorkerFactory,
    index: ChunkIndex,
) -> AsyncIterator[Talk]:
    """The inquire worker and the resolver running, and a user with one conversation."""
    await start_worker(index)
    await reset_resolver_bus(js, durable=DURABLE, resume_durable=RESUME_DURABLE)
    settings = Settings(_env_file=None, nats_url=nats_server.url, max_deliver=3, ack_wait_seconds=30)
    broker: NatsBroker = build_broker(settings)
    broker.include_router(build_router(settings, redis=redis_client))
    await broker.start()
    yield await Talk.open(broker, js, redis_client)
    await broker.stop()


async def _paused(talk: Talk, index: ChunkIndex, embedder: MiniLMEmbedder) -> dict[str, Any]:
    """A weak-retrieval request the worker ended with its retrieval_low question."""
    await _index_facilities(index, embedder, talk.tenant)
    event = inquiry(talk.tenant, WEAK_QUESTION, tagged=False)
    event = event.model_copy(update={"message_id": user_message_id(event.request_id)})
    await talk.store_turn("user", WEAK_QUESTION, event.request_id)
    await publish_event(talk.broker, event, msg_id=event.request_id)
    [interrupt] = await wait_for_messages(talk.js, "EVENTS", f"events.{talk.tenant}.conv1.interrupt")
    body = payload(interrupt)
    assert body["interrupt_type"] == "retrieval_low"
    return body


async def _terminal(talk: Talk, request_id: str, kind: str) -> dict[str, Any]:
    """The one terminal event of ``request_id``, which must be of ``kind``."""
    [found] = await wait_for_messages(talk.js, "EVENTS", f"events.{talk.tenant}.conv1.{kind}")
    body = payload(found)
    assert body["request_id"] == request_id
    return body


async def _terminals_per_request(talk: Talk) -> dict[str, int]:
    counts: dict[str, int] = {}
    for msg in await stream_messages(talk.js, "EVENTS", f"events.{talk.tenant}.conv1.>"):
        body = payload(msg)
        if body["type"] in TERMINAL_TYPES:
            counts[body["request_id"]] = counts.get(body["request_id"], 0) + 1
    return counts


async def test_continue_anyway_answers_with_the_low_caution_once(
    talk: Talk, index: ChunkIndex, embedder: MiniLMEmbedder
) -> None:
    interrupt = await _paused(talk, index, embedder)
    request_id = await talk.answer(interrupt, "retrieval_low", "continue")

    response = await _terminal(talk, request_id, "response")
    assert response["retrieval_confidence"] == "low"
    assert response["caution"] == LOW_CAUTION
    # Continuing answers from the best passages found, with the pages the caution points to.
    assert response["citations"]
    assert "Nothing in your library matches" not in response["answer"]
    assert WEB_SEARCH_NOTICE not in response["notices"]
    assert await _terminals_per_request(talk) == {interrupt["request_id"]: 1, request_id: 1}
    assert await ConversationMemory(talk.redis).pending(talk.tenant, "conv1") is None
    terminal = await RequestLedger(talk.redis).terminal(talk.tenant, request_id)
    assert terminal is not None
    assert terminal.type == "response"


async def test_search_the_web_answers_with_the_not_configured_notice(
    talk: Talk, index: ChunkIndex, embedder: MiniLMEmbedder
) -> None:
    interrupt = await _paused(talk, index, embedder)
    request_id = await talk.answer(interrupt, "retrieval_low", "search_web")

    response = await _terminal(talk, request_id, "response")
    assert WEB_SEARCH_NOTICE in response["notices"]
    assert response["caution"] == LOW_CAUTION
    assert await _terminals_per_request(talk) == {interrupt["request_id"]: 1, request_id: 1}


async def test_tag_documents_asks_for_them_then_searches_those(
    talk: Talk, index: ChunkIndex, embedder: MiniLMEmbedder
) -> None:
    interrupt = await _paused(talk, index, embedder)
    # The policy that answers the question arrives after the question was asked; the user tags it.
    await index_chunks(index, embedder, talk.tenant)
    await talk.add_document("ret", "Retention Policy", "policy", "3")
    request_id = await talk.answer(interrupt, "retrieval_low", "tag_documents")

    question = await talk.outcome(request_id)
    assert (question["type"], question["interrupt_type"]) == ("interrupt", "text_input")
    assert question["message"] == TAG_DOCUMENTS_PROMPT

    tagged_id = await talk.answer(question, "text_input", "ret")
    response = await _terminal(talk, tagged_id, "response")
    assert response["citations"][0]["document_id"] == "ret"
    assert response["caution"] != LOW_CAUTION
    assert await _terminals_per_request(talk) == {interrupt["request_id"]: 1, request_id: 1, tagged_id: 1}


async def test_ask_a_reviewer_opens_a_ticket_and_says_so(
    talk: Talk, index: ChunkIndex, embedder: MiniLMEmbedder
) -> None:
    interrupt = await _paused(talk, index, embedder)
    request_id = await talk.answer(interrupt, "retrieval_low", "ask_reviewer")

    escalation = await _terminal(talk, request_id, "escalation")
    [ticket] = await EscalationStore(talk.redis).list(talk.tenant, "pending_human")
    assert escalation["message"] == bridge_message(ticket.escalation_id)
    assert (ticket.question, ticket.escalated_request_id) == (WEAK_QUESTION, interrupt["request_id"])
    assert await ConversationMemory(talk.redis).pending(talk.tenant, "conv1") is None


async def test_cancel_ends_the_paused_request(
    talk: Talk, index: ChunkIndex, embedder: MiniLMEmbedder
) -> None:
    interrupt = await _paused(talk, index, embedder)
    request_id = await talk.answer(interrupt, "cancel", None)

    error = await _terminal(talk, request_id, "error")
    assert error["code"] == "cancelled"
    assert await ConversationMemory(talk.redis).pending(talk.tenant, "conv1") is None
