"""The @Audit worker on a real nats-server, Valkey, local Qdrant and the real MiniLM embedder."""

import json
from collections.abc import AsyncIterator
from typing import Any

import pytest
from redis.asyncio import Redis

from actions.audit.drafted_audit import QUOTE_DROPPED_NOTICE
from actions.audit.service import DURABLE, SUBJECT, build_router
from actions.drafting import llm_fallback_notice
from policypal.contracts.audit import SEVERITY_ORDER, AuditResult
from policypal.devstack import ManagedProcess
from policypal.embeddings import MiniLMEmbedder
from policypal.llm import LLM, price_of
from policypal.state import ConversationStore
from tests.actions.audit.conftest import TENANT, Library
from tests.actions.policy_library import (
    EMAIL,
    INCIDENT_RULE,
    POLICY_INCIDENT,
    POLICY_RETENTION,
    POLICY_TRANSFER,
    RETENTION_2024,
    RETENTION_2025,
    TRANSFER_RULE,
)
from tests.actions.worker_harness import (
    WorkerHarness,
    assert_citations_verbatim,
    request,
    worker_harness,
)
from tests.support.openai_server import Reply, ScriptedOpenAI

pytestmark = pytest.mark.integration


@pytest.fixture
async def harness(nats_server: ManagedProcess, redis_client: Redis) -> AsyncIterator[WorkerHarness]:
    async with worker_harness(
        str(nats_server.url),
        redis_client,
        TENANT,
        durable=DURABLE,
        subject=SUBJECT,
        build_router=build_router,
    ) as worker:
        yield worker


def _finding(result: AuditResult, target: str, source: str) -> Any:
    [found] = [f for f in result.findings if f.target_doc_id == target and source in _plain(f.source_quote)]
    return found


def _plain(quote: str) -> str:
    # PDF text keeps its line breaks; the planted sentences are compared on one line.
    return " ".join(quote.split())


def _assert_grouped_by_target_then_severity(result: AuditResult, targets: list[str]) -> None:
    order = [(targets.index(f.target_doc_id), SEVERITY_ORDER.index(f.severity)) for f in result.findings]
    assert order == sorted(order)


async def test_policy_mode_finds_the_planted_violations_per_target(
    harness: WorkerHarness, library: Library, embedder: MiniLMEmbedder, redis_client: Redis
) -> None:
    index, (policy, reg24, reg25) = library
    broker = await harness.start(index, embedder)
    event = request(
        TENANT,
        "audit",
        "Audit our policy against the regulation",
        [policy, reg24, reg25],
        source_document_id="policy",
        target_document_ids=["reg24", "reg25"],
    )

    await harness.ask(broker, event, copies=2)
    body = await harness.terminal(TENANT)

    assert (body["request_id"], body["action"], body["model"]) == (
        event.request_id,
        "audit",
        "offline-extractive",
    )
    result = AuditResult.model_validate(body["result"])
    assert (result.mode, result.targets_checked, result.overall_status) == ("policy", 2, "Needs Review")
    assert result.themes_analyzed is not None
    assert 3 <= result.themes_analyzed <= 5
    _assert_grouped_by_target_then_severity(result, ["reg24", "reg25"])
    retention = _finding(result, "reg24", POLICY_RETENTION)
    assert (retention.severity, retention.needs_review) == ("High", True)
    assert RETENTION_2024 in _plain(retention.target_quote)
    assert RETENTION_2025 in _plain(_finding(result, "reg25", POLICY_RETENTION).target_quote)
    incident = _finding(result, "reg24", POLICY_INCIDENT)
    assert (incident.severity, INCIDENT_RULE in _plain(incident.target_quote)) == ("High", True)
    transfer = _finding(result, "reg24", POLICY_TRANSFER)
    assert (transfer.severity, TRANSFER_RULE in _plain(transfer.target_quote)) == ("Medium", True)
    assert all(f.theme for f in result.findings)
    assert 0.55 <= retention.confidence_score <= 1.0
    # Every quote is verbatim: the target's in its cited chunk, the source's in the policy's.
    assert_citations_verbatim(body, [policy, reg24, reg25])
    cited = {c["marker"]: c for c in body["citations"]}
    for finding in result.findings:
        assert finding.target_marker is not None
        assert finding.source_marker is not None
        assert cited[finding.target_marker]["quote"] == finding.target_quote
        assert cited[finding.target_marker]["document_id"] == finding.target_doc_id
        assert cited[finding.source_marker]["quote"] == finding.source_quote
        assert cited[finding.source_marker]["document_id"] == "policy"
    assert await harness.statuses(TENANT) == ["sampling", "extracting_themes", "retrieving", "auditing"]
    [turn] = await ConversationStore(redis_client).messages(TENANT, "conv1")
    assert turn.content == body["answer"]


