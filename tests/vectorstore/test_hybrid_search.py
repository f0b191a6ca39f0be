"""Hybrid (dense + BM25) search: keywords found, scope kept, old dense-only collections handled."""

import logging
from pathlib import Path

import pytest
from qdrant_client import AsyncQdrantClient, models

from policypal.embeddings import MiniLMEmbedder
from policypal.vectorstore import ChunkIndex, ChunkPoint
from policypal.vectorstore.chunk_index import COLLECTION, NO_SPARSE_VECTOR
from tests.vectorstore.conftest import IndexOpener

pytestmark = pytest.mark.integration

TEXTS = [
    "Customer records must be retained for seven years after the account is closed.",
    "Records of processing activities are kept by the controller and shown to the authority.",
    "Retention schedules are reviewed every year by the records manager.",
    "The Halvorsen exemption applies to branches with fewer than ten staff.",
]


def _chunk(
    text: str, index: int, *, tenant: str = "acme", user: str = "alice", doc: str = "d1"
) -> ChunkPoint:
    return ChunkPoint(
        tenant_id=tenant,
        user_id=user,
        document_id=doc,
        title="Rulebook",
        version="1",
        doc_type="regulatory",
        page=index + 1,
        chunk_index=index,
        text=text,
    )


async def _index(open_index: IndexOpener, path: Path, embedder: MiniLMEmbedder) -> ChunkIndex:
    return await open_index(path, model_id=embedder.model_id, dimension=embedder.dimension)


async def _write(index: ChunkIndex, embedder: MiniLMEmbedder, chunks: list[ChunkPoint]) -> None:
    await index.upsert(chunks, embedder.embed([c.text for c in chunks]).tolist())


async def test_a_rare_keyword_lifts_its_chunk_in_hybrid_search(
    open_index: IndexOpener, tmp_path: Path, embedder: MiniLMEmbedder
) -> None:
    index = await _index(open_index, tmp_path / "q", embedder)
    try:
        await _write(index, embedder, [_chunk(text, i) for i, text in enumerate(TEXTS)])
        question = "How long are records retained under the Halvorsen exemption?"
        vector = embedder.embed([question])[0].tolist()
        dense = await index.search(vector, tenant_id="acme", user_id="alice", limit=4)
        hybrid = await index.hybrid_search(vector, question, tenant_id="acme", user_id="alice")
        assert index.hybrid
        dense_rank = [hit.chunk_index for hit in dense].index(3)
        hybrid_rank = [hit.chunk_index for hit in hybrid].index(3)
        # Meaning alone puts the retention chunks first; the rare name lifts the chunk that has it.
        assert hybrid_rank < dense_rank
        # Scores stay cosine similarities, whatever the fused order.
        by_index = {hit.chunk_index: hit.score for hit in dense}
        for hit in hybrid:
            assert hit.score == pytest.approx(by_index[hit.chunk_index], abs=1e-5)
    finally:
        await index.aclose()


async def test_hybrid_search_never_leaves_tenant_user_or_documents(
    open_index: IndexOpener, tmp_path: Path, embedder: MiniLMEmbedder
) -> None:
    index = await _index(open_index, tmp_path / "q", embedder)
    try:
        await _write(index, embedder, [_chunk(TEXTS[3], 0)])
        await _write(index, embedder, [_chunk(TEXTS[3], 0, tenant="globex")])
        await _write(index, embedder, [_chunk(TEXTS[3], 0, user="bob", doc="d3")])
        await _write(index, embedder, [_chunk(TEXTS[3], 0, doc="d2")])
        question = "Halvorsen exemption"
        vector = embedder.embed([question])[0].tolist()
        hits = await index.hybrid_search(
            vector, question, tenant_id="acme", user_id="alice", document_ids=["d1"]
        )
        assert [(h.tenant_id, h.user_id, h.document_id) for h in hits] == [("acme", "alice", "d1")]
        everything = await index.hybrid_search(vector, question, tenant_id="acme", user_id="alice")
        assert sorted(h.document_id for h in everything) == ["d1", "d2"]
    finally:
        await index.aclose()


async def test_a_collection_without_sparse_vectors_stays_dense_only_and_says_so(
    open_index: IndexOpener, tmp_path: Path, caplog: pytest.LogCaptureFixture, embedder: MiniLMEmbedder
) -> None:
    # A collection as the ingestor created it before hybrid search (on the embedded engine: migrated).
    old = AsyncQdrantClient(path=str(tmp_path / "q"))
    await old.create_collection(
        COLLECTION,
        vectors_config=models.VectorParams(size=embedder.dimension, distance=models.Distance.COSINE),
        metadata={"embedding_model": embedder.model_id, "dimension": embedder.dimension},
    )
    await old.close()
    with caplog.at_level(logging.WARNING):
        index = await _index(open_index, tmp_path / "q", embedder)
    try:
        assert not index.hybrid
        assert NO_SPARSE_VECTOR in caplog.text
        assert "re-index" in NO_SPARSE_VECTOR
        await _write(index, embedder, [_chunk(text, i) for i, text in enumerate(TEXTS)])
        question = "How long are customer records kept?"
        vector = embedder.embed([question])[0].tolist()
        hybrid = await index.hybrid_search(vector, question, tenant_id="acme", user_id="alice", limit=4)
        dense = await index.search(vector, tenant_id="acme", user_id="alice", limit=4)
        assert [h.chunk_id for h in hybrid] == [h.chunk_id for h in dense]
    finally:
        await index.aclose()
