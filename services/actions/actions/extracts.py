"""Sentences of chunks as quotable extracts: the unit every offline action quotes, scores and cites."""

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from actions.inquire.passages import sentence_spans
from policypal.embeddings import Embedder
from policypal.vectorstore import ChunkPoint

#: Pieces shorter than this (headings, list labels) say too little to summarise, compare or audit.
MIN_EXTRACT_CHARS = 40


@dataclass(frozen=True)
class Extract:
    """A sentence of a chunk; ``text`` is exactly ``chunk.text[start:start + len(text)]``."""

    chunk: ChunkPoint
    start: int
    text: str

    @property
    def plain(self) -> str:
        """The text on one line (PDF line breaks and runs of spaces collapsed)."""
        return " ".join(self.text.split())

    @property
    def reading_position(self) -> tuple[int, int]:
        """Where it stands in its document: chunk index, then offset in the chunk."""
        return (self.chunk.chunk_index, self.start)


def sentence_extracts(chunks: Sequence[ChunkPoint]) -> list[Extract]:
    """Every sentence of ``chunks`` once, in reading order.

    Chunks overlap, so a sentence at a chunk's edge repeats (whole or as a fragment): the longest
    version is kept and the others dropped.
    """
    extracts = [
        Extract(chunk=chunk, start=begin, text=chunk.text[begin:end])
        for chunk in chunks
        for begin, end in sentence_spans(chunk.text)
        if end - begin >= MIN_EXTRACT_CHARS and not _opens_mid_sentence(chunk.text[begin])
    ]
    kept: list[Extract] = []
    seen: list[str] = []
    for extract in sorted(extracts, key=lambda e: len(e.plain), reverse=True):
        key = extract.plain.casefold()
        if any(key in longer for longer in seen):
            continue
        seen.append(key)
        kept.append(extract)
    return sorted(kept, key=lambda e: (e.chunk.document_id, *e.reading_position))


def _opens_mid_sentence(first: str) -> bool:
    # A chunk that starts inside a sentence (its overlap with the previous one) yields a fragment
    # that reads wrongly alone; its whole sentence lives in the previous chunk.
    return first.islower()


async def embed_texts(embedder: Embedder, texts: Sequence[str]) -> npt.NDArray[np.float32]:
    """L2-normalised vectors of ``texts``, computed in a worker thread so the event loop keeps serving."""
    return await asyncio.to_thread(embedder.embed, list(texts))


async def embed_extracts(embedder: Embedder, extracts: Sequence[Extract]) -> npt.NDArray[np.float32]:
    """One row per extract (its one-line text), L2-normalised."""
    return await embed_texts(embedder, [extract.plain for extract in extracts])