async def test_text_mode_checks_each_statement_against_every_target(
    harness: WorkerHarness, library: Library, embedder: MiniLMEmbedder
) -> None:
    index, (_, reg24, reg25) = library
    broker = await harness.start(index, embedder)
    event = request(
        TENANT,
        "audit",
        "Audit this email",
        [reg24, reg25],
        source_text=EMAIL,
        target_document_ids=["reg24", "reg25"],
    )
    await harness.ask(broker, event)
    body = await harness.terminal(TENANT)

    result = AuditResult.model_validate(body["result"])
    assert (result.mode, result.themes_analyzed, result.statements_checked) == ("text", None, 5)
    _assert_grouped_by_target_then_severity(result, ["reg24", "reg25"])
    for target in ("reg24", "reg25"):
        assert _finding(result, target, POLICY_RETENTION).severity == "High"
        assert _finding(result, target, POLICY_INCIDENT).severity == "High"
    for finding in result.findings:
        assert finding.source_quote in EMAIL
        assert finding.source_marker is None  # the text is not a document: quoted, not cited
    # Unrelated small talk is not turned into a finding.
    assert not [f for f in result.findings if "kitchen" in f.source_quote]
    assert_citations_verbatim(body, [reg24, reg25])
    assert "Needs Review" in body["answer"]
    assert "without a language model" in body["answer"]


async def test_audit_without_a_source_is_refused_with_a_reason(
    harness: WorkerHarness, library: Library, embedder: MiniLMEmbedder
) -> None:
    index, (_, reg24, _) = library
    broker = await harness.start(index, embedder)
    await harness.ask(broker, request(TENANT, "audit", "audit", [reg24], target_document_ids=["reg24"]))
    body = await harness.terminal(TENANT, "error")
    assert (body["code"], body["retryable"]) == ("audit_needs_source", False)


def _llm_finding(target: str, severity: str, source_quote: str, target_quote: str) -> dict[str, Any]:
    return {
        "target_doc_id": target,
        "target_doc_title": "as the model wrote it",
        "theme": None,
        "severity": severity,
        "consequence": "Potential penalties under the retention rule.",
        "source_quote": source_quote,
        "target_quote": target_quote,
        "suggestion": "Align the clause with the regulation.",
        "confidence_score": 0.9,
        "needs_review": False,
        "source_marker": None,
        "target_marker": None,
    }


def _llm_audit(findings: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "overall_status": "Major Violations",
        "findings": findings,
        "summary": "The email contradicts the regulation on retention and incident reporting.",
        "targets_checked": 9,
        "themes_analyzed": None,
        "mode": "text",
        "source_document_id": None,
        "statements_checked": 0,
    }


