"""The @Audit worker on a real nats-server, Valkey, local Qdrant and the real MiniLM embedder."""

import json
import re
from pathlib import Path
from typing import Any

import pytest
from redis.asyncio import Redis

from actions.audit.service import RULES_DURABLE
from actions.drafting import document_name, llm_fallback_notice
from policypal.bus import publish_event
from policypal.contracts import AuditOptions
from policypal.contracts.audit import SEVERITY_ORDER, AuditResult
from policypal.embeddings import MiniLMEmbedder
from policypal.llm import LLM, price_of
from policypal.state import ConversationStore
from policypal.vectorstore import ChunkIndex
from tests.actions.action_service_suite import ActionServiceSuite, Ask, Refused, action_harness
from tests.actions.audit.conftest import TENANT, Library
from tests.actions.audit.test_target_rules import index_regulation, ready
from tests.actions.policy_library import (
    EMAIL,
    INCIDENT_RULE,
    POLICY_INCIDENT,
    POLICY_RETENTION,
    POLICY_TRANSFER,
    REGULATION_2024,
    RETENTION_2024,
    RETENTION_2025,
    TRANSFER_RULE,
)
from tests.actions.worker_harness import (
    USER,
    IndexedDocument,
    WorkerHarness,
    assert_citations_verbatim,
    index_pdf,
    local_index,
    request,
)
from tests.support.jetstream import wait_until_consumed
from tests.support.openai_server import RecordedRequest, Reply, ScriptedOpenAI

pytestmark = pytest.mark.integration


harness = action_harness(TENANT, "audit")
HEADINGS_ONLY = "# Scope\n\n## Definitions\n\nRetention"


class TestAuditService(ActionServiceSuite):
    TENANT = TENANT
    ACTION = "audit"
    FALLBACK_WHAT = "audit"
    # Policy mode: the policy is read clause by clause from the index.
    ANSWERABLE = Ask(
        "Audit our policy",
        ("policy", "reg24", "reg25"),
        {"source_document_id": "policy", "target_document_ids": ["reg24", "reg25"]},
    )
    REFUSALS = (
        Refused(
            Ask("audit", ("reg24",), {"target_document_ids": ["reg24"]}),
            "audit_needs_source",
            "paste the text",
            name="nothing-to-audit",
        ),
        Refused(
            Ask("audit", ("reg24",), {"target_document_ids": ["reg24"], "source_text": HEADINGS_ONLY}),
            "audit_needs_source",
            "only headings",
            name="headings-only",
        ),
        # The same text in the audit's own options (no flat field set): the worker reads them.
        Refused(
            Ask(
                "audit",
                ("reg24",),
                {"audit": AuditOptions(source_text=HEADINGS_ONLY, target_document_ids=["reg24"])},
            ),
            "audit_needs_source",
            "only headings",
            name="headings-only-in-audit-options",
        ),
    )

    def index_of(self, library: Library) -> ChunkIndex:
        return library[0]

    def documents_of(self, library: Library) -> list[IndexedDocument]:
        return library[1]

    def assert_fallback(self, body: dict[str, Any], openai_server: ScriptedOpenAI) -> None:
        # The judgement call and its one retry, then the offline audit.
        assert [r.body["response_format"]["json_schema"]["name"] for r in openai_server.requests] == [
            "ClauseJudgements"
        ] * 2
        result = AuditResult.model_validate(body["result"])
        assert (result.mode, result.overall_status, result.source_document_id) == (
            "policy",
            "Major Violations",
            "policy",
        )
        assert _finding(result, "reg24", POLICY_RETENTION).assessed_by == "offline-rules"


def _finding(result: AuditResult, target: str, source: str) -> Any:
    [found] = [f for f in result.findings if f.target_doc_id == target and source in _plain(f.source_quote)]
    return found


def _plain(quote: str) -> str:
    # PDF text keeps its line breaks; the planted sentences are compared on one line.
    return " ".join(quote.split())


def _assert_grouped_by_target_then_severity(result: AuditResult, targets: list[str]) -> None:
    order = [(targets.index(f.target_doc_id), SEVERITY_ORDER.index(f.severity)) for f in result.findings]
    assert order == sorted(order)


