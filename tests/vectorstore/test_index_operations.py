"""Reads, counts and deletes by document, and the rules collection, alike on both engines."""

from pathlib import Path

import pytest
import qdrant_edge as edge

from policypal.embeddings import MiniLMEmbedder
from policypal.vectorstore import ChunkIndex, open_embedded_index
from tests.actions.audit.rule_points import rule_point
from tests.vectorstore.conftest import IndexOpener, open_local_mode
from tests.vectorstore.test_hybrid_search import TEXTS, _chunk
from tests.vectorstore.test_local_migration import RULES_USER

pytestmark = pytest.mark.integration


async def _library(open_index: IndexOpener, path: Path, embedder: MiniLMEmbedder) -> ChunkIndex:
    """Two documents of alice, one of bob, and a copy of alice's first in another tenant."""
    index = await open_index(path, model_id=embedder.model_id, dimension=embedder.dimension)
    chunks = [
        *[_chunk(text, i) for i, text in enumerate(TEXTS)],
        *[_chunk(text, i, doc="d2") for i, text in enumerate(TEXTS[:2])],
        _chunk(TEXTS[0], 0, user="bob", doc="d3"),
        *[_chunk(text, i, tenant="globex") for i, text in enumerate(TEXTS)],
    ]
    await index.upsert(chunks, embedder.embed([c.text for c in chunks]).tolist())
    return index


async def test_a_documents_chunk_vectors_read_back_by_index_for_its_owner_only(
    open_index: IndexOpener, tmp_path: Path, embedder: MiniLMEmbedder
) -> None:
    index = await _library(open_index, tmp_path / "q", embedder)
    try:
        found = await index.document_chunk_vectors(tenant_id="acme", user_id="alice", document_id="d1")
        assert sorted(found) == list(range(len(TEXTS)))
        expected = embedder.embed(TEXTS)
        for position, vector in found.items():
            assert sum(a * b for a, b in zip(vector, expected[position], strict=True)) == pytest.approx(
                1, abs=1e-3
            )
        assert await index.document_chunk_vectors(tenant_id="acme", user_id="bob", document_id="d1") == {}
    finally:
        await index.aclose()


async def test_a_documents_opening_is_its_first_chunks_scored_against_the_question(
    open_index: IndexOpener, tmp_path: Path, embedder: MiniLMEmbedder
) -> None:
    index = await _library(open_index, tmp_path / "q", embedder)
    try:
        query = embedder.embed([TEXTS[1]])[0].tolist()
        opening = await index.document_opening(
            query, tenant_id="acme", user_id="alice", document_id="d1", chunks=2
        )
        assert [(hit.chunk_index, hit.text) for hit in opening] == [(0, TEXTS[0]), (1, TEXTS[1])]
        assert opening[1].score == pytest.approx(1, abs=1e-3)
        assert opening[0].score < opening[1].score
        assert (
            await index.document_opening(query, tenant_id="acme", user_id="bob", document_id="d1", chunks=2)
            == []
        )
    finally:
        await index.aclose()


async def test_a_document_reads_back_in_order_and_deletes_from_an_index(
    open_index: IndexOpener, tmp_path: Path, embedder: MiniLMEmbedder
) -> None:
    index = await _library(open_index, tmp_path / "q", embedder)
    try:
        chunks = await index.document_chunks(tenant_id="acme", user_id="alice", document_id="d1")
        assert [(c.chunk_index, c.text) for c in chunks] == list(enumerate(TEXTS))
        assert await index.document_chunks(tenant_id="acme", user_id="bob", document_id="d1") == []
        await index.delete_chunks_from(tenant_id="acme", document_id="d1", first_index=2)
        assert await index.count(tenant_id="acme", document_id="d1") == 2
        assert await index.count(tenant_id="globex", document_id="d1") == len(TEXTS)
        await index.delete_document(tenant_id="acme", document_id="d1")
        assert await index.count(tenant_id="acme", document_id="d1") == 0
        assert await index.count(tenant_id="acme", document_id="d2") == 2
        assert await index.count(tenant_id="globex", document_id="d1") == len(TEXTS)
    finally:
        await index.aclose()


