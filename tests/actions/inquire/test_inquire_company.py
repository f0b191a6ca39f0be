"""The user's company profile in @Inquire's prompts: real NATS, Valkey, Qdrant, MiniLM, scripted OpenAI server."""

import json

import pytest
from nats.js import JetStreamContext

from policypal.bus import publish_event
from policypal.contracts import CompanyContext
from policypal.embeddings import MiniLMEmbedder
from policypal.llm import LLM
from policypal.state import ConversationRecord
from policypal.vectorstore import ChunkIndex
from tests.actions.inquire.conftest import WorkerFactory
from tests.actions.inquire.retention_corpus import index_chunks, inquiry
from tests.support.jetstream import payload, wait_for_messages
from tests.support.openai_server import Reply, ScriptedOpenAI

pytestmark = pytest.mark.integration

COMPANY = CompanyContext(
    company_name="Acme Bank Berhad",
    country="Malaysia",
    industry="Banking",
    description="A retail bank with 40 branches.",
)
LINE = (
    "About the user's organisation (their own words; context for relevance, not a source to cite): "
    "Acme Bank Berhad (Banking, Malaysia). A retail bank with 40 branches."
)
ANSWER = "Customer records must be retained for at least seven years after the account is closed [1]."


async def test_the_company_reaches_the_answer_prompt_but_not_the_search_query(
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
        Reply.json({"optimized_query": "Retention period for customer records after account closure"}),
        Reply.text(ANSWER),
    )
    broker = await start_worker(index, llm=llm)
    event = inquiry(tenant, "How long must customer records be kept?").model_copy(update={"company": COMPANY})
    await publish_event(broker, event)
    [response] = await wait_for_messages(js, "EVENTS", f"events.{tenant}.conv1.response")
    assert payload(response)["answer"] == ANSWER

    rewrite, answer = openai_server.requests
    system, *_, question = answer.messages
    assert system["content"].endswith(LINE)
    assert "Acme Bank" not in question["content"]
    # The search query is about the question: the company's name would find passages naming it.
    assert "Acme Bank" not in json.dumps(rewrite.body)


async def test_a_general_knowledge_answer_is_told_the_company_too(
    start_worker: WorkerFactory,
    index: ChunkIndex,
    js: JetStreamContext,
    tenant: str,
    conversation: ConversationRecord,
    openai_server: ScriptedOpenAI,
    llm: LLM,
) -> None:
    openai_server.enqueue(Reply.text("General knowledge: banks in Malaysia follow the AMLA."))
    broker = await start_worker(index, llm=llm)
    event = inquiry(tenant, "What does AML require?", tagged=False).model_copy(update={"company": COMPANY})
    await publish_event(broker, event)
    await wait_for_messages(js, "EVENTS", f"events.{tenant}.conv1.response")
    [request] = openai_server.requests
    assert request.messages[0]["content"].endswith(LINE)


async def test_without_a_company_the_prompt_has_no_organisation_line(
    start_worker: WorkerFactory,
    index: ChunkIndex,
    js: JetStreamContext,
    tenant: str,
    conversation: ConversationRecord,
    openai_server: ScriptedOpenAI,
    llm: LLM,
) -> None:
    openai_server.enqueue(Reply.text("General knowledge: AML requires customer due diligence."))
    broker = await start_worker(index, llm=llm)
    await publish_event(broker, inquiry(tenant, "What does AML require?", tagged=False))
    await wait_for_messages(js, "EVENTS", f"events.{tenant}.conv1.response")
    [request] = openai_server.requests
    assert "About the user's organisation" not in request.messages[0]["content"]
