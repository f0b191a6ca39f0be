"""A PDF's outline (bookmarks) as the section path each passage sits under: "Chapter › Section".

The outline is the document's own table of contents, made by the program that wrote the PDF, so
it names chapters more reliably than headings guessed from the text. Each entry starts on the page
its destination resolves to; a page is under the deepest entry starting on or before it. Where an
entry starts mid-page, its title is looked for at the start of a line of the page's text (after an
optional number: "2.1 Scope"), and a passage takes the first entry whose title it contains, else
the one in force where it starts; a title not found there starts where the entry before it on the
page did (or at the page's top).

Reading the outline is bounded (entries, depth, named destinations) and never fails ingestion: a
damaged, cyclic or oversized outline, or one whose entries all point at one page of a longer
document (what generators that lost the destinations write), is treated as no outline.
"""

import bisect
import logging
import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from pypdf import PdfReader, apply_configuration
from pypdf.generic import Destination

logger = logging.getLogger(__name__)

#: Real books have hundreds of entries (Debian's Policy Manual: 339). pypdf reads ~7,000 entries a
#: second here, so this keeps the outline within one turn of fair work (docs/adr/0008).
MAX_ENTRIES: Final = 5_000
MAX_DEPTH: Final = 32
#: Nodes of the name tree that resolves named destinations (LaTeX writes one name per anchor).
MAX_NAME_TREE_NODES: Final = 20_000
MAX_TITLE_CHARS: Final = 200
#: Titles kept in a path: the top one and the deepest ones ("Part › … › Section › Subsection").
MAX_PATH_TITLES: Final = 4
#: Titles looked for in one page's text; further entries on that page start where the last one did.
MAX_TITLES_PER_PAGE: Final = 50
SEPARATOR: Final = " › "

_WORD = re.compile(r"\w+")
_CONTROL = re.compile(r"[\x00-\x1f\x7f\ufeff\ufffe]+")
# What may stand before a title on its heading line: "Chapter", "Appendix", and a number ("3.", "2.1", "A:", "IV").
_KEYWORD = r"(?:(?:chapter|section|part|appendix|annex|article)\s+)"
_NUMBER = r"(?:(?:\d+|(?-i:[A-Z]|[IVXLC]+))(?:\.\d+)*[.:]?[ \t]+)"


@dataclass(frozen=True)
class OutlineEntry:
    """One outline entry: its titles from the top level down to itself, and its 1-based start page."""

    path: tuple[str, ...]
    page: int

    @property
    def section(self) -> str:
        """The path as a section title, its deepest levels kept when it is long."""
        path = self.path
        if len(path) > MAX_PATH_TITLES:
            path = path[:1] + path[-(MAX_PATH_TITLES - 1) :]
        return SEPARATOR.join(path)


def read_outline(reader: PdfReader, page_count: int) -> list[OutlineEntry]:
    """The entries of ``reader``'s outline in reading order; empty when there is none or it is unusable."""
    try:
        with apply_configuration(
            outline_maximum_entries=MAX_ENTRIES,
            outline_maximum_depth=MAX_DEPTH,
            named_destinations_maximum_entries=MAX_NAME_TREE_NODES,
        ):
            entries = _flatten(reader, reader.outline, ())
    except Exception as exc:
        logger.info("PDF outline not used: %s: %s", type(exc).__name__, exc)
        return []
    if len(entries) >= 3 and page_count > 1 and len({entry.page for entry in entries}) == 1:
        logger.info(
            "PDF outline not used: its %d entries all point at page %d", len(entries), entries[0].page
        )
        return []
    return entries


def _flatten(reader: PdfReader, items: Sequence[object], parents: tuple[str, ...]) -> list[OutlineEntry]:
    """Pre-order entries of pypdf's nested outline (a list holds the children of the item before it)."""
    entries: list[OutlineEntry] = []
    path = parents
    for item in items:
        if isinstance(item, list):
            entries.extend(_flatten(reader, item, path))
        elif isinstance(item, Destination):
            title = clean_title(item.title)
            # An untitled entry still groups its children, under the titles above it.
            path = (*parents, title) if title else parents
            page = _page_of(reader, item)
            if title and page is not None:
                entries.append(OutlineEntry(path, page))
    return entries


def clean_title(title: object) -> str:
    """An outline title as plain text: control characters gone, spaces collapsed, length bounded."""
    text = unicodedata.normalize("NFKC", _CONTROL.sub(" ", str(title or "")[: 2 * MAX_TITLE_CHARS]))
    return " ".join(text.split())[:MAX_TITLE_CHARS].strip()


def _page_of(reader: PdfReader, entry: Destination) -> int | None:
    try:
        index = reader.get_destination_page_number(entry)
    except Exception as exc:
        logger.info("outline entry %r has a broken destination: %s", entry.title, exc)
        return None
    return None if index is None else index + 1


class OutlineSections:
    """The section path in force at any place of a PDF, from its outline entries."""

    def __init__(self, entries: Sequence[OutlineEntry]) -> None:
        # Stable: entries of one page keep their outline order (a section before its subsections).
        self._entries = sorted(entries, key=lambda entry: entry.page)
        self._pages = [entry.page for entry in self._entries]

    def __bool__(self) -> bool:
        return bool(self._entries)

    def page(self, number: int, text: str) -> "PageSections":
        """Where sections start on page ``number``, whose (normalised) text is ``text``."""
        first = bisect.bisect_left(self._pages, number)
        last = bisect.bisect_right(self._pages, number)
        carried = self._entries[first - 1].section if first > 0 else None
        offsets: list[int] = []
        sections: list[str] = []
        offset = search_from = 0
        for position, entry in enumerate(self._entries[first:last]):
            found = (
                title_position(entry.path[-1], text, search_from) if position < MAX_TITLES_PER_PAGE else None
            )
            if found is not None:
                # The next title is looked for after this one's line start: a repeated title is not found twice.
                offset, search_from = found, found + 1
            offsets.append(offset)
            sections.append(entry.section)
        return PageSections(carried, offsets, sections)


@dataclass(frozen=True)
class PageSections:
    """The section in force at the top of one page, and the sections starting on it at ``offsets`` (in order)."""

    carried: str | None
    offsets: list[int]
    sections: list[str]

    def for_span(self, start: int, end: int) -> str | None:
        """The section of the text ``[start, end)``: the first heading it holds, else the one in force.

        A passage holding a heading belongs to it. Of several, the first: the passages after this one
        start at or after the later headings and take them, so a section shorter than a passage
        still gets one.
        """
        held = bisect.bisect_left(self.offsets, start)
        if held < len(self.offsets) and self.offsets[held] < end:
            # Entries not found on the page share the offset of the one before: they start after it.
            return self.sections[held]
        return self.sections[held - 1] if held > 0 else self.carried


def title_position(title: str, text: str, start: int) -> int | None:
    """Offset in ``text``, from ``start``, of the line that opens with ``title`` (after a number), if any.

    Words are compared case-insensitively with anything between them (spaces, line breaks,
    apostrophes and dashes differ between the outline and the page text).
    """
    words = _WORD.findall(title)
    if not words:
        return None
    body = r"\W+".join(re.escape(word) for word in words)
    # A line ending in a page number after the title is a running head ("Chapter 6: Legal Matters 3").
    pattern = re.compile(
        rf"^[ \t]*{_KEYWORD}?{_NUMBER}?{body}(?!\w)(?![ \t]+\d+[ \t]*$)", re.IGNORECASE | re.MULTILINE
    )
    match = pattern.search(text, start)
    return None if match is None else match.start()
