"""@Inquire over the user's whole library, and its confidence tiers, on the real worker and stores."""

import pytest
from nats.js import JetStreamContext
from redis.asyncio import Redis

from actions.inquire.confidence import MEDIUM_CAUTION
from actions.inquire.service import DURABLE
from policypal.bus import publish_event
from policypal.embeddings import MiniLMEmbedder
from policypal.state import ConversationMemory, ConversationRecord, ConversationStore, RequestLedger
from policypal.vectorstore import ChunkIndex, ChunkPoint
from tests.actions.inquire.conftest import WorkerFactory
from tests.actions.inquire.retention_corpus import USER, index_chunks, inquiry
from tests.support.jetstream import payload, stream_messages, wait_for_messages, wait_until_consumed

pytestmark = pytest.mark.integration

#: A facilities guide: nothing in it answers a question about customer records, one passage is close.
FACILITIES = [
    "Staff travel must be booked through the travel desk and approved by a line manager.",
    "The cafeteria opens at eight and serves breakfast until ten.",
    "Office equipment is replaced every four years.",
]


async def _index_facilities(index: ChunkIndex, embedder: MiniLMEmbedder, tenant: str) -> None:
    chunks = [
        ChunkPoint(
            tenant_id=tenant,
            user_id=USER,
            document_id="fac",
            title="Facilities Guide",
            version="1",
            doc_type="policy",
            page=i + 1,
            chunk_index=i,
            text=text,
        )
        for i, text in enumerate(FACILITIES)
    ]
    await index.upsert(chunks, embedder.embed(FACILITIES).tolist())


async def test_untagged_question_is_answered_from_the_users_library(
    start_worker: WorkerFactory,
    index: ChunkIndex,
    embedder: MiniLMEmbedder,
    js: JetStreamContext,
    tenant: str,
    conversation: ConversationRecord,
) -> None:
    await index_chunks(index, embedder, tenant)
    await _index_facilities(index, embedder, tenant)
    broker = await start_worker(index)
    await publish_event(broker, inquiry(tenant, "How long must customer records be kept?", tagged=False))

    [response] = await wait_for_messages(js, "EVENTS", f"events.{tenant}.conv1.response")
    body = payload(response)
    assert body["model"] == "offline-extractive"
    assert body["citations"][0]["document_id"] == "ret"
    assert "seven years" in body["citations"][0]["quote"]
    assert {c["document_id"] for c in body["citations"]} <= {"ret", "fac"}
    assert "two years" not in body["answer"]  # the other tenant's policy
    assert body["retrieval_confidence"] == "high"
    assert body["caution"] is None


async def test_untagged_question_nothing_matches_says_so_without_general_knowledge(
    start_worker: WorkerFactory,
    index: ChunkIndex,
    embedder: MiniLMEmbedder,
    js: JetStreamContext,
    tenant: str,
    conversation: ConversationRecord,
) -> None:
    await index_chunks(index, embedder, tenant)
    broker = await start_worker(index)
    await publish_event(broker, inquiry(tenant, "What is quantum physics?", tagged=False))

    [response] = await wait_for_messages(js, "EVENTS", f"events.{tenant}.conv1.response")
    body = payload(response)
    assert body["citations"] == []
    assert "Nothing in your library matches this question" in body["answer"]
    assert "cannot answer from general knowledge" in body["answer"]
    assert body["retrieval_confidence"] == "low"


async def test_partly_matching_passages_answer_with_a_caution(
    start_worker: WorkerFactory,
    index: ChunkIndex,
    embedder: MiniLMEmbedder,
    js: JetStreamContext,
    tenant: str,
    conversation: ConversationRecord,
) -> None:
    await index_chunks(index, embedder, tenant)
    broker = await start_worker(index)
    await publish_event(broker, inquiry(tenant, "Are paper copies destroyed?"))

    [response] = await wait_for_messages(js, "EVENTS", f"events.{tenant}.conv1.response")
    body = payload(response)
    assert body["retrieval_confidence"] == "medium"
    assert body["caution"] == MEDIUM_CAUTION
    assert any("shredded" in c["quote"] for c in body["citations"])


async def test_weak_matches_end_the_request_with_a_retrieval_low_question(
    start_worker: WorkerFactory,
    index: ChunkIndex,
    embedder: MiniLMEmbedder,
    js: JetStreamContext,
    redis_client: Redis,
    tenant: str,
    conversation: ConversationRecord,
) -> None:
    await _index_facilities(index, embedder, tenant)
    broker = await start_worker(index)
    event = inquiry(tenant, "How long must customer records be kept?", tagged=False)
    # Twice, as a redelivery would: one question, one history entry.
    await publish_event(broker, event, msg_id=f"{event.request_id}-1")
    await publish_event(broker, event, msg_id=f"{event.request_id}-2")
    await wait_until_consumed(js, "ACTIONS", DURABLE)

    [interrupt] = await wait_for_messages(js, "EVENTS", f"events.{tenant}.conv1.interrupt")
    body = payload(interrupt)
    assert body["interrupt_type"] == "retrieval_low"
    assert body["interrupt_id"] == f"interrupt-{event.request_id}"
    assert [o["id"] for o in body["options"]] == ["tag_documents", "search_web", "continue", "ask_reviewer"]
    assert "couldn't find strong matches in your library" in body["message"]

    terminal = await RequestLedger(redis_client).terminal(tenant, event.request_id)
    assert terminal is not None
    assert terminal.type == "interrupt"
    pending = await ConversationMemory(redis_client).pending(tenant, "conv1")
    assert pending is not None
    assert pending.interrupt.interrupt_id == body["interrupt_id"]
    assert pending.resume_point is not None
    assert pending.resume_point.action_request is not None
    assert pending.resume_point.action_request.request_id == event.request_id
    [turn] = await ConversationStore(redis_client).messages(tenant, "conv1")
    assert (turn.role, turn.metadata and turn.metadata.kind) == ("system", "pal_assist_prompt")
    assert await stream_messages(js, "EVENTS", f"events.{tenant}.conv1.response") == []
