"""Sentences of chunk text: the unit every action quotes, scores and cites.

Each sentence is an exact slice of its chunk, so a quote can be checked against the source. Chunks
overlap, so the same sentence (whole, or as a fragment at a chunk's edge) comes from two chunks:
``longest_versions`` keeps it once.
"""

import asyncio
import re
from collections.abc import Iterable, Sequence
from typing import Protocol, TypeVar

import numpy as np
import numpy.typing as npt

from policypal.embeddings import Embedder
from policypal.telemetry import service_span

#: Shorter pieces ("Art. 5.", "(a)") are joined to the next sentence: alone they say nothing.
MIN_SENTENCE_CHARS = 40

# A sentence ends at . ! ? (and closing quotes or brackets) before whitespace, or at a blank line.
_SENTENCE_END = re.compile(r"(?<=[.!?])[\"”’')\]]*\s+|\n\s*\n")


def sentence_spans(text: str) -> list[tuple[int, int]]:
    """(start, end) of each sentence of ``text``, whitespace trimmed, short pieces merged forward."""
    spans: list[tuple[int, int]] = []
    start = 0
    for match in _SENTENCE_END.finditer(text):
        spans.append((start, match.start() + len(match.group().rstrip())))
        start = match.end()
    spans.append((start, len(text)))

    merged: list[tuple[int, int]] = []
    pending: int | None = None
    for position, (begin, end) in enumerate(spans):
        begin = pending if pending is not None else begin
        # A chunk that opens mid-sentence (the overlap with the previous chunk) keeps that fragment
        # apart, so it can be recognised inside the full sentence of the previous chunk.
        opens_mid_sentence = position == 0 and text[begin:end].lstrip()[:1].islower()
        if len(text[begin:end].strip()) < MIN_SENTENCE_CHARS and not opens_mid_sentence:
            pending = begin
            continue
        merged.append((begin, end))
        pending = None
    if pending is not None and text[pending:].strip():
        if merged:
            merged[-1] = (merged[-1][0], len(text))
        else:
            merged.append((pending, len(text)))
    return [_trimmed(text, begin, end) for begin, end in merged]


def _trimmed(text: str, begin: int, end: int) -> tuple[int, int]:
    piece = text[begin:end]
    lead = len(piece) - len(piece.lstrip())
    trail = len(piece) - len(piece.rstrip())
    return begin + lead, end - trail


def one_line(text: str) -> str:
    """``text`` on one line (PDF line breaks and runs of spaces collapsed), for display and scoring."""
    return " ".join(text.split())


class _Sentence(Protocol):
    @property
    def plain(self) -> str: ...


SentenceT = TypeVar("SentenceT", bound=_Sentence)


def longest_versions(sentences: Iterable[SentenceT]) -> list[SentenceT]:
    """Each sentence once, longest first: one whose text lies inside a longer one's is dropped.

    Texts are compared on one line and case-folded. Longest first, so the fragment at a chunk's
    overlapping edge is recognised inside its full sentence from the neighbouring chunk.
    """
    kept: list[SentenceT] = []
    seen: list[str] = []
    for sentence in sorted(sentences, key=lambda s: len(s.plain), reverse=True):
        key = sentence.plain.casefold()
        if any(key in longer for longer in seen):
            continue
        seen.append(key)
        kept.append(sentence)
    return kept


async def embed_texts(embedder: Embedder, texts: Sequence[str]) -> npt.NDArray[np.float32]:
    """L2-normalised vectors of ``texts``, computed in a worker thread so the event loop keeps serving.

    Every embedding of an action goes through here, so each is one ``embed`` span of the request.
    """
    with service_span(
        "embed", {"policypal.embedding.model": embedder.model_id, "policypal.texts": len(texts)}
    ):
        return await asyncio.to_thread(embedder.embed, list(texts))