async def test_llm_text_audit_is_corrected_once_and_its_quotes_verified(
    harness: WorkerHarness,
    library: Library,
    embedder: MiniLMEmbedder,
    openai_server: ScriptedOpenAI,
    llm: LLM,
) -> None:
    index, (_, reg24, reg25) = library
    # Re-flowed whitespace is repaired; an invented quote is dropped; an unknown target is dropped.
    reflowed = RETENTION_2024.replace(" after ", "\n after  ")
    reply = _llm_audit(
        [
            _llm_finding("reg25", "Low", POLICY_INCIDENT, "Backups are kept offshore for ten years."),
            _llm_finding("reg24", "Medium", POLICY_INCIDENT, INCIDENT_RULE),
            _llm_finding("reg24", "Critical", POLICY_RETENTION, reflowed),
            _llm_finding("reg99", "High", POLICY_RETENTION, RETENTION_2024),
        ]
    )
    openai_server.enqueue(
        Reply(content='{"overall_status": "Major', prompt_tokens=2000, completion_tokens=10),
        Reply(content=json.dumps(reply), prompt_tokens=2100, completion_tokens=400),
    )
    broker = await harness.start(index, embedder, llm=llm)
    event = request(
        TENANT,
        "audit",
        "Audit this email",
        [reg24, reg25],
        source_text=EMAIL,
        target_document_ids=["reg24", "reg25"],
    )
    await harness.ask(broker, event)
    body = await harness.terminal(TENANT)

    first, correction = openai_server.requests
    assert first.body["response_format"]["json_schema"]["name"] == "AuditResult"
    assert first.body["model"] == body["model"] == "gpt-4o"
    assert EMAIL in first.messages[-1]["content"]
    assert "did not match the required JSON schema" in correction.messages[-1]["content"]
    result = AuditResult.model_validate(body["result"])
    assert (result.mode, result.targets_checked, result.overall_status) == ("text", 2, "Major Violations")
    assert [(f.target_doc_id, f.severity) for f in result.findings] == [
        ("reg24", "Critical"),
        ("reg24", "Medium"),
        ("reg25", "Low"),
    ]
    _assert_grouped_by_target_then_severity(result, ["reg24", "reg25"])
    critical, medium, low = result.findings
    assert _plain(critical.target_quote) == RETENTION_2024
    assert critical.target_quote in reg24.chunk_text(body["citations"][0]["chunk_id"])
    assert (critical.needs_review, critical.target_doc_title, critical.source_quote) == (
        False,
        "Records Regulation",
        POLICY_RETENTION,
    )
    assert _plain(medium.target_quote) == INCIDENT_RULE
    assert (low.target_quote, low.target_marker, low.needs_review) == ("", None, True)
    assert QUOTE_DROPPED_NOTICE in body["notices"]
    assert "offshore" not in body["answer"]
    assert body["answer"].index("Records Regulation” (2024)") < body["answer"].index(
        "Records Regulation” (2025)"
    )
    assert [c["marker"] for c in body["citations"]] == [critical.target_marker, medium.target_marker]
    for citation in body["citations"]:
        assert citation["quote"] in reg24.chunk_text(citation["chunk_id"])
    assert 0.0 < critical.confidence_score <= 1.0
    price = price_of("gpt-4o")
    assert price is not None
    assert body["usage"]["cost_usd"] == pytest.approx(
        (4100 * price.prompt_per_million + 410 * price.completion_per_million) / 1e6
    )


