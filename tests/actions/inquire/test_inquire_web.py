"""@Inquire with the web: Tavily results cited beside the documents, skipped when they are not needed.

Real NATS, Valkey, local Qdrant and MiniLM; a scripted OpenAI-compatible server and a scripted
Tavily-compatible server, both over HTTP.
"""

import json
import re
from collections.abc import AsyncIterator

import pytest
from nats.js import JetStreamContext

from actions.inquire.generation import GENERAL_KNOWLEDGE_NOTICE, WEB_NOT_NEEDED_NOTICE
from actions.web_search import QUOTA_NOTICE, WebSearch, web_search_from_settings
from policypal.bus import publish_event
from policypal.config import Settings
from policypal.contracts import ActionRequested
from policypal.embeddings import MiniLMEmbedder
from policypal.llm import LLM
from policypal.state import ConversationRecord
from policypal.vectorstore import ChunkIndex
from tests.actions.inquire.conftest import WorkerFactory
from tests.actions.inquire.retention_corpus import index_chunks, inquiry
from tests.support.jetstream import payload, wait_for_messages
from tests.support.openai_server import Reply, ScriptedOpenAI
from tests.support.tavily_server import ScriptedTavily, SearchReply

pytestmark = pytest.mark.integration

#: Scores medium against the retention policy (mean similarity ~0.47): the web is worth asking.
PARTLY_COVERED = "Latest 2026 Bank Negara Malaysia requirements for how long banks retain customer records"
#: Scores high (~0.71): the documents answer it alone.
COVERED = "Retention period for customer records after account closure in the Retention Policy"
BNM = {
    "url": "https://www.bnm.gov.my/record-keeping-2026",
    "title": "Record keeping requirements 2026",
    "content": (
        "Banks must keep customer due diligence records for at least six years. "
        "The 2026 guidance extends this to electronic records held by outsourced providers."
    ),
    "score": 0.88,
}
DRAFT = (
    "The Retention Policy requires customer records to be kept for seven years after closure [1]. "
    "Bank Negara's 2026 guidance extends record keeping to outsourced electronic records [4]. "
    "A claim with no source [9]."
)


@pytest.fixture
async def tavily() -> AsyncIterator[ScriptedTavily]:
    async with ScriptedTavily() as server:
        yield server


@pytest.fixture
def web_search(tavily: ScriptedTavily) -> WebSearch:
    search = web_search_from_settings(
        Settings(_env_file=None, tavily_api_key="tvly-test-key-0123", tavily_base_url=tavily.base_url)
    )
    assert search is not None
    return search


def _web_request(tenant: str, *, tagged: bool = True) -> ActionRequested:
    event = inquiry(tenant, "What are the latest rules on keeping customer records?", tagged=tagged)
    return event.model_copy(update={"web": True})


async def _response(js: JetStreamContext, tenant: str) -> dict[str, object]:
    [message] = await wait_for_messages(js, "EVENTS", f"events.{tenant}.conv1.response")
    return payload(message)


async def test_web_results_are_cited_after_the_documents_when_they_only_partly_answer(
    start_worker: WorkerFactory,
    index: ChunkIndex,
    embedder: MiniLMEmbedder,
    js: JetStreamContext,
    tenant: str,
    conversation: ConversationRecord,
    openai_server: ScriptedOpenAI,
    llm: LLM,
    tavily: ScriptedTavily,
    web_search: WebSearch,
) -> None:
    await index_chunks(index, embedder, tenant)
    openai_server.enqueue(Reply.json({"optimized_query": PARTLY_COVERED}), Reply.text(DRAFT))
    tavily.enqueue(SearchReply([BNM]))
    broker = await start_worker(index, llm=llm, web_search=web_search)
    await publish_event(broker, _web_request(tenant))
    body = await _response(js, tenant)

    # The web query is the rewritten retrieval query, with the user's industry (location is in it).
    [search] = tavily.requests
    assert search["query"] == f"{PARTLY_COVERED} Banking"
    prompt = openai_server.requests[1].messages[-1]["content"]
    numbered = re.findall(r"^\[(\d+)\] (Web result )?“([^”]+)”", prompt, re.M)
    # The three relevant chunks are [1]..[3]; the web result is numbered on from them.
    assert [n for n, web, _ in numbered if not web] == ["1", "2", "3"]
    assert [(n, title) for n, web, title in numbered if web] == [("4", BNM["title"])]
    assert "results of a web search" in openai_server.requests[1].messages[0]["content"]

    assert body["retrieval_confidence"] == "medium"
    [document_citation] = body["citations"]
    assert (document_citation["marker"], document_citation["document_id"]) == (1, "ret")
    [web] = body["web_citations"]
    assert (web["marker"], web["url"], web["title"]) == (4, BNM["url"], BNM["title"])
    assert web["quote"] in BNM["content"]
    assert "outsourced" in web["quote"]
    assert "[4]" in body["answer"]
    assert "[9]" not in body["answer"]


