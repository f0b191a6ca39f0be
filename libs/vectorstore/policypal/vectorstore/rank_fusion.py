"""Reciprocal rank fusion of ranked lists, with ties that do not depend on the engine.

Engines order points of equal score as their storage happens to hold them: BM25 scores tie often
(chunks with the same query-term weights), and so, with k = 2, do fused scores (1st + 3rd = 3rd + 1st).
So the fusion is done here, the same for every engine: points of equal score in one list share
its best rank (competition ranking, "1224"), and equal fused scores fall back to a tie-breaker the
caller gives (the dense similarity).
"""

from collections.abc import Callable, Hashable, Sequence
from typing import TypeVar

#: Reciprocal rank fusion constant: Qdrant's default.
RRF_K = 2
#: Scores equal to this many digits are a tie (engines compute in floats of their own).
TIE_DIGITS = 6

_P = TypeVar("_P")


def competition_ranks(scores: Sequence[float]) -> list[int]:
    """1-based ranks of scores sorted best first; equal scores share the best rank of their group."""
    ranks: list[int] = []
    for position, score in enumerate(scores):
        tied = position and round(score, TIE_DIGITS) == round(scores[position - 1], TIE_DIGITS)
        ranks.append(ranks[-1] if tied else position + 1)
    return ranks


def fuse(
    ranked_lists: Sequence[Sequence[tuple[float, _P]]],
    *,
    key: Callable[[_P], Hashable],
    tie_breaker: Callable[[_P], float],
    limit: int,
    k: int = RRF_K,
) -> list[tuple[float, _P]]:
    """The ``limit`` best points of ``ranked_lists`` (each of (score, point), best first) by RRF.

    A point's fused score is the sum over the lists it is in of 1 / (k + rank); among equal fused
    scores the higher ``tie_breaker`` goes first.
    """
    fused: dict[Hashable, float] = {}
    points: dict[Hashable, _P] = {}
    for ranked in ranked_lists:
        for rank, (_, point) in zip(competition_ranks([score for score, _ in ranked]), ranked, strict=True):
            identity = key(point)
            fused[identity] = fused.get(identity, 0.0) + 1.0 / (k + rank)
            points.setdefault(identity, point)
    order = sorted(
        fused,
        key=lambda identity: (round(fused[identity], TIE_DIGITS), tie_breaker(points[identity])),
        reverse=True,
    )
    return [(fused[identity], points[identity]) for identity in order[:limit]]
