"""The @Inquire worker on a real nats-server, Valkey, local Qdrant and the real MiniLM embedder."""

import uuid

import pytest
from nats.js import JetStreamContext
from redis.asyncio import Redis

from actions.inquire.service import DURABLE, SUBJECT, UNITS_DURABLE
from policypal.bus import publish_event
from policypal.contracts import AnswerDetails, ErrorNotice
from policypal.contracts.envelope import new_event_id
from policypal.embeddings import MiniLMEmbedder
from policypal.state import ConversationRecord, ConversationStore
from policypal.vectorstore import ChunkHit, ChunkIndex
from tests.actions.inquire.conftest import WorkerFactory
from tests.actions.inquire.retention_corpus import index_chunks, inquiry
from tests.actions.inquire.test_unit_preparation import ready
from tests.support.jetstream import payload, stream_messages, wait_for_messages, wait_until_consumed

pytestmark = pytest.mark.integration


async def test_answer_cites_the_page_that_holds_it_once(
    start_worker: WorkerFactory,
    index: ChunkIndex,
    embedder: MiniLMEmbedder,
    js: JetStreamContext,
    redis_client: Redis,
    tenant: str,
    conversation: ConversationRecord,
) -> None:
    chunks = await index_chunks(index, embedder, tenant)
    broker = await start_worker(index)
    event = inquiry(tenant, "How long must customer records be kept?")

    # The same request twice as different stream messages: answered and stored once.
    await publish_event(broker, event, msg_id=f"{event.request_id}-first")
    await publish_event(broker, event, msg_id=f"{event.request_id}-second")
    await wait_until_consumed(js, "ACTIONS", DURABLE)

    [response] = await wait_for_messages(js, "EVENTS", f"events.{tenant}.conv1.response")
    body = payload(response)
    assert (body["request_id"], body["action"], body["model"]) == (
        event.request_id,
        "inquire",
        "offline-extractive",
    )
    assert "without a language model" in body["answer"]
    citations = body["citations"]
    assert citations, body["answer"]
    assert citations[0]["page"] == 2
    assert "seven years" in citations[0]["quote"]
    texts = {f"{c.document_id}:{c.chunk_index}": c.text for c in chunks}
    for citation in citations:
        assert citation["document_id"] == "ret"
        assert citation["quote"] in texts[citation["chunk_id"]]
        assert f"[{citation['marker']}]" in body["answer"]
    assert "two years" not in body["answer"]

    [turn] = await ConversationStore(redis_client).messages(tenant, "conv1")
    assert (turn.message_id, turn.role, turn.content) == (body["message_id"], "assistant", body["answer"])
    assert isinstance(turn.metadata, AnswerDetails)
    assert (turn.metadata.action, turn.metadata.model) == ("inquire", "offline-extractive")
    assert [c.model_dump(mode="json") for c in turn.metadata.citations] == citations
    statuses = await stream_messages(js, "EVENTS", f"events.{tenant}.conv1.status")
    assert [payload(m)["message"] for m in statuses] == ["Searching your documents…"]


async def test_question_the_documents_do_not_answer_is_not_answered(
    start_worker: WorkerFactory,
    index: ChunkIndex,
    embedder: MiniLMEmbedder,
    js: JetStreamContext,
    tenant: str,
    conversation: ConversationRecord,
) -> None:
    await index_chunks(index, embedder, tenant)
    broker = await start_worker(index)
    await publish_event(broker, inquiry(tenant, "What is quantum physics?"))

    [response] = await wait_for_messages(js, "EVENTS", f"events.{tenant}.conv1.response")
    body = payload(response)
    assert body["citations"] == []
    assert "couldn't find a passage about this in “Retention Policy”" in body["answer"]


class BrokenIndex(ChunkIndex):
    """Qdrant is down."""

    async def search(self, *args: object, **kwargs: object) -> list[ChunkHit]:
        raise ConnectionError("qdrant unreachable")

    async def hybrid_search(self, *args: object, **kwargs: object) -> list[ChunkHit]:
        raise ConnectionError("qdrant unreachable")


async def test_last_failed_delivery_tells_the_user_before_dead_lettering(
    start_worker: WorkerFactory,
    index: ChunkIndex,
    embedder: MiniLMEmbedder,
    js: JetStreamContext,
    redis_client: Redis,
    tenant: str,
    conversation: ConversationRecord,
) -> None:
    broken = BrokenIndex(index._client, model_id=embedder.model_id, dimension=embedder.dimension)
    broker = await start_worker(broken, max_deliver=1)
    event = inquiry(tenant, "How long must customer records be kept?")
    await publish_event(broker, event)

    [error] = await wait_for_messages(js, "EVENTS", f"events.{tenant}.conv1.error")
    body = payload(error)
    assert (body["code"], body["retryable"]) == ("action_failed", True)
    letters = await wait_for_messages(js, "DLQ", f"dlq.{SUBJECT}")
    assert event.request_id in {payload(m)["request_id"] for m in letters}
    [turn] = await ConversationStore(redis_client).messages(tenant, "conv1")
    assert turn.metadata == ErrorNotice(error_code="action_failed")


async def test_invalid_payload_is_dead_lettered(
    start_worker: WorkerFactory, index: ChunkIndex, js: JetStreamContext
) -> None:
    broker = await start_worker(index)
    marker = uuid.uuid4().hex
    await broker.publish(
        f'{{"broken": "{marker}"}}'.encode(), SUBJECT, headers={"Nats-Msg-Id": marker}, stream="ACTIONS"
    )
    await wait_until_consumed(js, "ACTIONS", DURABLE)

    letters = [
        m for m in await stream_messages(js, "DLQ", f"dlq.{SUBJECT}") if marker.encode() in (m.data or b"")
    ]
    assert len(letters) == 1
    assert letters[0].headers is not None
    assert letters[0].headers["Policypal-Error"].startswith("invalid ActionRequested")


async def test_a_ready_document_gets_its_unit_vectors_prepared_once(
    start_worker: WorkerFactory,
    index: ChunkIndex,
    embedder: MiniLMEmbedder,
    js: JetStreamContext,
    tenant: str,
) -> None:
    await index_chunks(index, embedder, tenant)
    broker = await start_worker(index)
    event = ready(tenant)
    await publish_event(broker, event)
    await publish_event(broker, event.model_copy(update={"event_id": new_event_id()}))
    await wait_until_consumed(js, "EVENTS", UNITS_DURABLE, within=60.0)
    kept = await index.units.document_keys(tenant_id=tenant, document_id="ret")
    assert {chunk_id for chunk_id, _ in kept} == {"ret:0", "ret:1", "ret:2"}
    assert await index.units.document_keys(tenant_id=f"{tenant}x", document_id="leak") == set()