async def test_the_web_is_not_searched_when_the_documents_answer_with_high_confidence(
    start_worker: WorkerFactory,
    index: ChunkIndex,
    embedder: MiniLMEmbedder,
    js: JetStreamContext,
    tenant: str,
    conversation: ConversationRecord,
    openai_server: ScriptedOpenAI,
    llm: LLM,
    tavily: ScriptedTavily,
    web_search: WebSearch,
) -> None:
    await index_chunks(index, embedder, tenant)
    openai_server.enqueue(Reply.json({"optimized_query": COVERED}), Reply.text("Seven years [1]."))
    broker = await start_worker(index, llm=llm, web_search=web_search)
    await publish_event(broker, _web_request(tenant))
    body = await _response(js, tenant)

    assert tavily.requests == []
    assert body["retrieval_confidence"] == "high"
    assert WEB_NOT_NEEDED_NOTICE in body["notices"]
    assert body["web_citations"] == []


async def test_a_web_quota_is_a_notice_and_the_documents_still_answer(
    start_worker: WorkerFactory,
    index: ChunkIndex,
    embedder: MiniLMEmbedder,
    js: JetStreamContext,
    tenant: str,
    conversation: ConversationRecord,
    openai_server: ScriptedOpenAI,
    llm: LLM,
    tavily: ScriptedTavily,
    web_search: WebSearch,
) -> None:
    await index_chunks(index, embedder, tenant)
    openai_server.enqueue(Reply.json({"optimized_query": PARTLY_COVERED}), Reply.text("Seven years [1]."))
    tavily.enqueue(SearchReply.failure(432))
    broker = await start_worker(index, llm=llm, web_search=web_search)
    await publish_event(broker, _web_request(tenant))
    body = await _response(js, tenant)

    assert len(tavily.requests) == 1
    assert QUOTA_NOTICE in body["notices"]
    assert body["answer"] == "Seven years [1]."
    assert [c["marker"] for c in body["citations"]] == [1]


async def test_without_documents_the_web_answers_instead_of_general_knowledge(
    start_worker: WorkerFactory,
    index: ChunkIndex,
    js: JetStreamContext,
    tenant: str,
    conversation: ConversationRecord,
    openai_server: ScriptedOpenAI,
    llm: LLM,
    tavily: ScriptedTavily,
    web_search: WebSearch,
) -> None:
    openai_server.enqueue(Reply.text("Banks keep due diligence records for six years [1]."))
    tavily.enqueue(SearchReply([BNM]))
    broker = await start_worker(index, llm=llm, web_search=web_search)
    await publish_event(broker, _web_request(tenant, tagged=False))
    body = await _response(js, tenant)

    assert GENERAL_KNOWLEDGE_NOTICE not in body["notices"]
    assert body["citations"] == []
    [web] = body["web_citations"]
    assert (web["marker"], web["url"]) == (1, BNM["url"])
    assert web["quote"] in BNM["content"]
    assert json.loads(json.dumps(body["usage"]))["prompt_tokens"] > 0
