"""The quote that carries the fact: the answering unit, and what it needs from the units after it.

A unit that introduces something ("...divided into classes as follows:", "0-99:") is quoted with
what follows it, and so is one whose next unit goes on from it (the fact continues there); a unit that answers a question about a number but holds none is quoted with the
next unit when that one does (the fact continues there). A unit longer than a quote may be is
quoted from the clause where the question's words are. Every quote is an exact slice of its chunk
of at most ``MAX_QUOTE_CHARS``, so ``is_verbatim`` holds.
"""

import re
from collections.abc import Sequence
from dataclasses import dataclass

from actions.citing.citations import quote_from
from actions.inquire.lexical import coverage, has_quantity
from actions.inquire.ranking import ScoredUnit
from policypal.contracts.limits import MAX_QUOTE_CHARS

#: A unit that goes on from the one before: it points back at it ("This", "For example"), or it is
#: the command or example the sentence introduced ("$ sudo ...", a path, a lower-case fragment).
_CONTINUATION = re.compile(
    r"(?:This|These|That|Those|It|They|Such|Thus|So|Otherwise|However|For example|For instance|"
    r"e\.g\.|i\.e\.|In this case|In that case)\b|[$#/]|[a-z]"
)
#: A quote shorter than this (a list item, a label) takes the next unit too, when it fits.
SHORT_QUOTE = 0
#: Where a long unit may be entered: after a clause's comma, semicolon or colon.
_CLAUSE = re.compile(r"[,;:]\s+")


@dataclass(frozen=True)
class Span:
    """``text[start:end]`` of a chunk: what is quoted."""

    start: int
    end: int


def quote_span(
    text: str,
    units: Sequence[ScoredUnit],
    chosen: int,
    *,
    weights: dict[str, float],
    wants_quantity: bool,
) -> Span:
    """The span quoting ``units[chosen]`` of ``text``, extended or narrowed as the module says."""
    unit = units[chosen].unit
    start, end = unit.start, unit.end
    if end - start > MAX_QUOTE_CHARS:
        return _narrowed(text, start, end, weights, wants_quantity)
    following = chosen + 1
    while following < len(units) and _continues(
        text, start, end, units[following].unit.start, wants_quantity
    ):
        after = units[following].unit
        if after.end - start > MAX_QUOTE_CHARS:
            break
        end = after.end
        following += 1
    return Span(start, end)


def _continues(text: str, start: int, end: int, next_start: int, wants_quantity: bool) -> bool:
    """Whether the unit after ``text[start:end]`` belongs in its quote."""
    if text[start:next_start].count("\n") > 12:
        return False
    quoted = text[start:end].rstrip()
    following = text[next_start : next_start + 200]
    if quoted.endswith(":") or _CONTINUATION.match(following) or len(quoted) < SHORT_QUOTE:
        return True
    return wants_quantity and not has_quantity(quoted) and has_quantity(following)


def _narrowed(text: str, start: int, end: int, weights: dict[str, float], wants_quantity: bool) -> Span:
    """A window of at most ``MAX_QUOTE_CHARS`` of a long unit, from the clause that answers best.

    Best: the most of the question's words, then (for a question about a number) holding one, then
    reaching the unit's end (a fact at the end of a sentence is not cut off); the earliest such
    window, for context.
    """
    openings = [start] + [start + m.end() for m in _CLAUSE.finditer(text[start:end])]

    def fit(opening: int) -> tuple[float, bool, bool]:
        window = quote_from(text[opening:end])
        whole = opening + len(window) >= end
        return coverage(weights, window), wants_quantity and has_quantity(window), whole

    best = max(openings, key=fit)
    quote = quote_from(text[best:end])
    return Span(best, best + len(quote))
