"""The @Audit worker on a real nats-server, Valkey, local Qdrant and the real MiniLM embedder."""

import uuid
from collections.abc import AsyncIterator
from typing import Any

import nats
import pytest
from nats.js import JetStreamContext
from redis.asyncio import Redis

from actions.audit.service import DURABLE, SUBJECT, build_router
from policypal.contracts.audit import SEVERITY_ORDER, AuditResult
from policypal.devstack import ManagedProcess
from policypal.embeddings import MiniLMEmbedder
from policypal.state import ConversationStore
from policypal.vectorstore import ChunkIndex, open_qdrant
from tests.actions.policy_library import (
    COMPANY_POLICY,
    EMAIL,
    INCIDENT_RULE,
    POLICY_INCIDENT,
    POLICY_RETENTION,
    POLICY_TRANSFER,
    REGULATION_2024,
    REGULATION_2025,
    RETENTION_2024,
    RETENTION_2025,
    TRANSFER_RULE,
)
from tests.actions.worker_harness import (
    IndexedDocument,
    WorkerHarness,
    assert_citations_verbatim,
    index_pdf,
    request,
)

pytestmark = pytest.mark.integration

TENANT = f"t{uuid.uuid4().hex[:10]}"
Library = tuple[ChunkIndex, list[IndexedDocument]]


@pytest.fixture(scope="module")
def embedder() -> MiniLMEmbedder:
    return MiniLMEmbedder()


@pytest.fixture(scope="module")
async def library(
    tmp_path_factory: pytest.TempPathFactory, embedder: MiniLMEmbedder
) -> AsyncIterator[Library]:
    client = open_qdrant(None, path=tmp_path_factory.mktemp("audit") / "q")
    index = ChunkIndex(client, model_id=embedder.model_id, dimension=embedder.dimension)
    await index.ensure_collection()
    documents = [
        await index_pdf(
            index,
            embedder,
            tenant=TENANT,
            document_id=doc_id,
            title=title,
            version=version,
            pages=pages,
            doc_type=kind,
        )
        for doc_id, title, version, pages, kind in (
            ("policy", "Northwind Data Policy", "1", COMPANY_POLICY, "policy"),
            ("reg24", "Records Regulation", "2024", REGULATION_2024, "regulatory"),
            ("reg25", "Records Regulation", "2025", REGULATION_2025, "regulatory"),
        )
    ]
    yield index, documents
    await client.close()


@pytest.fixture
async def harness(nats_server: ManagedProcess, redis_client: Redis) -> AsyncIterator[WorkerHarness]:
    nc = await nats.connect(str(nats_server.url))
    js: JetStreamContext = nc.jetstream()
    worker = WorkerHarness(js, redis_client, str(nats_server.url), DURABLE, SUBJECT, build_router)
    await worker.new_conversation(TENANT)
    yield worker
    await worker.stop()
    await nc.drain()


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
