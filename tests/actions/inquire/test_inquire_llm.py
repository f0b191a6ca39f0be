"""The @Inquire worker's LLM path: real NATS, Valkey, local Qdrant, MiniLM, and a scripted OpenAI server."""

import json
import logging
import re

import pytest
from nats.js import JetStreamContext
from nats.js.api import RawStreamMsg
from redis.asyncio import Redis

from actions.inquire.answer import LLM_FALLBACK_NOTICE
from actions.inquire.generation import GENERAL_KNOWLEDGE_NOTICE
from policypal.bus import publish_event
from policypal.config import DEV_JWT_SECRET
from policypal.contracts import AnswerDetails
from policypal.embeddings import MiniLMEmbedder
from policypal.llm import LLM, SYSTEM_PREFIX, price_of
from policypal.state import ConversationRecord, ConversationStore, assistant_message_id
from policypal.vectorstore import ChunkIndex, ChunkPoint
from tests.actions.conftest import API_KEY
from tests.actions.inquire.conftest import WorkerFactory
from tests.actions.inquire.retention_corpus import OTHER_TENANT, PAGE_1, PAGE_2_A, index_chunks, inquiry
from tests.support.jetstream import payload, stream_messages, wait_for_messages
from tests.support.openai_server import RecordedRequest, Reply, ScriptedOpenAI

pytestmark = pytest.mark.integration

REWRITE = {
    "optimized_query": "Retention period for customer records after account closure in the Retention Policy"
}
ANSWER = (
    "Under the Retention Policy, customer records must be retained for at least seven years after the "
    "account is closed [1]. The policy applies to every branch and subsidiary of the bank [2]."
)


def numbered_passages(request: RecordedRequest) -> dict[int, str]:
    """The passages of the generation prompt by their number."""
    user = request.messages[-1]["content"]
    found = re.findall(
        r"^\[(\d+)\] “[^”]+” \(version [^)]+\), page \d+:\n(.+?)(?=\n\n\[|\n\n## Question)", user, re.M | re.S
    )
    return {int(number): text for number, text in found}


async def response_and_tokens(js: JetStreamContext, tenant: str) -> tuple[RawStreamMsg, list[RawStreamMsg]]:
    [response] = await wait_for_messages(js, "EVENTS", f"events.{tenant}.conv1.response")
    return response, await stream_messages(js, "EVENTS", f"events.{tenant}.conv1.token")


