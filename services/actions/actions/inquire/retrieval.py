"""Finding the chunks that answer a question: hybrid search in scope, then adaptive-k (seed 000).

Scope: the request's documents (tagged, or a set the resolver expanded); all of the user's documents
when none is given. Every search is filtered by tenant and user.

Adaptive-k: candidates come in fused (dense + BM25) order; a chunk whose similarity to the question
is below the model's stop threshold is not kept; each document gives 3 to 5 chunks (5 when one to
three documents match, 3 when more, so several documents stay balanced) and no more than 15 in all.
"""

import numpy as np
import numpy.typing as npt

from actions.inquire.confidence import Thresholds
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
    candidates = await index.hybrid_search(
        query_vector.tolist(),
        query,
        tenant_id=event.tenant_id,
        user_id=event.user_id,
        document_ids=scope_of(event),
    )
    return adaptive_k(candidates, stop=thresholds.stop)


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
