"""A target's rule units are found once the document is ready, and an audit finds them itself when
they are missing, partly written or found by an older extraction. Real MiniLM, local Qdrant."""

import uuid
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from actions.audit.target_rules import is_current, prepare_rules, target_rules
from policypal.contracts import ActionRequested, DocumentReady
from policypal.embeddings import MiniLMEmbedder
from policypal.rules import EXTRACTION_VERSION
from policypal.vectorstore import ChunkIndex, RulePoint, StoredRule
from tests.actions.policy_library import REGULATION_2024, RETENTION_2024
from tests.actions.worker_harness import USER, IndexedDocument, index_pdf, local_index, request
from tests.support.counting_embedder import CountingEmbedder
from tests.support.document_uploads import document_ready

pytestmark = pytest.mark.integration


@pytest.fixture
def tenant() -> str:
    return f"t{uuid.uuid4().hex[:10]}"


@pytest.fixture
async def index(tmp_path: Path, embedder: MiniLMEmbedder) -> AsyncIterator[ChunkIndex]:
    async with local_index(tmp_path / "q", embedder) as chunk_index:
        yield chunk_index


async def index_regulation(index: ChunkIndex, embedder: MiniLMEmbedder, tenant: str) -> IndexedDocument:
    """The 2024 regulation indexed for ``tenant`` as ``reg24``, its chunks only (no rules yet)."""
    return await index_pdf(
        index,
        embedder,
        tenant=tenant,
        document_id="reg24",
        title="Records Regulation",
        version="2024",
        pages=REGULATION_2024,
    )


def ready(tenant: str, document_id: str = "reg24", chunks: int = 1) -> DocumentReady:
    """The ``document.ready`` event of the 2024 regulation (or another document id) of ``tenant``."""
    return document_ready(tenant, USER, document_id, pages=len(REGULATION_2024), chunks=chunks)


def _audit(tenant: str, target: IndexedDocument) -> ActionRequested:
    return request(tenant, "audit", "Audit this", [target], source_text="Records are kept two years.")


async def test_a_ready_document_gets_its_rules_once_and_an_audit_reads_them(
    index: ChunkIndex, embedder: MiniLMEmbedder, tenant: str
) -> None:
    regulation = await index_regulation(index, embedder, tenant)
    prepared = await prepare_rules(ready(tenant), index=index, embedder=embedder)
    stored = await index.rules.document_rules(tenant_id=tenant, user_id=USER, document_id="reg24")
    assert prepared == len(stored) >= 10
    assert {s.rule.document_rules for s in stored} == {prepared}
    assert any(RETENTION_2024 in s.rule.text for s in stored)

    # Another delivery of the event, then an audit: neither embeds a rule again.
    counting = CountingEmbedder(embedder)
    assert await prepare_rules(ready(tenant), index=index, embedder=counting) == prepared
    read = await target_rules(_audit(tenant, regulation), regulation.resolved, index=index, embedder=counting)
    assert counting.texts == []
    assert [s.rule.rule_id for s in read] == [s.rule.rule_id for s in stored]
    # Another tenant's ready event for a document of the same id finds nothing of this one.
    assert await prepare_rules(ready(f"{tenant}x"), index=index, embedder=counting) == 0
    assert counting.texts == []


async def test_an_audit_finds_rules_not_prepared_yet_and_keeps_them(
    index: ChunkIndex, embedder: MiniLMEmbedder, tenant: str
) -> None:
    regulation = await index_regulation(index, embedder, tenant)
    counting = CountingEmbedder(embedder)
    found = await target_rules(
        _audit(tenant, regulation), regulation.resolved, index=index, embedder=counting
    )
    assert len(counting.texts) == len(found) >= 10
    # Kept whole: the preparation that comes after finds them current and embeds nothing.
    after = CountingEmbedder(embedder)
    assert await prepare_rules(ready(tenant), index=index, embedder=after) == len(found)
    assert after.texts == []


async def test_a_document_deleted_while_its_rules_are_found_keeps_none(
    index: ChunkIndex, embedder: MiniLMEmbedder, tenant: str
) -> None:
    await index_regulation(index, embedder, tenant)
    original_replace = index.rules.replace_document_rules

    async def replace_after_deletion(
        *, tenant_id: str, document_id: str, rules: list[RulePoint], vectors: list[list[float]]
    ) -> list[StoredRule]:
        # The owner deletes the document (chunks, rules and all) while its rules are embedded.
        await index.delete_document(tenant_id=tenant_id, document_id=document_id)
        return await original_replace(
            tenant_id=tenant_id, document_id=document_id, rules=rules, vectors=vectors
        )

    index.rules.replace_document_rules = replace_after_deletion  # type: ignore[method-assign]
    assert await prepare_rules(ready(tenant), index=index, embedder=embedder) == 0
    assert await index.rules.document_rules(tenant_id=tenant, user_id=USER, document_id="reg24") == []
    # A document gone by the time its event is read is prepared as nothing at all.
    assert await prepare_rules(ready(tenant, "gone"), index=index, embedder=embedder) == 0


async def test_rules_partly_written_or_of_an_older_extraction_are_found_again(
    index: ChunkIndex, embedder: MiniLMEmbedder, tenant: str
) -> None:
    regulation = await index_regulation(index, embedder, tenant)
    await prepare_rules(ready(tenant), index=index, embedder=embedder)
    whole = await index.rules.document_rules(tenant_id=tenant, user_id=USER, document_id="reg24")
    assert is_current(whole)
    # A write cut short: fewer rules than the extraction found.
    assert not is_current(whole[:-1])
    older = [_with(s, extraction=EXTRACTION_VERSION - 1) for s in whole]
    assert not is_current(older)
    assert not is_current([])
    # Rules written whole before the count was kept are current.
    assert is_current([_with(s, document_rules=None) for s in whole])

    await index.rules.delete_document(tenant_id=tenant, document_id="reg24")
    counting = CountingEmbedder(embedder)
    again = await target_rules(
        _audit(tenant, regulation), regulation.resolved, index=index, embedder=counting
    )
    assert [s.rule.rule_id for s in again] == [s.rule.rule_id for s in whole]
    assert len(counting.texts) == len(whole)


def _with(stored: StoredRule, **fields: int | None) -> StoredRule:
    return StoredRule(rule=stored.rule.model_copy(update=fields), vector=stored.vector)


async def test_a_rule_whose_subject_refers_back_is_embedded_with_what_it_refers_to(
    index: ChunkIndex, embedder: MiniLMEmbedder, tenant: str
) -> None:
    await index_pdf(
        index,
        embedder,
        tenant=tenant,
        document_id="ledger",
        title="Ledger Regulation",
        version="2024",
        pages=[
            "1. Scope\nThis regulation applies to every branch of the bank that keeps records of the "
            "payments it makes and receives, on paper or in any electronic form.",
            "2. Ledgers\nEvery branch must keep its ledger in the file /srv/records/ledger.csv, updated at "
            "the close of each business day. This file must never be compressed.",
        ],
    )
    counting = CountingEmbedder(embedder)

    await prepare_rules(ready(tenant, "ledger"), index=index, embedder=counting)

    assert "This file must never be compressed. (file /srv/records/ledger.csv)" in counting.texts
