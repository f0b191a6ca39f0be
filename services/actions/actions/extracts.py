"""Sentences of chunks as quotable extracts: the unit every offline action quotes, scores and cites."""

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from actions.sentences import embed_texts, longest_versions, one_line, sentence_spans
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
        return one_line(self.text)

    @property
    def reading_position(self) -> tuple[int, int]:
        """Where it stands in its document: chunk index, then offset in the chunk."""
        return (self.chunk.chunk_index, self.start)


def sentence_extracts(chunks: Sequence[ChunkPoint]) -> list[Extract]:
    """Every sentence of ``chunks`` once (its longest version, see ``longest_versions``), in reading order."""
    extracts = [
        Extract(chunk=chunk, start=begin, text=chunk.text[begin:end])
        for chunk in chunks
        for begin, end in sentence_spans(chunk.text)
        if end - begin >= MIN_EXTRACT_CHARS and not _opens_mid_sentence(chunk.text[begin])
    ]
    return sorted(longest_versions(extracts), key=lambda e: (e.chunk.document_id, *e.reading_position))


def _opens_mid_sentence(first: str) -> bool:
    # A chunk that starts inside a sentence (its overlap with the previous one) yields a fragment
    # that reads wrongly alone; its whole sentence lives in the previous chunk.
    return first.islower()


async def embed_extracts(embedder: Embedder, extracts: Sequence[Extract]) -> npt.NDArray[np.float32]:
    """One row per extract (its one-line text), L2-normalised."""
    return await embed_texts(embedder, [extract.plain for extract in extracts])
