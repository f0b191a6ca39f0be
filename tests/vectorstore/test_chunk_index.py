"""The chunk index keeps tenants apart even when their document ids collide."""

from pathlib import Path

import pytest

from policypal.embeddings import MiniLMEmbedder
from policypal.vectorstore import ChunkIndex, ChunkPoint, EmbeddingModelMismatch
from tests.vectorstore.conftest import IndexOpener

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


async def _index(open_index: IndexOpener, tmp_path: Path, embedder: MiniLMEmbedder) -> ChunkIndex:
    return await open_index(tmp_path / "q", model_id=embedder.model_id, dimension=embedder.dimension)


async def test_same_document_id_in_two_tenants_keeps_both(
    open_index: IndexOpener, tmp_path: Path, embedder: MiniLMEmbedder
) -> None:
    index = await _index(open_index, tmp_path, embedder)
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


async def test_reindexing_overwrites_instead_of_duplicating(
    open_index: IndexOpener, tmp_path: Path, embedder: MiniLMEmbedder
) -> None:
    index = await _index(open_index, tmp_path, embedder)
    try:
        chunk = _chunk("acme", "Records are kept for seven years.")
        for _ in range(2):
            await index.upsert([chunk], embedder.embed([chunk.text]).tolist())
        assert await index.count(tenant_id="acme", document_id="same-id") == 1
    finally:
        await index.aclose()


async def test_another_embedding_model_is_refused(
    open_index: IndexOpener, tmp_path: Path, embedder: MiniLMEmbedder
) -> None:
    index = await _index(open_index, tmp_path, embedder)
    await index.aclose()
    # The opener closes what it opened when the check fails: the directory is free again after.
    with pytest.raises(EmbeddingModelMismatch, match="Re-index"):
        await open_index(tmp_path / "q", model_id="text-embedding-3-small", dimension=1536)
    await (await _index(open_index, tmp_path, embedder)).aclose()
