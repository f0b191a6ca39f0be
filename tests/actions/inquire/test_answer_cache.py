"""The semantic answer cache: same question, same documents -> the stored answer, marked cached."""

import json

import pytest
from nats.js import JetStreamContext
from redis.asyncio import Redis

from actions.inquire.answer import InquiryAnswer
from actions.inquire.answer_cache import AnswerCache
from policypal.bus import publish_event
from policypal.contracts import ActionRequested, ResolvedDocument, UserContext
from policypal.embeddings import MiniLMEmbedder
from policypal.llm import LLM
from policypal.state import ConversationRecord, DocumentCatalog, DocumentRecord
from policypal.vectorstore import ChunkIndex
from tests.actions.inquire.conftest import WorkerFactory
from tests.actions.inquire.retention_corpus import USER, index_chunks, inquiry
from tests.support.jetstream import payload, wait_for_messages
from tests.support.openai_server import Reply, ScriptedOpenAI

pytestmark = pytest.mark.integration

QUESTION = "How long must customer records be kept?"
REWRITTEN = "Retention period for customer records after account closure in the Retention Policy"
ANSWER = "Customer records must be retained for at least seven years after the account is closed [1]."


async def _ready_document(redis: Redis, tenant: str) -> DocumentRecord:
    record = DocumentRecord(
        document_id="ret",
        tenant_id=tenant,
        user_id=USER,
        title="Retention Policy",
        version="3",
        doc_type="policy",
        filename="retention.pdf",
        content_type="application/pdf",
        size_bytes=1,
        sha256=f"sha-{tenant}",
        status="ready",
        request_id="upload",
    )
    await DocumentCatalog(redis).create(record)
    return record


def _question(tenant: str, query: str = QUESTION) -> ActionRequested:
    event = inquiry(tenant, query)
    document = ResolvedDocument(document_id="ret", title="Retention Policy", version="3", doc_type="policy")
    return event.model_copy(update={"documents": [document]})


async def _responses(js: JetStreamContext, tenant: str, count: int) -> list[dict[str, object]]:
    found = await wait_for_messages(js, "EVENTS", f"events.{tenant}.conv1.response", count)
    return [payload(message) for message in found]


async def test_the_same_question_is_answered_from_the_cache_until_a_document_changes(
    start_worker: WorkerFactory,
    index: ChunkIndex,
    embedder: MiniLMEmbedder,
    js: JetStreamContext,
    redis_client: Redis,
    tenant: str,
    conversation: ConversationRecord,
    openai_server: ScriptedOpenAI,
    llm: LLM,
) -> None:
    await index_chunks(index, embedder, tenant)
    record = await _ready_document(redis_client, tenant)
    rewrite = Reply(
        content=json.dumps({"optimized_query": REWRITTEN}), prompt_tokens=300, completion_tokens=20
    )
    draft = Reply(content=ANSWER, prompt_tokens=900, completion_tokens=40)
    broker = await start_worker(index, llm=llm)

    openai_server.enqueue(rewrite, draft)
    await publish_event(broker, _question(tenant))
    [first] = await _responses(js, tenant, 1)

    openai_server.enqueue(rewrite)  # the rewrite only: a second draft would be a cache miss
    await publish_event(broker, _question(tenant, "how long must customer records be kept"))
    second = (await _responses(js, tenant, 2))[1]

    assert (first["cached"], second["cached"]) == (False, True)
    assert second["answer"] == first["answer"] == ANSWER
    assert second["citations"] == first["citations"]
    assert second["retrieval_confidence"] == first["retrieval_confidence"]
    assert (second["usage"]["prompt_tokens"], second["usage"]["completion_tokens"]) == (300, 20)
    assert len(openai_server.requests) == 3
    assert openai_server.pending == 0

    # Re-indexing the document (its record is saved again) makes the cached answer unreachable.
    await DocumentCatalog(redis_client).save(record)
    openai_server.enqueue(rewrite, draft)
    await publish_event(broker, _question(tenant))
    third = (await _responses(js, tenant, 3))[2]
    assert third["cached"] is False
    assert len(openai_server.requests) == 5


async def test_entries_are_kept_apart_by_tenant_and_user_context(
    redis_client: Redis, embedder: MiniLMEmbedder, tenant: str
) -> None:
    cache = AnswerCache(redis_client)
    await _ready_document(redis_client, tenant)
    await _ready_document(redis_client, f"{tenant}b")
    asked = _question(tenant)
    scope = await cache.scope(asked, model="gpt-4o-mini")
    assert scope is not None
    [vector] = embedder.embed([REWRITTEN])
    await cache.store(
        scope, REWRITTEN, vector, InquiryAnswer(answer=ANSWER, citations=[], model="gpt-4o-mini")
    )
    assert await cache.lookup(scope, REWRITTEN, vector) is not None

    elsewhere = await cache.scope(_question(f"{tenant}b"), model="gpt-4o-mini")
    other_context = await cache.scope(
        asked.model_copy(update={"user_context": UserContext(industry="Insurance", location="Malaysia")}),
        model="gpt-4o-mini",
    )
    other_model = await cache.scope(asked, model="gpt-4o")
    for scope_elsewhere in (elsewhere, other_context, other_model):
        assert scope_elsewhere is not None
        assert await cache.lookup(scope_elsewhere, REWRITTEN, vector) is None


async def test_a_question_about_a_document_that_is_not_ready_is_not_cached(
    redis_client: Redis, tenant: str
) -> None:
    record = await _ready_document(redis_client, tenant)
    await DocumentCatalog(redis_client).save(record.model_copy(update={"status": "processing"}))
    assert await AnswerCache(redis_client).scope(_question(tenant), model="gpt-4o-mini") is None