async def test_searches_keep_to_their_documents_and_an_empty_selection_finds_nothing(
    open_index: IndexOpener, tmp_path: Path, embedder: MiniLMEmbedder
) -> None:
    index = await _library(open_index, tmp_path / "q", embedder)
    try:
        question = "How long are customer records retained?"
        vector = embedder.embed([question])[0].tolist()
        for ids in (["d2"], ["d1", "d2"], ["d3"]):
            hits = await index.hybrid_search(
                vector, question, tenant_id="acme", user_id="alice", document_ids=ids
            )
            dense = await index.search(vector, tenant_id="acme", user_id="alice", document_ids=ids, limit=10)
            expected = {c for c in ("d1", "d2") if c in ids}
            assert {h.document_id for h in hits} == {h.document_id for h in dense} == expected
        assert (
            await index.hybrid_search(vector, question, tenant_id="acme", user_id="alice", document_ids=[])
            == []
        )
        hits = await index.search(vector, tenant_id="acme", user_id="alice", limit=3)
        assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)
        assert hits[0].text == TEXTS[0]
    finally:
        await index.aclose()


async def test_rules_are_replaced_read_with_vectors_and_deleted_per_tenant(
    open_index: IndexOpener, tmp_path: Path, embedder: MiniLMEmbedder
) -> None:
    index = await open_index(tmp_path / "q", model_id=embedder.model_id, dimension=embedder.dimension)
    try:
        for texts in (TEXTS, TEXTS[:2]):  # a shorter second extraction replaces the first whole
            rules = [rule_point(i, text, document_id="d1") for i, text in enumerate(texts)]
            vectors = embedder.embed(list(texts)).tolist()
            await index.rules.replace_document_rules(
                tenant_id="acme", document_id="d1", rules=rules, vectors=vectors
            )
        stored = await index.rules.document_rules(tenant_id="acme", user_id=RULES_USER, document_id="d1")
        assert [s.rule.text for s in stored] == TEXTS[:2]
        assert stored[0].vector == pytest.approx(vectors[0], abs=1e-5)
        for tenant, user in (("globex", RULES_USER), ("acme", "alice")):
            assert await index.rules.document_rules(tenant_id=tenant, user_id=user, document_id="d1") == []
        await index.delete_document(tenant_id="acme", document_id="d1")
        assert await index.rules.document_rules(tenant_id="acme", user_id=RULES_USER, document_id="d1") == []
    finally:
        await index.aclose()


MORE = [
    "Access logs are kept for ninety days and then deleted.",
    "Backups of customer data are encrypted and kept for one year.",
    "The records manager approves every deletion of records before it happens.",
    "Paper records are shredded on site once their retention period ends.",
    "Staff must not keep copies of customer records on personal devices.",
    "Exemptions from the retention schedule are granted by the compliance officer.",
]
QUESTIONS = [
    "How long are records kept?",
    "who approves deleting records",
    "Are backups encrypted?",
    "retention schedule exemption",
    "What happens to paper records?",
]


async def test_both_engines_rank_hybrid_results_the_same(tmp_path: Path, embedder: MiniLMEmbedder) -> None:
    chunks = [_chunk(text, i) for i, text in enumerate([*TEXTS, *MORE])]
    vectors = embedder.embed([c.text for c in chunks]).tolist()
    rankings: dict[str, list[list[tuple[str, float]]]] = {}
    for engine, opener in (("edge", open_embedded_index), ("local-mode", open_local_mode)):
        index = await opener(tmp_path / engine, model_id=embedder.model_id, dimension=embedder.dimension)
        try:
            await index.upsert(chunks, vectors)
            rankings[engine] = []
            for question in QUESTIONS:
                vector = embedder.embed([question])[0].tolist()
                hits = await index.hybrid_search(vector, question, tenant_id="acme", user_id="alice")
                rankings[engine].append([(h.chunk_id, round(h.score, 4)) for h in hits])
        finally:
            await index.aclose()
    assert rankings["edge"] == rankings["local-mode"]
    assert all(len(ranking) == len(chunks) for ranking in rankings["edge"])


async def test_the_embedded_engine_loads_a_stored_collection_when_it_opens(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = await open_embedded_index(tmp_path, model_id="m", dimension=4)
    await first.aclose()
    loads: list[str] = []
    load = edge.EdgeShard.load
    monkeypatch.setattr(edge.EdgeShard, "load", lambda path: loads.append(Path(path).name) or load(path))

    index = await open_embedded_index(tmp_path, model_id="m", dimension=4)
    try:
        opened = sorted(loads)
        await index.search([1.0, 0.0, 0.0, 0.0], tenant_id="t", user_id="u", limit=3)
    finally:
        await index.aclose()

    assert opened == ["chunks", "rules", "units"]
    assert sorted(loads) == opened
