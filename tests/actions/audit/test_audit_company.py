"""The user's company profile in @Audit's judgement prompt: real NATS, Valkey, Qdrant, MiniLM, scripted OpenAI."""

import json

import pytest

from policypal.contracts import CompanyContext
from policypal.contracts.audit import AuditResult
from policypal.embeddings import MiniLMEmbedder
from policypal.llm import LLM
from tests.actions.action_service_suite import action_harness
from tests.actions.audit.conftest import TENANT, Library
from tests.actions.policy_library import EMAIL
from tests.actions.worker_harness import WorkerHarness, request
from tests.support.openai_server import Reply, ScriptedOpenAI

pytestmark = pytest.mark.integration

harness = action_harness(TENANT, "audit")

COMPANY = CompanyContext(company_name="Northwind Traders", country="Germany", description="Wholesale food.")


async def test_the_company_reaches_the_judgement_prompt_not_the_clauses(
    harness: WorkerHarness,
    library: Library,
    embedder: MiniLMEmbedder,
    openai_server: ScriptedOpenAI,
    llm: LLM,
) -> None:
    index, (_, reg24, reg25) = library
    judgements = {"judgements": [{"clause": 1, "verdict": "complies", "rule": "R1"}]}
    openai_server.enqueue(Reply.text(json.dumps(judgements)))
    broker = await harness.start(index, embedder, llm=llm)
    event = request(
        TENANT,
        "audit",
        "Audit this email",
        [reg24, reg25],
        source_text=EMAIL,
        target_document_ids=["reg24", "reg25"],
        company=COMPANY,
    )
    await harness.ask(broker, event)
    body = await harness.terminal(TENANT)
    AuditResult.model_validate(body["result"])

    [judgement] = openai_server.requests
    system, clauses = judgement.messages[0]["content"], judgement.messages[-1]["content"]
    assert system.endswith("Northwind Traders (Germany). Wholesale food.")
    assert "About the user's organisation" in system
    assert "Northwind Traders" not in clauses
