"""Pairing the sentences of two documents that speak about the same thing (their counterparts).

Greedy one-to-one matching on cosine similarity, best pair first: each sentence has at most one
counterpart in the other document. Thresholds are for all-MiniLM-L6-v2, measured on policy prose:
the same rule with one number changed ~0.95-0.98, the same rule reworded ~0.75-0.9, two rules of
one topic ~0.55-0.75, rules of different topics < 0.3.
"""

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

#: At or above: the two sentences are counterparts (the same provision, possibly changed).
COUNTERPART = 0.75
#: Below this against every sentence of the other document: the sentence is unique to its document.
UNRELATED = 0.5


@dataclass(frozen=True)
class AlignedPair:
    """Sentence ``left`` of the first document and its counterpart ``right`` of the second."""

    left: int
    right: int
    similarity: float


def align(
    left: npt.NDArray[np.float32], right: npt.NDArray[np.float32], *, threshold: float = COUNTERPART
) -> list[AlignedPair]:
    """One-to-one counterparts between two sets of L2-normalised sentence vectors, most similar first."""
    if len(left) == 0 or len(right) == 0:
        return []
    similarities = left @ right.T
    candidates = sorted(
        (
            (float(similarities[i, j]), i, j)
            for i, j in zip(*np.nonzero(similarities >= threshold), strict=True)
        ),
        key=lambda c: (-c[0], c[1], c[2]),
    )
    used_left: set[int] = set()
    used_right: set[int] = set()
    pairs = []
    for similarity, i, j in candidates:
        if i in used_left or j in used_right:
            continue
        used_left.add(i)
        used_right.add(j)
        pairs.append(AlignedPair(left=int(i), right=int(j), similarity=similarity))
    return pairs


def unmatched(vectors: npt.NDArray[np.float32], others: npt.NDArray[np.float32]) -> list[int]:
    """Indexes of ``vectors`` with nothing related among ``others`` (all similarities below UNRELATED)."""
    if len(vectors) == 0:
        return []
    if len(others) == 0:
        return list(range(len(vectors)))
    best = (vectors @ others.T).max(axis=1)
    return [int(i) for i in np.nonzero(best < UNRELATED)[0]]
