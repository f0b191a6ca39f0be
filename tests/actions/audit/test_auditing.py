"""The audit itself, called directly with a real index, the real embedder and a scripted model."""

from typing import Any

import pytest

from actions.audit.auditing import audit
from actions.drafting import llm_fallback_notice
from policypal.embeddings import MiniLMEmbedder
from policypal.llm import LLM
from tests.actions.audit.conftest import TENANT, Library
from tests.actions.policy_library import EMAIL
from tests.actions.worker_harness import request
from tests.support.openai_server import Reply, ScriptedOpenAI

pytestmark = pytest.mark.integration


POLICY_STAGES = ["sampling", "retrieving", "auditing"]


@pytest.mark.parametrize(
    ("mode", "replies", "stages"),
    [
        # The judgement call fails once every stage was reported: the offline audit repeats none.
        ("policy", [Reply.failure(500), Reply.failure(500)], POLICY_STAGES),
        ("text", [Reply.failure(500), Reply.failure(500)], ["retrieving", "auditing"]),
    ],
)
async def test_an_audit_that_falls_back_offline_reports_each_stage_once(
    library: Library,
    embedder: MiniLMEmbedder,
    openai_server: ScriptedOpenAI,
    llm: LLM,
    mode: str,
    replies: list[Reply],
    stages: list[str],
) -> None:
    # Status events carry a Nats-Msg-Id per stage, so the stream hides a repeat: count the reports.
    index, (policy, reg24, reg25) = library
    openai_server.enqueue(*replies)
    source: dict[str, Any] = {"source_document_id": "policy"} if mode == "policy" else {"source_text": EMAIL}
    documents = [policy, reg24, reg25] if mode == "policy" else [reg24, reg25]
    event = request(
        TENANT, "audit", "Audit this", documents, target_document_ids=["reg24", "reg25"], **source
    )
    reported: list[str] = []

    async def progress(stage: str, message: str) -> None:
        reported.append(stage)

    answer = await audit(event, progress, index=index, embedder=embedder, llm=llm)

    assert openai_server.pending == 0
    assert answer.notices == [llm_fallback_notice("audit")]
    assert reported == stages
