"""The ``units`` collection: unit vectors kept by tenant and chunk, read back by text within the tenant
only, deleted with their document, alike on both engines."""

from pathlib import Path

import pytest

from policypal.embeddings import MiniLMEmbedder
from policypal.vectorstore import ChunkIndex, UnitVector, unit_key
from tests.vectorstore.conftest import IndexOpener
from tests.vectorstore.test_hybrid_search import TEXTS, _chunk

pytestmark = pytest.mark.integration


def _unit(
    text: str, vector: list[float], *, tenant: str = "acme", doc: str = "d1", chunk: int = 0
) -> UnitVector:
    return UnitVector(
        tenant_id=tenant,
        user_id="alice",
        document_id=doc,
        chunk_index=chunk,
        key=unit_key(text),
        vector=vector,
    )


async def _index(open_index: IndexOpener, path: Path, embedder: MiniLMEmbedder) -> ChunkIndex:
    index = await open_index(path, model_id=embedder.model_id, dimension=embedder.dimension)
    chunks = [_chunk(text, i) for i, text in enumerate(TEXTS)] + [_chunk(TEXTS[0], 0, tenant="globex")]
    await index.upsert(chunks, embedder.embed([c.text for c in chunks]).tolist())
    return index


async def test_unit_vectors_read_back_by_tenant_and_text_only(
    open_index: IndexOpener, tmp_path: Path, embedder: MiniLMEmbedder
) -> None:
    index = await _index(open_index, tmp_path / "q", embedder)
    first, second = embedder.embed(["Records are kept seven years.", "Keys rotate yearly."]).tolist()
    try:
        await index.units.store(
            [
                _unit("Records are kept seven years.", first, chunk=0),
                _unit("Keys rotate yearly.", second, chunk=1),
                _unit("Records are kept seven years.", second, tenant="globex", chunk=0),
            ]
        )
        records, keys = unit_key("Records are kept seven years."), unit_key("Keys rotate yearly.")
        found = await index.units.vectors(tenant_id="acme", keys=[records, unit_key("Never kept.")])
        assert list(found) == [records]
        assert sum(a * b for a, b in zip(found[records], first, strict=True)) == pytest.approx(1, abs=1e-4)
        # Another tenant's vector of the same text is its own.
        theirs = await index.units.vectors(tenant_id="globex", keys=[records, keys])
        assert list(theirs) == [records]
        assert sum(a * b for a, b in zip(theirs[records], second, strict=True)) == pytest.approx(1, abs=1e-4)
        assert await index.units.vectors(tenant_id="acme", keys=[]) == {}
        assert await index.units.document_keys(tenant_id="acme", document_id="d1") == {
            ("d1:0", unit_key("Records are kept seven years.")),
            ("d1:1", unit_key("Keys rotate yearly.")),
        }
        # The same text of the same chunk is kept once, with its latest vector.
        await index.units.store([_unit("Keys rotate yearly.", first, chunk=1)])
        again = await index.units.vectors(tenant_id="acme", keys=[keys])
        assert sum(a * b for a, b in zip(again[keys], first, strict=True)) == pytest.approx(1, abs=1e-4)
    finally:
        await index.aclose()


async def test_unit_vectors_go_with_their_chunks(
    open_index: IndexOpener, tmp_path: Path, embedder: MiniLMEmbedder
) -> None:
    index = await _index(open_index, tmp_path / "q", embedder)
    [vector] = embedder.embed(["Any unit."]).tolist()
    try:
        await index.units.store(
            [_unit(f"Unit {i}.", vector, chunk=i) for i in range(3)]
            + [_unit("Unit 0.", vector, tenant="globex")]
        )
        await index.delete_chunks_from(tenant_id="acme", document_id="d1", first_index=1)
        assert await index.units.document_keys(tenant_id="acme", document_id="d1") == {
            ("d1:0", unit_key("Unit 0."))
        }
        await index.delete_document(tenant_id="acme", document_id="d1")
        assert await index.units.document_keys(tenant_id="acme", document_id="d1") == set()
        assert len(await index.units.document_keys(tenant_id="globex", document_id="d1")) == 1
    finally:
        await index.aclose()
