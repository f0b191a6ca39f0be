"""A version's text rebuilt in order as provisions: its sentences and list items, each with its section.

The pages come from the chunks with their overlap removed and running heads and feet blanked
(``policypal.rules.document_pages``); statements and the heading each stands under come from
``policypal.rules.statements``, over the pages read as one text, so a sentence cut by a page break is
whole again and two versions whose page breaks fall in different places give the same provisions.
"""

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property

from actions.wording_differences import Word, words
from policypal.rules.document_pages import DocumentPage, document_pages
from policypal.rules.statements import segment
from policypal.vectorstore import ChunkPoint

# "4.1.", "A.2.", "B.", "Article 5", "§ 3": the number of a heading (never a word in capitals).
_SECTION_NUMBER = re.compile(
    r"^(?:(?i:chapter|section|article|part|appendix|annex)\s+)?"
    r"(?P<number>§?\s*(?:\d+(?:\.\d+)*|[A-Z](?:\.\d+)+|[A-Z](?=\.)))[.)]?\s+"
)


@dataclass(frozen=True)
class Piece:
    """Part of a provision on one page: ``page.text[start:end]``."""

    page: DocumentPage
    start: int
    end: int


@dataclass(frozen=True)
class Provision:
    """A sentence or list item of one version, in reading order, under the heading ``section``."""

    position: int
    section: str | None
    pieces: tuple[Piece, ...]

    @cached_property
    def text(self) -> str:
        """The words as written (pieces on different pages joined by a line break)."""
        return "\n".join(piece.page.text[piece.start : piece.end] for piece in self.pieces)

    @cached_property
    def words(self) -> list[Word]:
        """Its words with their comparison keys."""
        return words(self.text)

    @cached_property
    def key(self) -> str:
        """Its words by key on one line: equal keys mean the same provision, worded the same."""
        return " ".join(w.key for w in self.words)

    @property
    def page(self) -> int | None:
        """The page it starts on."""
        return self.pieces[0].page.page

    def located(self, offset: int) -> tuple[Piece, int]:
        """The piece holding character ``offset`` of ``text``, and the offset in its page's text."""
        for piece in self.pieces:
            length = piece.end - piece.start
            if offset <= length:
                return piece, piece.start + offset
            offset -= length + 1
        last = self.pieces[-1]
        return last, last.end


def document_provisions(chunks: Sequence[ChunkPoint]) -> list[Provision]:
    """The provisions of one version from its chunks (any order), in reading order."""
    provisions: list[Provision] = []
    section: str | None = None
    for run in _runs(document_pages(chunks)):
        text = "\n".join(page.text[lo:hi] for page, lo, hi in run)
        segmented = segment(
            text, section=section if run[0][0].page is not None else run[0][0].chunks[0].chunk.section
        )
        section = segmented.section
        for statement in segmented.statements:
            pieces = _pieces(run, statement.start, statement.end)
            if pieces:
                provisions.append(Provision(len(provisions), statement.section, pieces))
    return provisions


def _runs(pages: list[DocumentPage]) -> list[list[tuple[DocumentPage, int, int]]]:
    """Pages read as one text: the paged ones together (their blank edges left out), others alone."""
    runs: list[list[tuple[DocumentPage, int, int]]] = []
    for page in pages:
        if page.page is None or not runs or runs[-1][0][0].page is None:
            runs.append([])
        body = page.text.strip()
        lo = page.text.find(body) if body else 0
        runs[-1].append((page, lo, lo + len(body)))
    return runs


def _pieces(run: list[tuple[DocumentPage, int, int]], start: int, end: int) -> tuple[Piece, ...]:
    """The parts of ``[start, end)`` of a run's text on each of its pages."""
    pieces, offset = [], 0
    for page, lo, hi in run:
        length = hi - lo
        begin, stop = max(start, offset), min(end, offset + length)
        if begin < stop:
            piece_text = page.text[lo + begin - offset : lo + stop - offset]
            inner = piece_text.strip()
            if inner:
                first = lo + begin - offset + piece_text.find(inner)
                pieces.append(Piece(page, first, first + len(inner)))
        offset += length + 1
    return tuple(pieces)


class SectionFinder:
    """The heading in force at any place of a version's chunks, from its provisions."""

    def __init__(self, provisions: Sequence[Provision]) -> None:
        self._starts: dict[str, list[tuple[int, str | None]]] = {}
        for provision in provisions:
            for piece in provision.pieces:
                found = piece.page.chunk_for(piece.start, piece.start + 1)
                if found is not None:
                    placed = found[0]
                    local = piece.start - placed.offset
                    self._starts.setdefault(placed.chunk.chunk_id, []).append((local, provision.section))

    def section_at(self, chunk_id: str, offset: int) -> str | None:
        """The heading of the provision at (or last before) ``offset`` of chunk ``chunk_id``."""
        starts = self._starts.get(chunk_id, [])
        before = [section for start, section in starts if start <= offset]
        if before:
            return before[-1]
        return starts[0][1] if starts else None


def section_number(section: str | None) -> str | None:
    """The number of a numbered heading ("4.1" of "4.1. Powers"), else None."""
    if section is None:
        return None
    match = _SECTION_NUMBER.match(section.split(" › ")[0])
    return match.group("number").replace(" ", "") if match else None


def section_title(section: str | None) -> str:
    """The heading's words without its number, case-folded ("powers" of "4.1. Powers")."""
    if section is None:
        return ""
    head = section.split(" › ")[-1]
    match = _SECTION_NUMBER.match(head)
    return " ".join((head[match.end() :] if match else head).split()).casefold()
