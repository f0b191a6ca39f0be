"""Which retrieved chunks actually speak to the question: their best sentence is above the floor."""

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from actions.inquire.extractive_answer import RELEVANCE_FLOOR
from actions.sentences import embed_texts, sentence_spans
from policypal.embeddings import Embedder
from policypal.vectorstore import ChunkHit


async def relevant_sources(
    hits: Sequence[ChunkHit],
    embedder: Embedder,
    query_vectors: npt.NDArray[np.float32],
    *,
    floor: float = RELEVANCE_FLOOR,
) -> list[ChunkHit]:
    """The hits whose best sentence scores at least ``floor`` against any query vector, best first.

    Sentence scores use the floor calibrated for the offline answer (MiniLM, sentence level): whole
    chunks score lower and blur the line between "about this" and "about something else".
    """
    sentences = [
        (i, hit.text[b:e]) for i, hit in enumerate(hits) for b, e in sentence_spans(hit.text) if e > b
    ]
    if not sentences:
        return []
    vectors = await embed_texts(embedder, [" ".join(text.split()) for _, text in sentences])
    scores = (vectors @ query_vectors.T).max(axis=1)
    best = [float("-inf")] * len(hits)
    for (i, _), score in zip(sentences, scores, strict=True):
        best[i] = max(best[i], float(score))
    ranked = sorted(range(len(hits)), key=lambda i: best[i], reverse=True)
    return [hits[i] for i in ranked if best[i] >= floor]