async def test_llm_policy_audit_extracts_themes_and_cites_both_sides(
    harness: WorkerHarness,
    library: Library,
    embedder: MiniLMEmbedder,
    openai_server: ScriptedOpenAI,
    llm: LLM,
) -> None:
    index, (policy, reg24, reg25) = library
    finding = _llm_finding("reg24", "High", POLICY_RETENTION, RETENTION_2024) | {"theme": "Record retention"}
    openai_server.enqueue(
        Reply.json({"themes": ["Record retention", "Data transfers", "Incident reporting"]}),
        Reply.json(_llm_audit([finding]) | {"mode": "policy"}),
    )
    broker = await harness.start(index, embedder, llm=llm)
    event = request(
        TENANT,
        "audit",
        "Audit our policy",
        [policy, reg24, reg25],
        source_document_id="policy",
        target_document_ids=["reg24", "reg25"],
    )
    await harness.ask(broker, event)
    body = await harness.terminal(TENANT)

    themes_request, audit_request = openai_server.requests
    assert themes_request.body["response_format"]["json_schema"]["name"] == "AuditThemes"
    # Naming the themes is a light call (the small model); the audit itself is the large model's.
    assert (themes_request.body["model"], audit_request.body["model"]) == ("gpt-4o-mini", "gpt-4o")
    assert body["model"] == "gpt-4o"
    assert (
        "- Record retention\n- Data transfers\n- Incident reporting" in audit_request.messages[-1]["content"]
    )
    result = AuditResult.model_validate(body["result"])
    assert (result.mode, result.themes_analyzed, result.source_document_id) == ("policy", 3, "policy")
    [found] = result.findings
    assert (found.theme, found.source_marker is not None, found.target_marker is not None) == (
        "Record retention",
        True,
        True,
    )
    assert_citations_verbatim(body, [policy, reg24])
    assert {c["document_id"] for c in body["citations"]} == {"policy", "reg24"}


async def test_llm_server_errors_fall_back_to_the_offline_policy_audit_with_a_notice(
    harness: WorkerHarness,
    library: Library,
    embedder: MiniLMEmbedder,
    openai_server: ScriptedOpenAI,
    llm: LLM,
) -> None:
    index, (policy, reg24, reg25) = library
    openai_server.enqueue(Reply.failure(500), Reply.failure(500))
    broker = await harness.start(index, embedder, llm=llm)
    event = request(
        TENANT,
        "audit",
        "Audit our policy",
        [policy, reg24, reg25],
        source_document_id="policy",
        target_document_ids=["reg24", "reg25"],
    )
    await harness.ask(broker, event)
    body = await harness.terminal(TENANT)

    # The themes call and its one retry, then the offline audit.
    assert [r.body["response_format"]["json_schema"]["name"] for r in openai_server.requests] == [
        "AuditThemes"
    ] * 2
    assert openai_server.pending == 0
    assert body["model"] == "offline-extractive"
    assert body["notices"] == [llm_fallback_notice("audit")]
    result = AuditResult.model_validate(body["result"])
    assert (result.mode, result.overall_status, result.source_document_id) == (
        "policy",
        "Needs Review",
        "policy",
    )
    assert _finding(result, "reg24", POLICY_RETENTION).severity == "High"
    assert_citations_verbatim(body, [policy, reg24, reg25])


async def test_llm_timeouts_fall_back_to_the_offline_text_audit_with_a_notice(
    harness: WorkerHarness,
    library: Library,
    embedder: MiniLMEmbedder,
    openai_server: ScriptedOpenAI,
    impatient_llm: LLM,
) -> None:
    index, (_, reg24, reg25) = library
    openai_server.enqueue(Reply.slow(1.0), Reply.slow(1.0))
    broker = await harness.start(index, embedder, llm=impatient_llm)
    event = request(
        TENANT,
        "audit",
        "Audit this email",
        [reg24, reg25],
        source_text=EMAIL,
        target_document_ids=["reg24", "reg25"],
    )
    await harness.ask(broker, event)
    body = await harness.terminal(TENANT)

    # The audit call timed out, was retried once, then the offline audit answered.
    assert [r.body["response_format"]["json_schema"]["name"] for r in openai_server.requests] == [
        "AuditResult"
    ] * 2
    assert openai_server.pending == 0
    assert body["model"] == "offline-extractive"
    assert body["notices"] == [llm_fallback_notice("audit")]
    result = AuditResult.model_validate(body["result"])
    assert (result.mode, result.overall_status, result.statements_checked) == ("text", "Needs Review", 5)
    for target in ("reg24", "reg25"):
        assert _finding(result, target, POLICY_RETENTION).severity == "High"
    assert all(finding.source_quote in EMAIL for finding in result.findings)
    assert_citations_verbatim(body, [reg24, reg25])
