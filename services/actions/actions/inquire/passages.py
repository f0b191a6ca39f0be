"""Sentences of retrieved chunks, as candidate passages of an extractive answer."""

import asyncio
import re
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from policypal.embeddings import Embedder
from policypal.vectorstore import ChunkHit

#: Shorter pieces ("Art. 5.", "(a)") are joined to the next sentence: alone they answer nothing.
MIN_PASSAGE_CHARS = 40

# A sentence ends at . ! ? (and closing quotes or brackets) before whitespace, or at a blank line.
_SENTENCE_END = re.compile(r"(?<=[.!?])[\"”’')\]]*\s+|\n\s*\n")


@dataclass(frozen=True)
class Passage:
    """A sentence of a retrieved chunk; ``text`` is exactly ``hit.text[start:start + len(text)]``."""

    hit: ChunkHit
    start: int
    text: str

    @property
    def plain(self) -> str:
        """The text on one line (PDF line breaks and runs of spaces collapsed), for display and scoring."""
        return " ".join(self.text.split())


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
        if len(text[begin:end].strip()) < MIN_PASSAGE_CHARS and not opens_mid_sentence:
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


def candidate_passages(hits: list[ChunkHit]) -> list[Passage]:
    """Every sentence of ``hits`` once: chunks overlap, so a sentence (or a fragment of one) repeats."""
    passages = [
        Passage(hit=hit, start=begin, text=hit.text[begin:end])
        for hit in hits
        for begin, end in sentence_spans(hit.text)
        if end > begin
    ]
    kept: list[Passage] = []
    seen: list[str] = []
    # Longest first, so the fragment at a chunk's overlapping edge is recognised inside its full sentence.
    for passage in sorted(passages, key=lambda p: len(p.plain), reverse=True):
        key = passage.plain.casefold()
        if any(key in longer for longer in seen):
            continue
        seen.append(key)
        kept.append(passage)
    return kept


async def score_passages(
    embedder: Embedder, query_vector: npt.NDArray[np.float32], passages: list[Passage]
) -> list[float]:
    """Cosine similarity of each passage to the query, embedded in one batched call off the event loop."""
    if not passages:
        return []
    vectors = await asyncio.to_thread(embedder.embed, [p.plain for p in passages])
    return [float(score) for score in vectors @ query_vector]