async def test_policy_mode_checks_every_clause_and_finds_the_planted_breaches(
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
    assert (result.mode, result.targets_checked, result.overall_status) == ("policy", 2, "Major Violations")
    assert result.statements_checked >= 10  # every clause of the policy, not a sample
    _assert_grouped_by_target_then_severity(result, ["reg24", "reg25"])
    retention = _finding(result, "reg24", POLICY_RETENTION)
    assert _plain(retention.target_quote) == RETENTION_2024
    assert (retention.target_page, retention.source_page, retention.rule_modality) == (2, 2, "obligation")
    assert "“must”" in (retention.rationale or "")
    assert "seven years" in (retention.rationale or "")
    assert _plain(_finding(result, "reg25", POLICY_RETENTION).target_quote) == RETENTION_2025
    incident = _finding(result, "reg24", POLICY_INCIDENT)
    assert (_plain(incident.target_quote), incident.target_page) == (INCIDENT_RULE, 4)
    transfer = _finding(result, "reg24", POLICY_TRANSFER)
    assert (_plain(transfer.target_quote), transfer.rule_modality) == (TRANSFER_RULE, "prohibition")
    for finding in result.findings:
        # Severity follows the rule's force and says so; offline nothing claims an impact assessment.
        assert (finding.severity, finding.assessed_by, finding.needs_review) == (
            "High",
            "offline-rules",
            True,
        )
        assert (finding.rationale or "").startswith("High because the rule says")
        assert "not assessed" in finding.consequence
    # The compliant clauses (training, the yearly test of the response plan) are not flagged.
    assert len(result.findings) == 6
    assert not [f for f in result.findings if "training" in f.source_quote or "tested" in f.source_quote]
    # Coverage: the rules of the sections the policy touches, the breached ones contradicted.
    statuses = {(c.target_doc_id, _plain(c.rule_quote)): c.status for c in result.coverage}
    assert statuses[("reg24", RETENTION_2024)] == "contradicted"
    assert {"addressed", "not_addressed"} <= set(statuses.values())
    assert "Coverage of the" in body["answer"]
    assert "not mentioned" in body["answer"]
    # Every quote is verbatim: the target's in its cited chunk, the source's in the policy's.
    assert_citations_verbatim(body, [policy, reg24, reg25])
    cited = {c["marker"]: c for c in body["citations"]}
    for finding in result.findings:
        assert finding.target_marker is not None
        assert finding.source_marker is not None
        assert cited[finding.target_marker]["quote"] == finding.target_quote
        assert cited[finding.target_marker]["page"] == finding.target_page
        assert cited[finding.source_marker]["quote"] == finding.source_quote
        assert cited[finding.source_marker]["document_id"] == "policy"
    assert await harness.statuses(TENANT) == ["sampling", "retrieving", "auditing"]
    [turn] = await ConversationStore(redis_client).messages(TENANT, "conv1")
    assert turn.content == body["answer"]


async def test_text_mode_checks_each_clause_against_every_target(
    harness: WorkerHarness, library: Library, embedder: MiniLMEmbedder
) -> None:
    index, (_, reg24, reg25) = library
    broker = await harness.start(index, embedder)
    # Pasted as it came, header lines and all: they are neither clauses nor themes.
    pasted = f"From: Dana Ops <dana@example.com>\nSubject: Housekeeping\n\n{EMAIL}"
    event = request(
        TENANT,
        "audit",
        "Audit this email",
        [reg24, reg25],
        source_text=pasted,
        target_document_ids=["reg24", "reg25"],
    )
    await harness.ask(broker, event)
    body = await harness.terminal(TENANT)

    result = AuditResult.model_validate(body["result"])
    assert (result.mode, result.themes_analyzed, result.statements_checked) == ("text", None, 5)
    assert {f.theme for f in result.findings} == {None}
    assert (result.overall_status, result.coverage) == ("Major Violations", [])
    _assert_grouped_by_target_then_severity(result, ["reg24", "reg25"])
    for target in ("reg24", "reg25"):
        assert _finding(result, target, POLICY_RETENTION).severity == "High"
        assert _finding(result, target, POLICY_INCIDENT).target_page == 4
    for finding in result.findings:
        assert finding.source_quote in EMAIL
        assert finding.source_marker is None  # the text is not a document: quoted, not cited
        assert finding.source_page is None
    # Unrelated small talk is not turned into a finding.
    assert not [f for f in result.findings if "kitchen" in f.source_quote or "Hello" in f.source_quote]
    assert_citations_verbatim(body, [reg24, reg25])
    assert "without a language model" in body["answer"]


async def test_a_text_identical_to_its_target_is_compliant(
    harness: WorkerHarness, library: Library, embedder: MiniLMEmbedder
) -> None:
    index, (_, reg24, _) = library
    broker = await harness.start(index, embedder)
    text = "\n\n".join(REGULATION_2024)
    await harness.ask(
        broker, request(TENANT, "audit", "audit", [reg24], source_text=text, target_document_ids=["reg24"])
    )
    body = await harness.terminal(TENANT)

    result = AuditResult.model_validate(body["result"])
    assert (result.overall_status, result.findings) == ("Compliant", [])
    assert result.statements_checked > 10
    assert "No breach found" in body["answer"]


async def test_a_target_without_rules_is_named_as_such(
    harness: WorkerHarness, library: Library, embedder: MiniLMEmbedder
) -> None:
    index, (policy, reg24, _) = library
    broker = await harness.start(index, embedder)
    event = request(
        TENANT, "audit", "audit", [policy, reg24], source_text=EMAIL, target_document_ids=["policy", "reg24"]
    )
    await harness.ask(broker, event)
    body = await harness.terminal(TENANT)

    result = AuditResult.model_validate(body["result"])
    assert result.targets_without_rules == ["policy"]
    assert {f.target_doc_id for f in result.findings} == {"reg24"}
    assert "No binding rules found: this document states no obligation" in body["answer"]


async def test_a_ready_document_gets_its_rules_before_an_audit_needs_them(
    harness: WorkerHarness, tmp_path: Path, embedder: MiniLMEmbedder
) -> None:
    async with local_index(tmp_path / "q", embedder) as index:
        reg24 = await index_regulation(index, embedder, TENANT)
        broker = await harness.start(index, embedder)
        event = ready(TENANT, chunks=len(reg24.chunks))
        await publish_event(broker, event)
        await wait_until_consumed(harness.js, "EVENTS", RULES_DURABLE, within=60.0)
        stored = await index.rules.document_rules(tenant_id=TENANT, user_id=USER, document_id="reg24")
        assert len(stored) >= 10
        assert any(RETENTION_2024 in s.rule.text for s in stored)
        assert {s.rule.document_rules for s in stored} == {len(stored)}


def _listed_rules(prompt: str) -> list[tuple[str, str, str]]:
    """The rules a judgement prompt listed: the heading of their document, their id and the rest."""
    document, listed = "", []
    for line in prompt.split("## Clause ")[0].splitlines():
        if line.startswith("### "):
            document = line.removeprefix("### ")
        elif line.startswith("- R"):
            _, rule_id, rest = line.split(" ", 2)
            listed.append((document, rule_id, rest))
    return listed


def _clause_and_rules(prompt: str) -> dict[int, tuple[str, dict[str, str]]]:
    """The clauses a judgement prompt showed the model, with their candidate rules by id."""
    listed = dict(re.findall(r"^- (R\d+) \[[^\]]*\] (.*)$", prompt, re.MULTILINE))
    shown: dict[int, tuple[str, dict[str, str]]] = {}
    for block in prompt.split("## Clause ")[1:]:
        header, text, named, *_ = block.strip().split("\n")
        ids = named.removeprefix("Rules: ").split(", ")
        shown[int(header)] = (text, {rule_id: listed[rule_id] for rule_id in ids})
    return shown


async def _audit_email(
    harness: WorkerHarness, library: Library, embedder: MiniLMEmbedder, llm: LLM
) -> dict[str, Any]:
    """The terminal event of an audit of the e-mail against both versions of the regulation."""
    index, (_, reg24, reg25) = library
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
    body: dict[str, Any] = await harness.terminal(TENANT)
    return body


async def test_llm_text_audit_judges_candidate_pairs_and_quotes_them_verbatim(
    harness: WorkerHarness,
    library: Library,
    embedder: MiniLMEmbedder,
    openai_server: ScriptedOpenAI,
    llm: LLM,
) -> None:
    _, (_, reg24, reg25) = library
    judgements = {
        "judgements": [
            {
                "clause": 1,
                "verdict": "breach",
                "rule": "R1",
                "severity": "Critical",
                "consequence": "Records destroyed early expose the bank to fines.",
                "suggestion": "Keep records as long as the regulation requires.",
            },
            {"clause": 2, "verdict": "complies", "rule": "R1"},
            # An unknown clause and an unknown rule id are ignored.
            {"clause": 99, "verdict": "breach", "rule": "R1"},
            {"clause": 3, "verdict": "breach", "rule": "R77"},
        ]
    }
    openai_server.enqueue(
        Reply(content='{"judgements": [', prompt_tokens=900, completion_tokens=5),
        Reply(content=json.dumps(judgements), prompt_tokens=1000, completion_tokens=120),
    )
    body = await _audit_email(harness, library, embedder, llm)

    first, correction = openai_server.requests
    assert first.body["response_format"]["json_schema"]["name"] == "ClauseJudgements"
    assert first.body["model"] == body["model"] == "gpt-4o"
    assert "did not match the required JSON schema" in correction.messages[-1]["content"]
    shown = _clause_and_rules(first.messages[-1]["content"])
    # A rule several clauses may breach is listed once, and each of them names it by its id; rules of
    # the two versions of the regulation are told apart by their version.
    listed = [(document, rest) for document, _, rest in _listed_rules(first.messages[-1]["content"])]
    assert len(listed) == len(set(listed))
    assert {document for document, _ in listed} == {
        document_name(reg24.resolved),
        document_name(reg25.resolved),
    }
    assert sum(len(rules) for _, rules in shown.values()) > len(listed)
    # Only clauses with a governing rule cost tokens: the greeting and the kitchen are not sent.
    assert all("kitchen" not in text and "Hello" not in text for text, _ in shown.values())
    clause_text, rules = shown[1]
    result = AuditResult.model_validate(body["result"])
    [finding] = result.findings
    assert (finding.severity, finding.assessed_by, finding.needs_review) == ("Critical", "model", False)
    assert _plain(finding.source_quote) == clause_text
    assert finding.source_quote in EMAIL
    assert _plain(finding.target_quote) in rules["R1"]
    assert finding.consequence == "Records destroyed early expose the bank to fines."
    assert result.overall_status == "Major Violations"
    assert_citations_verbatim(body, [reg24, reg25])
    assert "without a language model" not in body["answer"]
    price = price_of("gpt-4o")
    assert price is not None
    assert body["usage"]["cost_usd"] == pytest.approx(
        (1900 * price.prompt_per_million + 125 * price.completion_per_million) / 1e6
    )


async def test_llm_a_clause_breaching_rules_of_two_targets_is_a_finding_in_each(
    harness: WorkerHarness,
    library: Library,
    embedder: MiniLMEmbedder,
    openai_server: ScriptedOpenAI,
    llm: LLM,
) -> None:
    _, (_, reg24, reg25) = library

    def breach_both(request: RecordedRequest) -> Reply:
        prompt = request.messages[-1]["content"]
        ids: dict[str, list[str]] = {}
        for document, rule_id, _ in _listed_rules(prompt):
            ids.setdefault(document, []).append(rule_id)
        first, second = ids[document_name(reg24.resolved)][0], ids[document_name(reg25.resolved)][0]
        clause = _clause_naming(prompt, first, second)
        return Reply.json(
            {
                "judgements": [
                    {
                        "clause": clause,
                        "verdict": "breach",
                        "rule": first,
                        # An unknown id, and a second rule of the first target, add nothing.
                        "also_breaches": [second, "R99", ids[document_name(reg24.resolved)][-1]],
                        "severity": "High",
                        "consequence": "Both versions are breached.",
                        "suggestion": "Keep records as long as both versions require.",
                    }
                ]
            }
        )

    openai_server.reply_for = breach_both
    body = await _audit_email(harness, library, embedder, llm)

    result = AuditResult.model_validate(body["result"])
    assert sorted(f.target_doc_id for f in result.findings) == ["reg24", "reg25"]
    assert {f.consequence for f in result.findings} == {"Both versions are breached."}
    assert {f.source_quote for f in result.findings} == {result.findings[0].source_quote}
    assert_citations_verbatim(body, [reg24, reg25])


def _clause_naming(prompt: str, *rule_ids: str) -> int:
    """The number of the first clause of a judgement prompt whose rules include all of ``rule_ids``."""
    for block in prompt.split("## Clause ")[1:]:
        header, _, named, *_ = block.strip().split("\n")
        if set(rule_ids) <= set(named.removeprefix("Rules: ").split(", ")):
            return int(header)
    raise AssertionError(f"no clause names {rule_ids}")


async def test_llm_timeouts_fall_back_to_the_offline_text_audit_with_a_notice(
    harness: WorkerHarness,
    library: Library,
    embedder: MiniLMEmbedder,
    openai_server: ScriptedOpenAI,
    impatient_llm: LLM,
) -> None:
    _, (_, reg24, reg25) = library
    openai_server.enqueue(Reply.slow(1.0), Reply.slow(1.0))
    body = await _audit_email(harness, library, embedder, impatient_llm)

    assert [r.body["response_format"]["json_schema"]["name"] for r in openai_server.requests] == [
        "ClauseJudgements"
    ] * 2
    assert openai_server.pending == 0
    assert body["model"] == "offline-extractive"
    assert body["notices"] == [llm_fallback_notice("audit")]
    result = AuditResult.model_validate(body["result"])
    assert (result.mode, result.overall_status, result.statements_checked) == ("text", "Major Violations", 5)
    for target in ("reg24", "reg25"):
        assert _finding(result, target, POLICY_RETENTION).severity == "High"
    assert all(finding.source_quote in EMAIL for finding in result.findings)
    assert_citations_verbatim(body, [reg24, reg25])


#: A regulation whose rule names its subject only as "This file": the statement before says which.
TRAIL_REGULATION = [
    "Scope. This regulation applies to every export service operated in the territory. It sets minimum "
    "standards for the records that export jobs keep of their work, and for who may change them.",
    "Audit trails. Every export job writes its audit trail to the file /var/lib/exports/trail.log. "
    "This file must never be truncated or rotated by operators. Exports are listed in the register.",
]


async def test_llm_a_rule_whose_subject_refers_back_is_shown_with_what_it_refers_to(
    harness: WorkerHarness,
    library: Library,
    embedder: MiniLMEmbedder,
    openai_server: ScriptedOpenAI,
    llm: LLM,
) -> None:
    index, _ = library
    trails = await index_pdf(
        index,
        embedder,
        tenant=TENANT,
        document_id="trails",
        title="Export Trails Regulation",
        version="1",
        pages=TRAIL_REGULATION,
    )
    openai_server.enqueue(
        Reply(content=json.dumps({"judgements": []}), prompt_tokens=300, completion_tokens=5)
    )
    broker = await harness.start(index, embedder, llm=llm)
    text = "Operators truncate and rotate the audit trail file /var/lib/exports/trail.log every night."
    await harness.ask(
        broker,
        request(TENANT, "audit", "Audit this", [trails], source_text=text, target_document_ids=["trails"]),
    )
    await harness.terminal(TENANT)

    [asked] = openai_server.requests
    listed = {rest for _, _, rest in _listed_rules(asked.messages[-1]["content"])}
    assert any(
        "This file must never be truncated" in rest
        and "(its subject refers to: file /var/lib/exports/trail.log)" in rest
        for rest in listed
    ), listed