async def test_answer_streams_tokens_in_order_then_one_cited_response(
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
    chunks = await index_chunks(index, embedder, tenant)
    openai_server.enqueue(
        Reply(content=json.dumps(REWRITE), prompt_tokens=300, completion_tokens=20),
        Reply(content=ANSWER, prompt_tokens=900, completion_tokens=40),
    )
    broker = await start_worker(index, llm=llm)
    event = inquiry(tenant, "How long must customer records be kept?")
    await publish_event(broker, event)

    response, tokens = await response_and_tokens(js, tenant)
    body = payload(response)

    # Tokens first, in order, all for the assistant message; then the one response.
    bodies = [payload(t) for t in tokens]
    assert [b["index"] for b in bodies] == list(range(len(bodies)))
    assert len(bodies) > 10
    assert {b["message_id"] for b in bodies} == {assistant_message_id(event.request_id)}
    assert "".join(b["text"] for b in bodies) == ANSWER
    assert max(t.seq or 0 for t in tokens) < (response.seq or 0)

    assert (body["model"], body["answer"]) == ("gpt-4o-mini", ANSWER)
    assert (body["usage"]["prompt_tokens"], body["usage"]["completion_tokens"]) == (1200, 60)
    price = price_of("gpt-4o-mini")
    assert price is not None
    assert body["usage"]["cost_usd"] == pytest.approx(
        (1200 * price.prompt_per_million + 60 * price.completion_per_million) / 1e6
    )

    rewrite_request, answer_request = openai_server.requests
    assert rewrite_request.body["response_format"]["json_schema"]["name"] == "QueryRewrite"
    assert "How long must customer records be kept?" in rewrite_request.messages[-1]["content"]
    system = answer_request.messages[0]
    assert system["role"] == "system"
    assert system["content"].startswith(SYSTEM_PREFIX)
    assert "Industry: Banking" in system["content"]
    assert answer_request.body["stream_options"] == {"include_usage": True}
    passages = numbered_passages(answer_request)
    # The most relevant passage comes first; the other tenant's chunk is never shown to the model.
    assert (passages[1], passages[2]) == (PAGE_2_A, PAGE_1)
    assert OTHER_TENANT not in json.dumps(answer_request.body)
    for request in openai_server.requests:
        serialised = json.dumps(request.body)
        assert API_KEY not in serialised
        assert DEV_JWT_SECRET not in serialised

    # Every marker is cited from the passage it numbers, with a quote verbatim in that chunk.
    texts = {f"{c.document_id}:{c.chunk_index}": c.text for c in chunks}
    citations = body["citations"]
    assert [c["marker"] for c in citations] == [1, 2]
    for citation in citations:
        source = texts[citation["chunk_id"]]
        assert citation["quote"] in source
        assert len(citation["quote"]) <= 300
        assert source == passages[citation["marker"]]
        assert (citation["document_id"], citation["title"], citation["version"]) == (
            "ret",
            "Retention Policy",
            "3",
        )
    assert "seven years" in citations[0]["quote"]
    assert citations[0]["page"] == 2
    assert "every branch and subsidiary" in citations[1]["quote"]

    [turn] = await ConversationStore(redis_client).messages(tenant, "conv1")
    assert isinstance(turn.metadata, AnswerDetails)
    assert (turn.content, turn.metadata.model) == (ANSWER, "gpt-4o-mini")
    assert [c.model_dump(mode="json") for c in turn.metadata.citations] == citations


def _chunk_text(chunks: list[ChunkPoint], chunk_id: str) -> str:
    return next(c.text for c in chunks if f"{c.document_id}:{c.chunk_index}" == chunk_id)


async def test_markers_that_map_to_no_passage_are_removed(
    start_worker: WorkerFactory,
    index: ChunkIndex,
    embedder: MiniLMEmbedder,
    js: JetStreamContext,
    tenant: str,
    conversation: ConversationRecord,
    openai_server: ScriptedOpenAI,
    llm: LLM,
    caplog: pytest.LogCaptureFixture,
) -> None:
    chunks = await index_chunks(index, embedder, tenant)
    bogus = "Customer records are retained for seven years [1] [7]. Backups are kept offshore [9]."
    openai_server.enqueue(Reply.json(REWRITE), Reply.text(bogus))
    broker = await start_worker(index, llm=llm)
    with caplog.at_level(logging.INFO, logger="actions.inquire.generation"):
        await publish_event(broker, inquiry(tenant, "How long must customer records be kept?"))
        response, tokens = await response_and_tokens(js, tenant)

    body = payload(response)
    # The stream showed the model's text as written; the answer that stands has only real markers.
    assert "".join(payload(t)["text"] for t in tokens) == bogus
    assert body["answer"] == "Customer records are retained for seven years [1]. Backups are kept offshore."
    [citation] = body["citations"]
    assert citation["marker"] == 1
    assert citation["quote"] in _chunk_text(chunks, citation["chunk_id"])
    assert "removed 2 citation markers" in caplog.text


async def test_documents_that_do_not_address_the_question_are_not_answered(
    start_worker: WorkerFactory,
    index: ChunkIndex,
    embedder: MiniLMEmbedder,
    js: JetStreamContext,
    tenant: str,
    conversation: ConversationRecord,
    openai_server: ScriptedOpenAI,
    llm: LLM,
) -> None:
    await index_chunks(index, embedder, tenant)
    openai_server.enqueue(
        Reply.json(
            {"optimized_query": "Quantum physics concepts and principles described in the Retention Policy"}
        )
    )
    broker = await start_worker(index, llm=llm)
    await publish_event(broker, inquiry(tenant, "What is quantum physics?"))

    response, tokens = await response_and_tokens(js, tenant)
    body = payload(response)
    assert tokens == []
    assert body["citations"] == []
    assert "(“Retention Policy”, “Leak”) contain no passage that addresses this question" in body["answer"]
    assert "not on general knowledge" in body["answer"]
    # Only the rewrite reached the model: nothing was generated from general knowledge.
    assert len(openai_server.requests) == 1


async def test_without_documents_the_answer_is_labelled_general_knowledge(
    start_worker: WorkerFactory,
    index: ChunkIndex,
    js: JetStreamContext,
    tenant: str,
    conversation: ConversationRecord,
    openai_server: ScriptedOpenAI,
    llm: LLM,
) -> None:
    general = "General knowledge, not sourced from your documents: AML rules require customer due diligence."
    openai_server.enqueue(Reply.text(general))
    broker = await start_worker(index, llm=llm)
    await publish_event(broker, inquiry(tenant, "What does AML require?", tagged=False))

    response, tokens = await response_and_tokens(js, tenant)
    body = payload(response)
    assert "".join(payload(t)["text"] for t in tokens) == general
    assert (body["answer"], body["citations"], body["notices"]) == (general, [], [GENERAL_KNOWLEDGE_NOTICE])
    # No document in scope: no query rewrite, one call.
    [request] = openai_server.requests
    assert "No documents were attached" in request.messages[0]["content"]


async def test_model_down_gives_the_offline_answer_with_a_notice(
    start_worker: WorkerFactory,
    index: ChunkIndex,
    embedder: MiniLMEmbedder,
    js: JetStreamContext,
    tenant: str,
    conversation: ConversationRecord,
    openai_server: ScriptedOpenAI,
    llm: LLM,
) -> None:
    chunks = await index_chunks(index, embedder, tenant)
    openai_server.enqueue(Reply.failure(500), Reply.failure(503))
    broker = await start_worker(index, llm=llm)
    await publish_event(broker, inquiry(tenant, "How long must customer records be kept?"))

    response, tokens = await response_and_tokens(js, tenant)
    body = payload(response)
    assert tokens == []
    assert body["model"] == "offline-extractive"
    assert body["notices"] == [LLM_FALLBACK_NOTICE]
    assert "seven years" in body["citations"][0]["quote"]
    assert body["citations"][0]["quote"] in _chunk_text(chunks, body["citations"][0]["chunk_id"])
    # One request and its one retry, then the fallback.
    assert len(openai_server.requests) == 2
    assert openai_server.pending == 0
