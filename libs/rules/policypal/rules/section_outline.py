"""The numbered sections that enclose a rule's own: "3.13. /opt : Add-on application software packages"
around "3.13.2. Requirements".

A rule's section is the nearest heading above it, and in a standard organised by subject that heading
is often only "Requirements" or "Purpose": what the rules of that part are about ("/opt", the add-on
packages) is said by the heading it is numbered under. The headings of a document's numbered sections
are read off its text, the contents pages included (their lines carry the full title, dotted leaders
and page numbers removed), the first of each number standing: the contents come before the body, and
a numbered line of a listing further on ("3 Here is a good example") does not displace it.
"""

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from policypal.rules.statement_sections import LEVELS, TRAILING_PAGE_NUMBER
from policypal.vectorstore import ChunkPoint

#: Deepest numbering read ("3.7.4.1"), and the longest title kept.
MAX_DEPTH: Final = 6
MAX_TITLE_CHARS: Final = 120
# "3.13. /opt : Add-on application software packages ........ 20": number, title, leaders, page.
_HEADING: Final = re.compile(
    rf"^[^\S\n]*(?P<number>\d{{1,3}}(?:\.\d{{1,3}}){{0,{MAX_DEPTH - 1}}})\.?[^\S\n]+(?P<title>[A-Z/][^\n]*?)"
    r"(?:[^\S\n]*(?:\.[^\S\n]*){3,}\d*)?[^\S\n]*$",
    re.MULTILINE,
)
_SECTION_NUMBER: Final = re.compile(r"^\W*(\d{1,3}(?:\.\d{1,3})*)\.?\s")


@dataclass(frozen=True)
class SectionOutline:
    """The heading of each numbered section of one document, by its number ("3.13")."""

    headings: dict[str, str]

    @classmethod
    def of(cls, chunks: Sequence[ChunkPoint]) -> "SectionOutline":
        """The outline read off ``chunks`` (one document's, in reading order)."""
        headings: dict[str, str] = {}
        for chunk in chunks:
            for match in _HEADING.finditer(chunk.text):
                title = TRAILING_PAGE_NUMBER.sub("", match.group("title").strip())[:MAX_TITLE_CHARS]
                headings.setdefault(match.group("number"), f"{match.group('number')}. {title}")
        return cls(headings)

    def enclosing(self, section: str | None) -> list[str]:
        """The headings of the numbered sections around ``section`` ("3.13.2. Requirements" → the
        heading of 3, then of 3.13), outermost first, by its deepest numbered level ("4.7.1. Purpose ›
        Rationale" is in 4.7.1); none for an unnumbered section."""
        numbers = [
            m.group(1) for level in (section or "").split(LEVELS) if (m := _SECTION_NUMBER.match(level))
        ]
        if not numbers:
            return []
        parts = numbers[-1].split(".")
        return [
            heading
            for depth in range(1, len(parts))
            if (heading := self.headings.get(".".join(parts[:depth]))) is not None
        ]
