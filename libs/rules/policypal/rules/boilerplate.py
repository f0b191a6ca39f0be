"""Boilerplate: the parts of a document that are about the document, not its subject.

Title pages, tables of contents and indexes, revision histories and change logs, and the document's
own copyright and licence notice, or its licence appended in full (a manual's "Appendix A GNU Free
Documentation License", a "License" chapter at its end). Such text is kept searchable, but it must
never be what an audit cites as a rule, and inquire ranks it down: a contents line shares every
keyword of a question and answers none. Judged per page from the page's own text (paged documents), or per chunk from its
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
# A heading naming a licence, a copying permission or a copyright statement.
_LICENCE_HEADING = re.compile(
    r"^\W*(?:(?:appendix\s+)?(?:[a-z]|\d+)(?:\.\d+)*\.?\s+)?(?:the\s+)?(?:gnu\s+)?"
    r"(?:(?:free\s+documentation|(?:lesser\s+|affero\s+)?general\s+public)\s+licen[cs]e|licen[cs]es?|"
    r"licensing|copying|copyright(?:\s+and\s+licen[cs]e)?|legal\s+notices?)\b[^.!?;:]{0,40}$",
    re.IGNORECASE,
)
#: A document's own licence is appended at its end: a licence part starting this far into its pages.
BACK_MATTER: Final = 0.75
#: Fewer pages is a licence or notice on its own, not a manual with its licence appended.
MIN_PAGES_FOR_BACK_MATTER: Final = 10
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
    # The document's licence appended at its end: every page wholly inside that part (the page it
    # starts on also ends the part before it; its rules are told apart by ``appended_licences``).
    licences = appended_licences(chunks)
    last_section = {page.page: page.chunks[-1].chunk.section for page in paged if page.chunks}
    for page in paged:
        inside = page.chunks and all(_top_level(placed.chunk.section) in licences for placed in page.chunks)
        if inside and _top_level(last_section.get((page.page or 0) - 1)) in licences:
            flagged.update(placed.chunk.chunk_index for placed in page.chunks)
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


def appended_licences(chunks: Sequence[ChunkPoint]) -> frozenset[str]:
    """The top-level headings of the parts of a document that are its own licence appended at its end
    ("A GNU Free Documentation License" of a 90-page manual): a licence heading whose part starts in
    the last quarter of the pages of a document of 10 pages or more, unless the document's title
    names a licence itself (the GPL's own sections are its rules)."""
    pages = [c.page for c in chunks if c.page is not None]
    if not pages or not chunks or _LICENCE_HEADING.match(chunks[0].title or ""):
        return frozenset()
    first, last = min(pages), max(pages)
    if last - first + 1 < MIN_PAGES_FOR_BACK_MATTER:
        return frozenset()
    starts: dict[str, int] = {}
    for chunk in chunks:
        top = _top_level(chunk.section)
        if top and chunk.page is not None and _LICENCE_HEADING.match(top):
            starts[top] = min(starts.get(top, chunk.page), chunk.page)
    back = first + BACK_MATTER * (last - first)
    return frozenset(top for top, page in starts.items() if page >= back)


def in_appended_licence(section: str | None, licences: frozenset[str]) -> bool:
    """Whether ``section`` lies in one of the document's appended ``licences``."""
    return _top_level(section) in licences


def _top_level(section: str | None) -> str:
    return section.split(LEVELS)[0].strip() if section else ""


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
