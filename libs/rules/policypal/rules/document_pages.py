"""A document's pages rebuilt from its chunks, with each chunk's place in its page's text.

Chunks overlap (the next one repeats the end of the previous one) and never cross a page, so the
text of a page is its chunks joined with the overlap removed. Knowing where each chunk lies in that
text maps a statement found in the page back to a chunk that holds it verbatim, for its citation.
Running heads and feet (the lines repeated at the top or bottom of many pages, page numbers aside)
are blanked out with spaces: offsets stay, the words do not reach a statement.
"""

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from policypal.vectorstore import ChunkPoint

#: A line opening or closing at least this share of pages (and 3 of them) is a running head or foot;
#: a small share, as a chapter's running head repeats only over that chapter's pages.
RUNNING_SHARE: Final = 0.02
#: Lines at each edge of a page where running heads and feet stand.
EDGE_LINES: Final = 3
#: The most characters two consecutive chunks can share (the chunker's overlap is about 150).
MAX_OVERLAP: Final = 600
#: A shorter common edge is chance (a shared letter), not the chunker's overlap.
MIN_OVERLAP: Final = 8
_DIGITS = re.compile(r"\d+")
_SECTION_SHAPE = re.compile(r"^#(?:\.#)+")
_PAGE_NUMBER = re.compile(r"^(?:page\s+)?(?:\d{1,4}|[ivxlc]{1,6})(?:\s+of\s+\d+)?$", re.IGNORECASE)


@dataclass(frozen=True)
class PlacedChunk:
    """A chunk and the offset of its text in its page's text."""

    chunk: ChunkPoint
    offset: int

    def holds(self, start: int, end: int) -> bool:
        """True when ``[start, end)`` of the page text lies inside this chunk."""
        return self.offset <= start and end <= self.offset + len(self.chunk.text)


@dataclass(frozen=True)
class DocumentPage:
    """The text of one page (or one section of an unpaged document) and its chunks in place."""

    page: int | None
    text: str
    chunks: list[PlacedChunk]

    def chunk_for(self, start: int, end: int) -> tuple[PlacedChunk, int, int] | None:
        """The chunk holding ``[start, end)``, else the one holding most of it, with the span clipped."""
        best: tuple[int, PlacedChunk] | None = None
        for placed in self.chunks:
            if placed.holds(start, end):
                return placed, start, end
            inside = min(end, placed.offset + len(placed.chunk.text)) - max(start, placed.offset)
            if inside > 0 and (best is None or inside > best[0]):
                best = (inside, placed)
        if best is None:
            return None
        placed = best[1]
        return placed, max(start, placed.offset), min(end, placed.offset + len(placed.chunk.text))


def document_pages(chunks: Sequence[ChunkPoint]) -> list[DocumentPage]:
    """The pages of a document from its chunks (in any order), running heads and feet blanked."""
    pages: list[DocumentPage] = []
    ordered = sorted(chunks, key=lambda c: c.chunk_index)
    for chunk in ordered:
        current = pages[-1] if pages else None
        if (
            current is None
            or current.page != chunk.page
            or (chunk.page is None and _new_section(current, chunk))
        ):
            pages.append(DocumentPage(chunk.page, chunk.text, [PlacedChunk(chunk, 0)]))
            continue
        shared = _overlap(current.text, chunk.text)
        joiner = "" if shared else "\n\n"
        offset = len(current.text) + len(joiner) - shared
        text = current.text + joiner + chunk.text[shared:]
        pages[-1] = DocumentPage(current.page, text, [*current.chunks, PlacedChunk(chunk, offset)])
    return _without_running_lines(pages)


def _new_section(page: DocumentPage, chunk: ChunkPoint) -> bool:
    return page.chunks[-1].chunk.section != chunk.section


def _overlap(previous: str, following: str) -> int:
    """How many characters ``following`` repeats of the end of ``previous`` (0 when none)."""
    longest = min(len(previous), len(following), MAX_OVERLAP)
    for size in range(longest, MIN_OVERLAP - 1, -1):
        if previous.endswith(following[:size]):
            return size
    return 0


def _without_running_lines(pages: list[DocumentPage]) -> list[DocumentPage]:
    paged = [p for p in pages if p.page is not None]
    if len(paged) < 3:
        return pages
    counts: Counter[str] = Counter()
    for page in paged:
        counts.update({_shape(line) for line in _edge_lines(page.text) if line.strip()})
    threshold = max(3, int(len(paged) * RUNNING_SHARE))
    # A numbered section heading ("#.#.# requirements") often opens a page: it is no running head.
    running = {shape for shape, n in counts.items() if n >= threshold and not _SECTION_SHAPE.match(shape)}
    return [_blanked(page, running) if page.page is not None else page for page in pages]


def _edge_lines(text: str) -> list[str]:
    lines = [line for line in text.split("\n") if line.strip()]
    return lines[:EDGE_LINES] + lines[-EDGE_LINES:]


def _shape(line: str) -> str:
    return _DIGITS.sub("#", " ".join(line.lower().split()))


def _blanked(page: DocumentPage, running: set[str]) -> DocumentPage:
    edges = set(_edge_lines(page.text))
    lines = page.text.split("\n")
    kept = [
        " " * len(line)
        if line in edges and (_shape(line) in running or _PAGE_NUMBER.match(line.strip()))
        else line
        for line in lines
    ]
    return DocumentPage(page.page, "\n".join(kept), page.chunks)
