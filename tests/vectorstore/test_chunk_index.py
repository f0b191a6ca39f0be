"""The chunk index keeps tenants apart even when their document ids collide."""

from pathlib import Path

import pytest

from policypal.embeddings import MiniLMEmbedder
from policypal.vectorstore import ChunkIndex, ChunkPoint, EmbeddingModelMismatch, open_qdrant

pytestmark = pytest.mark.integration


def _chunk(tenant: str, text: str, index: int = 0) -> ChunkPoint:
    return ChunkPoint(
        tenant_id=tenant,
        user_id="alice",
        document_id="same-id",
        title="Policy",
        version="1",
        doc_type="policy",
        page=1,
        chunk_index=index,
        text=text,
    )


async def _index(tmp_path: Path, embedder: MiniLMEmbedder) -> ChunkIndex:
    index = ChunkIndex(
        open_qdrant(None, path=tmp_path / "q"), model_id=embedder.model_id, dimension=embedder.dimension
    )
    await index.ensure_collection()
    return index


async def test_same_document_id_in_two_tenants_keeps_both(tmp_path: Path, embedder: MiniLMEmbedder) -> None:
    index = await _index(tmp_path, embedder)
    try:
        acme, globex = (
            _chunk("acme", "Acme keeps records for seven years."),
            _chunk("globex", "Globex keeps none."),
        )
        for chunk in (acme, globex):
            await index.upsert([chunk], embedder.embed([chunk.text]).tolist())
        query = embedder.embed(["How long are records kept?"])[0].tolist()
        for tenant, text in (("acme", acme.text), ("globex", globex.text)):
            hits = await index.search(query, tenant_id=tenant, user_id="alice", document_ids=["same-id"])
            assert [h.text for h in hits] == [text]
            assert await index.count(tenant_id=tenant, document_id="same-id") == 1
    finally:
        await index.aclose()


async def test_reindexing_overwrites_instead_of_duplicating(tmp_path: Path, embedder: MiniLMEmbedder) -> None:
    index = await _index(tmp_path, embedder)
    try:
        chunk = _chunk("acme", "Records are kept for seven years.")
        for _ in range(2):
            await index.upsert([chunk], embedder.embed([chunk.text]).tolist())
        assert await index.count(tenant_id="acme", document_id="same-id") == 1
    finally:
        await index.aclose()


async def test_another_embedding_model_is_refused(tmp_path: Path, embedder: MiniLMEmbedder) -> None:
    index = await _index(tmp_path, embedder)
    await index.aclose()
    other = ChunkIndex(
        open_qdrant(None, path=tmp_path / "q"), model_id="text-embedding-3-small", dimension=1536
    )
    with pytest.raises(EmbeddingModelMismatch, match="Re-index"):
        await other.ensure_collection()
    await other.aclose()
