"""Tying a generated answer to its sources: every ``[N]`` becomes a citation with a verbatim quote.

The model is shown passages numbered [1]..[N]. A marker of a listed passage is kept and cited with
the sentence of that passage closest to the statements it supports (verified verbatim, repaired from
the passage or dropped); a marker that maps to nothing is removed from the answer and counted.
"""

import asyncio
import re
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from actions.inquire.citations import cite, is_verbatim, quote_from
from actions.inquire.passages import sentence_spans
from policypal.contracts import Citation
from policypal.embeddings import Embedder
from policypal.vectorstore import ChunkHit

#: ``[3]`` or ``[1, 2]``, with the space before it (removed together with an unmapped marker).
MARKER = re.compile(r"[ \t]?\[(\d+(?:\s*,\s*\d+)*)\]")
_STATEMENT_END = re.compile(r"(?<=[.!?])\s+|\n+")


@dataclass(frozen=True)
class GroundedAnswer:
    """The answer with only markers that have a citation, the citations, and how many were removed."""

    answer: str
    citations: list[Citation]
    removed_markers: int


async def ground_answer(
    text: str, sources: Sequence[ChunkHit], embedder: Embedder, *, question: str
) -> GroundedAnswer:
    """Cite each ``[N]`` of ``text`` from ``sources[N - 1]``; remove markers that map to nothing."""
    statements = statements_by_marker(text)
    cited = sorted(n for n in statements if 1 <= n <= len(sources))
    citations = await _citations(cited, statements, sources, embedder, question)
    answer, removed = keep_markers(text, set(citations))
    return GroundedAnswer(
        answer=answer, citations=[citations[n] for n in sorted(citations)], removed_markers=removed
    )


def statements_by_marker(text: str) -> dict[int, list[str]]:
    """For each marker number, the statements (sentences without markers) that cite it."""
    statements: dict[int, list[str]] = defaultdict(list)
    previous = ""
    for sentence in _STATEMENT_END.split(text):
        numbers = [int(n) for match in MARKER.finditer(sentence) for n in match.group(1).split(",")]
        statement = MARKER.sub("", sentence).strip()
        # "… seven years. [1]" puts the marker after the full stop: it cites the sentence before it.
        statement = statement if re.search(r"\w", statement) else previous
        for number in numbers:
            statements[number].append(statement)
        previous = statement
    return statements


def keep_markers(text: str, keep: set[int]) -> tuple[str, int]:
    """``text`` with only the marker numbers in ``keep``, and how many numbers were removed."""
    removed = 0

    def rewrite(match: re.Match[str]) -> str:
        nonlocal removed
        numbers = [int(n) for n in match.group(1).split(",")]
        kept = [n for n in numbers if n in keep]
        removed += len(numbers) - len(kept)
        if len(kept) == len(numbers):
            return match.group(0)
        lead = match.group(0)[: match.start(1) - match.start(0) - 1]
        return (lead + "".join(f"[{n}]" for n in kept)) if kept else ""

    return MARKER.sub(rewrite, text), removed


async def _citations(
    cited: list[int],
    statements: dict[int, list[str]],
    sources: Sequence[ChunkHit],
    embedder: Embedder,
    question: str,
) -> dict[int, Citation]:
    if not cited:
        return {}
    claims = [" ".join(s for s in statements[n] if s) or question for n in cited]
    spans = {n: [(b, e) for b, e in sentence_spans(sources[n - 1].text) if e > b] for n in cited}
    candidates = [" ".join(sources[n - 1].text[b:e].split()) for n in cited for b, e in spans[n]]
    vectors = await asyncio.to_thread(embedder.embed, claims + candidates)
    claim_vectors, candidate_vectors = vectors[: len(claims)], vectors[len(claims) :]

    citations: dict[int, Citation] = {}
    offset = 0
    for claim_vector, n in zip(claim_vectors, cited, strict=True):
        hit = sources[n - 1]
        count = len(spans[n])
        if count:
            begin, end = spans[n][int(np.argmax(candidate_vectors[offset : offset + count] @ claim_vector))]
            quote = quote_from(hit.text[begin:end])
        else:
            quote = ""
        offset += count
        if not is_verbatim(quote, hit.text):
            # Repair from the source: the passage's own opening, cut at the quote limit.
            quote = quote_from(hit.text)
        if is_verbatim(quote, hit.text):
            citations[n] = cite(hit, quote, n)
    return citations
