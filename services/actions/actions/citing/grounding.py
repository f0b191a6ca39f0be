"""Tying a generated answer to its sources: every ``[N]`` becomes a citation with a verbatim quote.

The model is shown passages numbered [1]..[N]: the documents' chunks, then any web results. A marker
of a listed passage is kept and cited with the sentence of that passage closest to the statements it
supports (verified verbatim, repaired from the passage or dropped); a marker that maps to nothing is
removed from the answer and counted.
"""

import re
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from actions.citing.citations import cite, is_verbatim, quote_from
from actions.sentences import embed_texts, sentence_spans
from actions.web_search import WebResult
from policypal.contracts import Citation, WebCitation
from policypal.embeddings import Embedder
from policypal.vectorstore import ChunkPoint

#: ``[3]`` or ``[1, 2]``, with the space before it (removed together with an unmapped marker).
MARKER = re.compile(r"[ \t]?\[(\d+(?:\s*,\s*\d+)*)\]")
_STATEMENT_END = re.compile(r"(?<=[.!?])\s+|\n+")


@dataclass(frozen=True)
class GroundedAnswer:
    """The answer with only markers that have a citation, the citations, and how many were removed."""

    answer: str
    citations: list[Citation]
    removed_markers: int
    web_citations: list[WebCitation] = field(default_factory=list)


async def ground_answer(
    text: str,
    sources: Sequence[ChunkPoint],
    embedder: Embedder,
    *,
    question: str,
    web: Sequence[WebResult] = (),
) -> GroundedAnswer:
    """Cite each ``[N]`` of ``text`` from ``sources[N - 1]``, then from ``web`` after the sources;
    remove markers that map to nothing."""
    statements = statements_by_marker(text)
    texts = [source.text for source in sources] + [result.content for result in web]
    cited = sorted(n for n in statements if 1 <= n <= len(texts))
    quotes = await _quotes(cited, statements, texts, embedder, question)
    answer, removed = keep_markers(text, set(quotes))
    documents = len(sources)
    return GroundedAnswer(
        answer=answer,
        citations=[cite(sources[n - 1], quotes[n], n) for n in sorted(quotes) if n <= documents],
        removed_markers=removed,
        web_citations=[
            WebCitation(
                marker=n, url=web[n - documents - 1].url, title=web[n - documents - 1].title, quote=quotes[n]
            )
            for n in sorted(quotes)
            if n > documents
        ],
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


async def _quotes(
    cited: list[int],
    statements: dict[int, list[str]],
    texts: Sequence[str],
    embedder: Embedder,
    question: str,
) -> dict[int, str]:
    """For each cited marker, a verbatim quote of its passage closest to what the marker supports."""
    if not cited:
        return {}
    claims = [" ".join(s for s in statements[n] if s) or question for n in cited]
    spans = {n: [(b, e) for b, e in sentence_spans(texts[n - 1]) if e > b] for n in cited}
    candidates = [" ".join(texts[n - 1][b:e].split()) for n in cited for b, e in spans[n]]
    vectors = await embed_texts(embedder, claims + candidates)
    claim_vectors, candidate_vectors = vectors[: len(claims)], vectors[len(claims) :]

    quotes: dict[int, str] = {}
    offset = 0
    for claim_vector, n in zip(claim_vectors, cited, strict=True):
        source = texts[n - 1]
        count = len(spans[n])
        if count:
            begin, end = spans[n][int(np.argmax(candidate_vectors[offset : offset + count] @ claim_vector))]
            quote = quote_from(source[begin:end])
        else:
            quote = ""
        offset += count
        if not is_verbatim(quote, source):
            # Repair from the source: the passage's own opening, cut at the quote limit.
            quote = quote_from(source)
        if is_verbatim(quote, source):
            quotes[n] = quote
    return quotes
