"""Preparing a ready document's unit vectors before the questions that will compare them.

An answer compares the units (sentences, list items) of its best candidates with the question, and
embedding them was ~88 % of an offline answer's time (docs/benchmarks.md, "Where the time goes").
Once a document is ready, its units are embedded on the model's idle lane (``idle_embedder``: only
while no question and no ingestion uses the model) and kept in the index's ``units`` collection,
where the ranking reads them (docs/adr/0018-sentence-vectors-prepared-ahead.md).

The units are cut as the ranking cuts them, with the running heads found over the whole document;
a question that sees fewer of the document's pages may cut a page's edge differently, and embeds
that unit itself (then keeps it too).
"""

from actions.inquire.compared_units import comparable_units, compared_text
from actions.inquire.units import running_heads
from actions.sentences import embed_texts
from policypal.contracts.events import DocumentReady
from policypal.embeddings import Embedder
from policypal.vectorstore import ChunkIndex, ChunkPoint, UnitVector, unit_key

#: Texts embedded, then kept, at a time: a restart loses at most one slice, and the idle lane
#: looks again for questions between slices.
SLICE = 64


async def prepare_unit_vectors(event: DocumentReady, *, index: ChunkIndex, embedder: Embedder) -> int:
    """Keep the vectors of the comparable units of the ready document; how many had to be embedded.

    Units kept already (an earlier delivery, or a question that met them) are left as they are; a
    text the tenant has a vector of is copied. Stops when the document is deleted meanwhile, and
    removes what it kept of it, so no vector outlives its chunks.
    """
    chunks = await index.document_chunks(
        tenant_id=event.tenant_id, user_id=event.user_id, document_id=event.document_id
    )
    kept = await index.units.document_keys(tenant_id=event.tenant_id, document_id=event.document_id)
    places = _units_missing(chunks, kept)
    texts, embedded = list(places), 0
    # Slice by slice, so what is held in memory at once stays small whatever the document's size.
    for start in range(0, len(texts), SLICE):
        part = {unit_key(text): text for text in texts[start : start + SLICE]}
        # A sentence the tenant has a vector of (another version of the document, a chunk's
        # overlap) is copied, not embedded again.
        known = await index.units.vectors(tenant_id=event.tenant_id, keys=list(part))
        fresh = [text for key, text in part.items() if key not in known]
        vectors = (await embed_texts(embedder, fresh)).tolist() if fresh else []
        found = [(part[key], vector) for key, vector in known.items()] + list(
            zip(fresh, vectors, strict=True)
        )
        if not await _keep(index, event, places, found):
            return 0
        embedded += len(fresh)
    return embedded


async def _keep(
    index: ChunkIndex,
    event: DocumentReady,
    places: dict[str, dict[str, ChunkPoint]],
    found: list[tuple[str, list[float]]],
) -> bool:
    """Keep each text's vector for every chunk of it; False (and nothing kept) once the document is gone."""
    if not await index.count(tenant_id=event.tenant_id, document_id=event.document_id):
        await index.units.delete_document(tenant_id=event.tenant_id, document_id=event.document_id)
        return False
    await index.units.store(
        [UnitVector.of(chunk, text, vector) for text, vector in found for chunk in places[text].values()]
    )
    return True


def _units_missing(chunks: list[ChunkPoint], kept: set[tuple[str, str]]) -> dict[str, dict[str, ChunkPoint]]:
    """Each comparable unit text of the chunks, as it is embedded, with the chunks (by id) that have it
    and have no vector of it kept yet."""
    heads = running_heads((chunk.page, chunk.text) for chunk in chunks)
    places: dict[str, dict[str, ChunkPoint]] = {}
    for chunk in chunks:
        for unit in comparable_units(chunk.text, running_heads=heads, title=chunk.title):
            text = compared_text(chunk.text, unit)
            if (chunk.chunk_id, unit_key(text)) not in kept:
                places.setdefault(text, {})[chunk.chunk_id] = chunk
    return places
