"""Chunks of one document cut by the ingestor's own chunker (1000/150, as ingestion does), for the
summary's unit tests (no index needed)."""

from collections.abc import Sequence

from policypal.vectorstore import ChunkPoint
from tests.rules.chunked_pages import chunks_of

SIZE, OVERLAP = 1000, 150


def paged(pages: Sequence[Sequence[str]]) -> list[ChunkPoint]:
    """The chunks of pages numbered from 1, each page the paragraphs given."""
    return chunks_of(
        [(number, "\n".join(texts)) for number, texts in enumerate(pages, 1)], size=SIZE, overlap=OVERLAP
    )


def titled(texts: Sequence[str], titles: Sequence[str | None]) -> list[ChunkPoint]:
    """The chunks of an unpaged document, one per (short) text, under its section title (None: before
    the first)."""
    chunks = chunks_of([(None, text) for text in texts], size=SIZE, overlap=OVERLAP)
    return [c.model_copy(update={"section": t}) for c, t in zip(chunks, titles, strict=True)]
