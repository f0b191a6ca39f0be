"""The section a statement stands in: the heading read off its page, checked against the document's
own structure.

Two sources name sections. The chunk's section comes from the document's structure (a PDF's outline,
a DOCX or HTML heading): reliable, but one per chunk, and a chunk of about 1,000 characters may hold
the end of one section and the start of the next. The heading read off the page text
(``statements.segment``) is exact for the statement, but a running header ("9.3. Starting system
services 83") or a numbered line of a listing ("13 Here is a good example…") reads as a heading too.
So a heading read off the page is kept when the structure knows a section of that title, named by
the structure's full path; otherwise the chunk's section stands, and without a structure, the
heading read off the page.
"""

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from policypal.vectorstore import ChunkPoint

#: How a path's levels are joined, in the ingestor's sections and the headings read off the page.
LEVELS: Final = " › "
# "5.1 ", "§ 2.2.3. ", "Chapter 4 ", "A.2 ": the numbering before a heading's title.
_NUMBER: Final = re.compile(
    r"^\W*(?:(?:chapter|section|article|part|appendix|annex)\s+)?(?:§\s*)?(?:\d+(?:\.\d+)*|[A-Z](?:\.\d+)*)\.?\s+",
    re.IGNORECASE,
)
#: A page number after a title: a running header's ("Starting system services 83") or a contents line's.
TRAILING_PAGE_NUMBER: Final = re.compile(r"\s+\d{1,4}$")
_NOT_WORD: Final = re.compile(r"[\W_]+")


@dataclass(frozen=True)
class StructureSections:
    """The sections a document's structure names, by their normalised title (the path's last level)."""

    paths: dict[str, str]

    @classmethod
    def of(cls, chunks: Sequence[ChunkPoint]) -> "StructureSections":
        """The sections named by ``chunks`` (each chunk's path, and every path above it)."""
        paths: dict[str, str] = {}
        for chunk in chunks:
            levels = chunk.section.split(LEVELS) if chunk.section else []
            for depth in range(1, len(levels) + 1):
                paths.setdefault(_title_key(levels[depth - 1]), LEVELS.join(levels[:depth]))
        paths.pop("", None)
        return cls(paths)

    def section_of(self, heading: str | None, chunk: ChunkPoint) -> str | None:
        """The section of a statement under ``heading`` (read off the page) in ``chunk``."""
        if not self.paths:
            return chunk.section or heading
        if heading:
            known = self.paths.get(_title_key(heading.split(LEVELS)[0]))
            if known is not None:
                return known
        return chunk.section or heading


def _title_key(heading: str) -> str:
    """A heading's title, numbering and a trailing page number removed, for comparison."""
    title = TRAILING_PAGE_NUMBER.sub("", _NUMBER.sub("", heading.strip()))
    return _NOT_WORD.sub(" ", title).strip().casefold()
