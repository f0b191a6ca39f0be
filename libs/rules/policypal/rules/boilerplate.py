"""Boilerplate: the parts of a document that are about the document, not its subject.

Title pages, tables of contents and indexes, revision histories and change logs, and the document's
own copyright and licence notice. Such text is kept searchable, but it must never be what an audit
cites as a rule, and inquire ranks it down: a contents line shares every keyword of a question and
answers none. Judged per page from the page's own text (paged documents), or per chunk from its
section title and its place at the front (documents without pages).
"""

import re
from collections.abc import Sequence
from typing import Final

from policypal.rules.document_pages import DocumentPage, document_pages
from policypal.rules.statement_sections import LEVELS
from policypal.rules.statements import is_contents_line
from policypal.vectorstore import ChunkPoint

#: A contents page: at least this share of its lines are contents lines (dot leaders to a page number).
CONTENTS_SHARE: Final = 0.4
#: A title page has fewer words than this, and is the first page.
TITLE_PAGE_WORDS: Final = 40
#: Front matter (where a document's own notices stand): the first tenth of the pages, at most this many.
FRONT_PAGES: Final = 6

# A notice has a copyright line with its year, and a grant or reservation of rights.
_COPYRIGHT_LINE = re.compile(r"(?:copyright\s*(?:©|\(c\))?|©|\(c\))\s*\d{4}", re.IGNORECASE)
_RIGHTS = re.compile(
    r"all\s+rights\s+reserved|permission\s+is\s+granted|is\s+permitted\s+to\s+copy|licensed\s+under|"
    r"may\s+be\s+(?:copied|reproduced)|verbatim\s+copies",
    re.IGNORECASE,
)
_ABOUT_DOCUMENT = re.compile(
    r"^\W*(?:\d+(?:\.\d+)*\.?\s+)?(?:table\s+of\s+contents|contents|index|"
    r"(?:revision|version|document|change|release)\s+(?:history|log|notes)|change\s?log|changes\s+in\s+"
    r"(?:this|version)|what['’]s\s+new|list\s+of\s+(?:tables|figures)|colophon)\b[^.!?;:]{0,25}$",
    re.IGNORECASE,
)
_WORD = re.compile(r"\w+")
# Release notes: "22.27 Version 3.9.1", "Released July, 2010.", "Revision 1.4 (2019-02-01)".
_RELEASE_HEADING = re.compile(
    r"^(?:\d+(?:\.\d+)*\.?\s+)?(?:version|release|revision)\s+v?\d+(?:\.\d+)+\b.{0,30}$", re.IGNORECASE
)
_RELEASED = re.compile(r"^released\b.{0,40}\b(?:19|20)\d\d\.?$", re.IGNORECASE)


def boilerplate_chunks(chunks: Sequence[ChunkPoint]) -> set[int]:
    """The chunk indexes of ``chunks`` (one document's) that are boilerplate."""
    pages = document_pages(chunks)
    paged = [p for p in pages if p.page is not None]
    flagged: set[int] = set()
    first_page = min((p.page for p in paged if p.page is not None), default=1)
    front = min(FRONT_PAGES, max(2, len(paged) // 10))
    for page in paged:
        assert page.page is not None
        position = page.page - first_page
        if page_is_boilerplate(page, first=position == 0, front=position < front):
            flagged.update(placed.chunk.chunk_index for placed in page.chunks)
    # A passage under a release heading of the document's own structure ("Upgrading checklist ›
    # Version 4.0.0") is release notes, whatever its page shows: a page in the middle of a long
    # version's notes carries no heading at all.
    flagged.update(
        placed.chunk.chunk_index
        for page in pages
        for placed in page.chunks
        if _under_release_heading(placed.chunk.section)
    )
    unpaged = [placed.chunk for p in pages if p.page is None for placed in p.chunks]
    for position, chunk in enumerate(sorted(unpaged, key=lambda c: c.chunk_index)):
        if _about_document(chunk.section or "") or (position < 2 and _is_notice(chunk.text)):
            flagged.add(chunk.chunk_index)
    return flagged


def page_is_boilerplate(page: DocumentPage, *, first: bool, front: bool) -> bool:
    """True for a contents or index page, a revision history, a title page (``first``, nearly no
    words) or the document's own notice among its ``front`` pages."""
    lines = [line.strip() for line in page.text.split("\n") if line.strip()]
    if not lines:
        return False
    contents = sum(1 for line in lines if is_contents_line(line))
    if len(lines) >= 5 and contents >= CONTENTS_SHARE * len(lines):
        return True
    if any(_about_document(line) for line in lines[:3]):
        return True
    releases = sum(1 for line in lines if _RELEASE_HEADING.match(line)) + 2 * sum(
        1 for line in lines if _RELEASED.match(line)
    )
    if releases >= 2:
        return True
    if first and len(_WORD.findall(page.text)) < TITLE_PAGE_WORDS:
        return True
    return front and _is_notice(page.text)


def _under_release_heading(section: str | None) -> bool:
    """Whether a level of the section path below the top one is a release heading ("Version 4.0.0")."""
    levels = section.split(LEVELS)[1:] if section else []
    return any(_RELEASE_HEADING.match(level.strip()) for level in levels)


def _about_document(heading: str) -> bool:
    return bool(_ABOUT_DOCUMENT.match(heading)) and len(heading) <= 80


def _is_notice(text: str) -> bool:
    """The document's own copyright notice: a dated copyright line and a grant or reservation of rights.

    A page that only speaks of copyright ("staff must not remove copyright notices") is no notice.
    """
    return bool(_COPYRIGHT_LINE.search(text) and _RIGHTS.search(text))
