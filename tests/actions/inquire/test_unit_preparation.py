"""A ready document's unit vectors are prepared ahead, so a question over it embeds none of its units;
a unit a question had to embed is kept for the next one. Real MiniLM, local Qdrant."""

import numpy as np
import pytest

from actions.inquire.compared_units import comparable_units, compared_text
from actions.inquire.ranking import rank
from actions.inquire.unit_preparation import prepare_unit_vectors
from actions.inquire.unit_vectors import UnitVectors
from actions.inquire.units import running_heads
from policypal.contracts import DocumentReady
from policypal.embeddings import MiniLMEmbedder
from policypal.vectorstore import ChunkHit, ChunkIndex, ChunkPlace
from tests.actions.inquire.retention_corpus import PAGE_2_B, USER, index_chunks
from tests.support.counting_embedder import CountingEmbedder
from tests.support.document_uploads import document_ready

pytestmark = pytest.mark.integration

QUESTION = "How long must customer records be kept?"


def ready(tenant: str, document_id: str = "ret") -> DocumentReady:
    """The ``document.ready`` event of the retention corpus (or another document id) of ``tenant``."""
    return document_ready(tenant, USER, document_id, pages=2, chunks=3)


async def _found(index: ChunkIndex, embedder: MiniLMEmbedder, tenant: str) -> list[ChunkHit]:
    return await index.hybrid_search(
        embedder.embed([QUESTION])[0].tolist(), QUESTION, tenant_id=tenant, user_id=USER, document_ids=["ret"]
    )


def _wanted(hits: list[ChunkHit]) -> list[tuple[ChunkPlace, str]]:
    heads = running_heads((hit.page, hit.text) for hit in hits)
    return [
        (hit, compared_text(hit.text, unit))
        for hit in hits
        for unit in comparable_units(hit.text, running_heads=heads, title=hit.title)
    ]


async def test_a_prepared_document_is_ranked_without_embedding_its_units(
    index: ChunkIndex, embedder: MiniLMEmbedder, tenant: str
) -> None:
    await index_chunks(index, embedder, tenant)
    prepared = await prepare_unit_vectors(ready(tenant), index=index, embedder=embedder)
    assert prepared >= 5
    # Prepared once: another delivery of the same event embeds nothing.
    again = CountingEmbedder(embedder)
    assert await prepare_unit_vectors(ready(tenant), index=index, embedder=again) == 0
    assert again.texts == []

    hits = await _found(index, embedder, tenant)
    wanted = _wanted(hits)
    counting = CountingEmbedder(embedder)
    vectors = await UnitVectors().embed(counting, wanted, stored=index.units)
    assert counting.texts == []
    assert np.allclose(vectors, embedder.embed([text for _, text in wanted]), atol=1e-4)
    # The other tenant's chunk of the same shape has none of them.
    assert await index.units.document_keys(tenant_id=f"{tenant}x", document_id="leak") == set()

    query_vector = embedder.embed([QUESTION])[0]
    with_stored = await rank(QUESTION, query_vector, hits, embedder, stored=index.units)
    assert with_stored.chunks[0].best is not None
    answer = with_stored.chunks[0]
    assert answer.hit.chunk_index == 1
    assert "seven years" in answer.hit.text[answer.best.unit.start : answer.best.unit.end]


async def test_a_new_version_copies_the_vectors_of_the_sentences_it_shares(
    index: ChunkIndex, embedder: MiniLMEmbedder, tenant: str
) -> None:
    chunks = await index_chunks(index, embedder, tenant)
    await prepare_unit_vectors(ready(tenant), index=index, embedder=embedder)
    # Version 4: the same pages, and one new sentence on the last.
    changed = PAGE_2_B + " Scans are checked by a second person."
    version = [
        chunk.model_copy(
            update={"document_id": "ret4", "text": changed if chunk.text == PAGE_2_B else chunk.text}
        )
        for chunk in chunks
        if chunk.document_id == "ret"
    ]
    await index.upsert(version, embedder.embed([c.text for c in version]).tolist())
    counting = CountingEmbedder(embedder)
    assert await prepare_unit_vectors(ready(tenant, "ret4"), index=index, embedder=counting) == 1
    assert [text.split(": ")[-1] for text in counting.texts] == ["Scans are checked by a second person."]
    kept = await index.units.document_keys(tenant_id=tenant, document_id="ret4")
    assert {chunk_id for chunk_id, _ in kept} == {"ret4:0", "ret4:1", "ret4:2"}
    # Deleting the first version leaves the second's vectors whole.
    before = len(kept)
    await index.delete_document(tenant_id=tenant, document_id="ret")
    assert len(await index.units.document_keys(tenant_id=tenant, document_id="ret4")) == before


async def test_units_a_question_embedded_are_kept_for_the_next_question(
    index: ChunkIndex, embedder: MiniLMEmbedder, tenant: str
) -> None:
    await index_chunks(index, embedder, tenant)
    wanted = _wanted(await _found(index, embedder, tenant))
    first = CountingEmbedder(embedder)
    await UnitVectors().embed(first, wanted, stored=index.units)
    assert sorted(first.texts) == sorted({text for _, text in wanted})

    # Another replica (an empty memory) reads them back instead.
    second = CountingEmbedder(embedder)
    await UnitVectors().embed(second, wanted, stored=index.units)
    assert second.texts == []
    # Nothing that was not prepared is found in the stored vectors of another tenant.
    elsewhere = [(place.model_copy(update={"tenant_id": f"{tenant}y"}), text) for place, text in wanted]
    third = CountingEmbedder(embedder)
    await UnitVectors().embed(third, elsewhere, stored=index.units)
    assert sorted(third.texts) == sorted({text for _, text in wanted})


async def test_a_document_deleted_while_being_prepared_keeps_no_vectors(
    index: ChunkIndex, embedder: MiniLMEmbedder, tenant: str
) -> None:
    await index_chunks(index, embedder, tenant)

    def delete_first() -> None:
        # The deletion lands while the first slice is being embedded.
        pending.append(True)

    pending: list[bool] = []
    deleting = CountingEmbedder(embedder, before=delete_first)
    original_count = index.count

    async def count_after_deletion(*, tenant_id: str, document_id: str) -> int:
        if pending:
            await index.delete_document(tenant_id=tenant_id, document_id=document_id)
        return await original_count(tenant_id=tenant_id, document_id=document_id)

    index.count = count_after_deletion  # type: ignore[method-assign]
    assert await prepare_unit_vectors(ready(tenant), index=index, embedder=deleting) == 0
    assert await index.units.document_keys(tenant_id=tenant, document_id="ret") == set()
    # A document that is gone by the time its event is read is prepared as nothing at all.
    assert await prepare_unit_vectors(ready(tenant, "gone"), index=index, embedder=embedder) == 0
