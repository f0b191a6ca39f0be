"""Finding the chunks that answer a question: hybrid search in scope, then adaptive-k (docs/product.md, Adaptive-k).

Scope: the request's documents (tagged, or a set the resolver expanded); all of the user's documents
when none is given. Every search is filtered by tenant and user.

Adaptive-k: candidates come in fused (dense + BM25) order; a chunk whose similarity to the question
is below the model's stop threshold is not kept; each document gives 3 to 5 chunks (5 when one to
three documents match, 3 when more, so several documents stay balanced) and no more than 15 in all.
"""

import numpy as np
import numpy.typing as npt

from actions.inquire.confidence import Thresholds
from actions.inquire.front_matter import OPENING_CHUNKS, asks_for_document_date
from actions.inquire.lexical import named_titles
from actions.sentences import embed_texts
from policypal.contracts import ActionRequested
from policypal.embeddings import Embedder
from policypal.vectorstore import ChunkHit, ChunkIndex

MAX_CHUNKS = 15
MIN_PER_DOCUMENT, MAX_PER_DOCUMENT = 3, 5


async def embed_query(embedder: Embedder, query: str) -> npt.NDArray[np.float32]:
    """The query's vector; the model runs in a worker thread so the event loop keeps serving acks."""
    vectors = await embed_texts(embedder, [query])
    vector: npt.NDArray[np.float32] = vectors[0]
    return vector


def scope_of(event: ActionRequested) -> list[str] | None:
    """The document ids to search, or None for all of the user's documents."""
    return [doc.document_id for doc in event.documents] or None


async def retrieve(
    event: ActionRequested,
    query: str,
    query_vector: npt.NDArray[np.float32],
    *,
    index: ChunkIndex,
    thresholds: Thresholds,
) -> list[ChunkHit]:
    """The chunks that answer ``query`` within the request's tenant, user and scope, best first."""
    return adaptive_k(await search_candidates(event, query, query_vector, index=index), stop=thresholds.stop)


async def search_candidates(
    event: ActionRequested, query: str, query_vector: npt.NDArray[np.float32], *, index: ChunkIndex
) -> list[ChunkHit]:
    """Every candidate of the hybrid search within the request's tenant, user and scope, fused order.

    When the question names a document of the scope that is not all of it ("under GPLv3", "in the
    FHS"), that document is searched on its own as well and its candidates merged in: across a whole
    library its passages may not be among the first of the whole scope. When it asks for the date of a
    document it names, that document's opening chunks are merged in too (``front_matter``).
    """
    candidates = await _hybrid(index, event, query, query_vector, scope_of(event))
    named = named_titles(query, {hit.title for hit in candidates})
    focus = sorted({hit.document_id for hit in candidates if hit.title.casefold() in named})
    if focus and asks_for_document_date(query, named):
        candidates = merged(candidates, await _openings(index, event, query_vector, focus))
    if not focus or focus == sorted(scope_of(event) or ()):
        return candidates
    return merged(candidates, await _hybrid(index, event, query, query_vector, focus))


async def _openings(
    index: ChunkIndex, event: ActionRequested, query_vector: npt.NDArray[np.float32], document_ids: list[str]
) -> list[ChunkHit]:
    """The opening chunks of each named document, where it states its own date (``front_matter``)."""
    found: list[ChunkHit] = []
    for document_id in document_ids:
        found += await index.document_opening(
            query_vector.tolist(),
            tenant_id=event.tenant_id,
            user_id=None if event.published_scope else event.user_id,
            document_id=document_id,
            chunks=OPENING_CHUNKS,
        )
    return found


async def _hybrid(
    index: ChunkIndex,
    event: ActionRequested,
    query: str,
    query_vector: npt.NDArray[np.float32],
    document_ids: list[str] | None,
) -> list[ChunkHit]:
    return await index.hybrid_search(
        query_vector.tolist(),
        query,
        tenant_id=event.tenant_id,
        # A widget customer reads the tenant's published documents (``documents``), whoever owns them.
        user_id=None if event.published_scope else event.user_id,
        document_ids=document_ids,
    )


def merged(first: list[ChunkHit], second: list[ChunkHit]) -> list[ChunkHit]:
    """Both rankings in one: each chunk at its better place of the two, the first's on ties."""
    places: dict[str, tuple[int, int, ChunkHit]] = {}
    for order, ranking in enumerate((first, second)):
        for position, hit in enumerate(ranking):
            if hit.chunk_id not in places or (position, order) < places[hit.chunk_id][:2]:
                places[hit.chunk_id] = (position, order, hit)
    return [hit for _, _, hit in sorted(places.values(), key=lambda place: place[:2])]


def adaptive_k(
    candidates: list[ChunkHit],
    *,
    stop: float,
    limit: int = MAX_CHUNKS,
    floor: int = 0,
    floor_from: float = 1.0,
) -> list[ChunkHit]:
    """The ``candidates`` (in rank order) at or above ``stop``, 3-5 per document, ``limit`` in all.

    When the best candidate reaches ``floor_from`` but fewer than ``floor`` chunks pass ``stop``, the
    next candidates in rank order fill up to ``floor``: a question that clearly matches one passage
    still gets its neighbours (the fused ranking may put the answering page just under the line).
    Candidates that never reach ``floor_from`` get no floor, so an off-topic question keeps nothing.
    ``retrieve`` leaves it off: measured as an ablation (bench/retrieval_recall.py, docs/benchmarks.md),
    a floor of 3 from the low line changed no recall.
    """
    relevant = [hit for hit in candidates if hit.score >= stop]
    if len(relevant) < floor and candidates and max(hit.score for hit in candidates) >= floor_from:
        chosen = {id(hit) for hit in relevant}
        extra = [hit for hit in candidates if id(hit) not in chosen][: floor - len(relevant)]
        chosen.update(id(hit) for hit in extra)
        relevant = [hit for hit in candidates if id(hit) in chosen]
    documents = len({hit.document_id for hit in relevant})
    per_document = max(MIN_PER_DOCUMENT, min(MAX_PER_DOCUMENT, limit // max(documents, 1)))
    kept: list[ChunkHit] = []
    taken: dict[str, int] = {}
    for hit in relevant:
        if taken.get(hit.document_id, 0) < per_document:
            taken[hit.document_id] = taken.get(hit.document_id, 0) + 1
            kept.append(hit)
        if len(kept) == limit:
            break
    return kept
