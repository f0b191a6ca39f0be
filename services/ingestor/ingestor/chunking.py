"""Splitting page texts into overlapping chunks that never cross a page.

A chunk ends, by preference, at a paragraph break, then a sentence end, then a line break, then
between words; only a single "word" longer than the chunk is cut mid-word. Each next chunk starts
``overlap`` characters before the previous end, moved forward to the start of a word.
"""

import re
from collections.abc import Iterable
from dataclasses import dataclass
from itertools import groupby

from ingestor.pdf_outline import OutlineSections
from ingestor.pdf_text import PageText
from ingestor.structured_text import Block
from ingestor.tables import table_chunks

_SPACES = re.compile(r"[ \t\r\f\v\u00a0]+")
_BLANK_LINES = re.compile(r"\n\s*\n+")
_HAS_WORD = re.compile(r"\w")
# Break candidates, best first; the index just after the match is where a chunk may end.
_BREAKS = (
    re.compile(r"\n\n"),
    re.compile(r"[.!?;:][\"')\]]*\s"),
    re.compile(r"\n"),
    re.compile(r"\s"),
)


@dataclass(frozen=True)
class TextChunk:
    """A piece of one page; ``index`` counts chunks over the whole document from 0.

    ``page`` is None for formats without pages (HTML, text, e-mail); ``section`` is the title the
    piece sits under, where the format has titles.
    """

    index: int
    page: int | None
    text: str
    section: str | None = None


def normalize_text(text: str) -> str:
    """Collapse runs of spaces, trim lines, keep paragraph breaks as one blank line."""
    lines = (_SPACES.sub(" ", line).strip() for line in text.split("\n"))
    return _BLANK_LINES.sub("\n\n", "\n".join(lines)).strip()


def split_text(text: str, *, size: int, overlap: int) -> list[str]:
    """Split one page's (normalised) text into pieces of at most ``size`` characters.

    Consecutive pieces share about ``overlap`` characters (less when that would cut a word).
    """
    return [text[start:end] for start, end in split_spans(text, size=size, overlap=overlap)]


def split_spans(text: str, *, size: int, overlap: int) -> list[tuple[int, int]]:
    """Where ``split_text`` cuts ``text``: the ``[start, end)`` of each piece, without its edge spaces."""
    if size <= 0 or not 0 <= overlap < size:
        raise ValueError("need size > 0 and 0 <= overlap < size")
    spans: list[tuple[int, int]] = []
    start, length = 0, len(text)
    while start < length:
        if length - start <= size:
            end = length
        else:
            end = _break_point(text, start, start + size, floor=start + size // 2)
        piece = text[start:end]
        stripped = piece.strip()
        if stripped:
            first = start + len(piece) - len(piece.lstrip())
            spans.append((first, first + len(stripped)))
        if end >= length:
            break
        start = _next_start(text, end - overlap, previous_start=start, end=end)
    return spans


def _break_point(text: str, start: int, limit: int, *, floor: int) -> int:
    """The best place to end a chunk within ``(floor, limit]``, else a hard cut at ``limit``."""
    window = text[floor:limit]
    for pattern in _BREAKS:
        last = None
        for last in pattern.finditer(window):  # noqa: B007 - we want the last match
            pass
        if last is not None:
            return floor + last.end()
    return limit


def _next_start(text: str, candidate: int, *, previous_start: int, end: int) -> int:
    """Move ``candidate`` forward to the beginning of a word, staying after ``previous_start``."""
    position = max(candidate, previous_start + 1)
    if position > 0 and not text[position - 1].isspace():
        space = text.find(" ", position, end)
        newline = text.find("\n", position, end)
        found = [i for i in (space, newline) if i != -1]
        # No word boundary in the overlap: start at the end (no overlap) rather than mid-word.
        position = min(found) + 1 if found else end
    while position < end and text[position].isspace():
        position += 1
    return position


def chunk_pages(
    pages: Iterable[PageText], *, size: int, overlap: int, outline: OutlineSections | None = None
) -> list[TextChunk]:
    """Chunks of every page in page order, indexed 0..n-1 over the document; empty pages give none."""
    chunks: list[TextChunk] = []
    for page in pages:
        chunks.extend(page_chunks(page, first_index=len(chunks), size=size, overlap=overlap, outline=outline))
    return chunks


def page_chunks(
    page: PageText, *, first_index: int, size: int, overlap: int, outline: OutlineSections | None = None
) -> list[TextChunk]:
    """Chunks of one page, indexed from ``first_index`` (the chunks of the pages before it).

    With the document's ``outline``, each chunk's section is the outline path in force where it
    ends (``pdf_outline``).
    """
    text = normalize_text(page.text)
    sections = outline.page(page.number, text) if outline else None
    chunks: list[TextChunk] = []
    for start, end in split_spans(text, size=size, overlap=overlap):
        piece = text[start:end]
        # A piece of only punctuation or dot leaders carries nothing worth retrieving.
        if _HAS_WORD.search(piece):
            section = sections.for_span(start, end) if sections else None
            chunks.append(
                TextChunk(index=first_index + len(chunks), page=page.number, text=piece, section=section)
            )
    return chunks


def chunk_blocks(blocks: Iterable[Block], *, size: int, overlap: int) -> list[TextChunk]:
    """Chunks of structured blocks: text split within its section and page, tables by rows.

    Consecutive text blocks of one section and page are joined (paragraphs stay paragraphs) and
    split like a page; a table becomes its own chunks so it is never glued to, or cut by, prose.
    """
    chunks: list[TextChunk] = []

    def add(text: str, block: Block) -> None:
        if _HAS_WORD.search(text):
            chunks.append(TextChunk(index=len(chunks), page=block.page, text=text, section=block.section))

    for (kind, _section, _page), run in groupby(blocks, key=lambda b: (b.kind, b.section, b.page)):
        group = list(run)
        if kind == "table":
            for block in group:
                if block.table is not None:
                    for piece in table_chunks(block.table, size=size):
                        add(piece, block)
            continue
        joined = normalize_text("\n\n".join(block.text for block in group))
        for piece in split_text(joined, size=size, overlap=overlap):
            add(piece, group[0])
    return chunks
