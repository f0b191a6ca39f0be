"""The top-level parts of a document (its chapters), found from its own structure, for a summary per part.

Evidence, strongest first:
- chapter openings: "Chapter 3", "CHAPTER / THREE / TITLE" (LaTeX and Sphinx books), "Appendix B",
  with the title on the same line or the lines after;
- the section titles the chunks carry (set at ingestion where the format has titles: DOCX, HTML,
  Markdown; a path "Chapter › Section" counts by its first title), their leading number when
  numbered; where chunks carry titles, they alone decide;
- numbered headings ("4.2 Scope", "A.1 …"): a part starts where the leading number moves on to a new one.

Numbers only move forward: a heading numbered behind the current part ("0.0. This symlink …" in a
wrapped sentence) or far ahead of it (a page number before a running title) opens no part, and the
first opening of a number wins (running footers repeat "Chapter 3. Title" on every page of it).
A document with no usable structure is cut into even page ranges, so a summary still spans all of it.
"""

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from policypal.rules import boilerplate_chunks
from policypal.rules.number_words import word_value
from policypal.rules.statements import heading_text, is_contents_line
from policypal.vectorstore import ChunkPoint

#: More parts than this read as a table of contents, not a summary: the smallest neighbours are merged.
MAX_PARTS: Final = 30
#: A new part numbered more than this ahead of the current one is a page number, not a chapter.
MAX_NUMBER_STEP: Final = 3
#: Documents without structure: about one part per this many pages (or chunks when unpaged), 2-8 parts.
PAGES_PER_RANGE: Final = 10
CHUNKS_PER_RANGE: Final = 20
MIN_RANGES, MAX_RANGES = 2, 8
#: Title lines read after a bare chapter marker, at most.
TITLE_LINES: Final = 3

_MARKER: Final = re.compile(
    r"^(?P<kind>chapter|appendix|annex|part)\b\.?\s*(?P<number>[0-9]{1,3}|[IVXLC]{1,6}|[A-Z]\b)?"
    r"\s*[.:—–-]?\s*(?P<title>.*)$",
    re.IGNORECASE,
)
_ROMAN: Final = {"I": 1, "V": 5, "X": 10, "L": 50, "C": 100}
_LEADING_NUMBER: Final = re.compile(r"^(?:(?:chapter|section|article|part|appendix|annex)\s+)?(\d+|[A-Z])\b")
_MULTILEVEL_NUMBER: Final = re.compile(r"^(\d+|[A-Z])\.\d")
_PAGE_NUMBER_AT_END: Final = re.compile(r"\s+\d{1,4}$")
# A chapter title is words: a line with code or a field ("5 Build-Depends: debhelper (>= 9)") is none.
_NOT_A_TITLE: Final = re.compile(r"[:=()/*<>{}\[\]|@$%]|://")
_SMALL_WORDS: Final = frozenset(
    ["a", "an", "and", "as", "at", "by", "for", "from", "in", "of", "on", "or", "the", "to", "with"]
)


@dataclass(frozen=True)
class Part:
    """A top-level part: its title, its number where it has one, and its chunks in reading order."""

    title: str
    number: str | None
    chunks: list[ChunkPoint]
    #: The text before the first part (title page, contents, preface): no part of the document's own.
    lead: bool = False

    @property
    def first_page(self) -> int | None:
        """The page it starts on (None for documents without pages)."""
        return next((c.page for c in self.chunks if c.page is not None), None)

    @property
    def last_page(self) -> int | None:
        """The page it ends on (None for documents without pages)."""
        return next((c.page for c in reversed(self.chunks) if c.page is not None), None)

    @property
    def pages(self) -> str:
        """Its pages as a reader sees them: "p. 4" or "pp. 4–9" (empty when unpaged)."""
        first, last = self.first_page, self.last_page
        if first is None or last is None:
            return ""
        return f"p. {first}" if first == last else f"pp. {first}–{last}"


@dataclass(frozen=True)
class _Opening:
    chunk_index: int
    number: str | None
    title: str | None
    #: A chapter marker (2) outweighs a numbered heading or title (1), which outweighs a lone number (0).
    strength: int = 1


def boilerplate_indexes(chunks: Sequence[ChunkPoint]) -> set[int]:
    """The chunk indexes that are boilerplate: flagged at ingestion, or found now (documents indexed
    before the flag existed)."""
    return boilerplate_chunks(chunks) | {c.chunk_index for c in chunks if c.boilerplate}


def document_parts(chunks: Sequence[ChunkPoint]) -> list[Part]:
    """The top-level parts of one document's ``chunks``, in reading order, covering every chunk."""
    ordered = sorted(chunks, key=lambda c: c.chunk_index)
    if not ordered:
        return []
    openings = _openings(ordered, boilerplate_indexes(ordered))
    parts = _cut(ordered, openings) if len(openings) >= 2 else []
    if len(parts) < 2:
        return _page_ranges(ordered)
    return _merged_to(parts, MAX_PARTS)


def _openings(chunks: list[ChunkPoint], boilerplate: set[int]) -> list[_Opening]:
    """Where parts open, in reading order: at most one opening per number, numbers only moving on.

    Section titles set at ingestion are the document's own structure: where chunks carry them, they
    alone decide; otherwise the text's chapter markers and numbered headings do.
    """
    titled = any(c.section for c in chunks)
    # Where some section titles are numbered, unnumbered ones ("Rationale", "Example") are subheadings.
    numbered_titles = any(c.section and _LEADING_NUMBER.match(_top(c.section)) for c in chunks)
    found: list[_Opening] = []
    seen: dict[str, _Opening] = {}
    current: str | None = None
    for chunk in chunks:
        if titled:
            openings = _title_openings(chunk, current, numbered=numbered_titles)
        else:
            # A contents page lists every numbered heading: there, only chapter markers open parts.
            openings = _text_openings(chunk, current, numbered_headings=chunk.chunk_index not in boilerplate)
        for opening in openings:
            if opening.number is not None:
                earlier = seen.get(opening.number)
                if earlier is not None:
                    # "6 Games …" in a list took chapter 6's number: the marker "Chapter 6" takes it back.
                    if opening.strength <= earlier.strength or earlier.strength > 0:
                        continue
                    found.remove(earlier)
                seen[opening.number] = opening
                current = opening.number
            elif found and found[-1].title == opening.title:
                continue
            found.append(opening)
    return found


def _top(section: str) -> str:
    """The top-level title of a section path ("Archive areas › main" → "Archive areas")."""
    return section.split(" › ")[0].strip()


def _title_openings(chunk: ChunkPoint, current: str | None, *, numbered: bool) -> list[_Opening]:
    """The opening a chunk's section title makes, if any."""
    if not chunk.section:
        return []
    section = _top(chunk.section)
    if not numbered:
        return [_Opening(chunk.chunk_index, None, section)]
    opened = _number_of(section, current, multilevel_only=False)
    if opened is None:
        return []
    # "2.1 Scope" opens part 2 but is not its title.
    return [_Opening(chunk.chunk_index, opened, None if _MULTILEVEL_NUMBER.match(section) else section)]


def _text_openings(chunk: ChunkPoint, current: str | None, *, numbered_headings: bool) -> list[_Opening]:
    """The openings in a chunk's text: chapter markers, and numbered headings where ``numbered_headings``."""
    openings: list[_Opening] = []
    lines = [line.strip() for line in chunk.text.split("\n")]
    headings = [heading_text(line) if line and numbered_headings else None for line in lines]
    # Two chapters do not open within one chunk: lone numbers there ("6 Games …", "7 Macro
    # packages …") are a numbered list.
    listed = sum(1 for h in headings if h is not None and not _MULTILEVEL_NUMBER.match(h)) > 1
    for position, line in enumerate(lines):
        marker = _MARKER.match(line)
        if marker and _opens_chapter(line, marker):
            number, title = _marker_number_and_title(marker, lines[position + 1 :])
            if number is not None and (number == current or _moves_on(number, current)):
                openings.append(_Opening(chunk.chunk_index, number, title, strength=2))
                current = number
            continue
        heading = headings[position]
        if heading is None or (listed and not _MULTILEVEL_NUMBER.match(heading)):
            continue
        number = _number_of(heading, current, multilevel_only=True)
        if number is not None:
            multilevel = bool(_MULTILEVEL_NUMBER.match(heading))
            openings.append(
                _Opening(chunk.chunk_index, number, None if multilevel else heading, int(multilevel))
            )
            current = number
    return openings


def _opens_chapter(line: str, marker: re.Match[str]) -> bool:
    """A chapter marker line, not a sentence, a contents line ("Appendix A Licence . . 76") or a running
    head ("Chapter 3: General Program Design 7", whose chapter need not be the page's own)."""
    return (
        len(line) <= 100
        and not line.endswith((".", ",", ";"))
        and not is_contents_line(line)
        and ". ." not in line
        and not (marker.group("title").strip() and _PAGE_NUMBER_AT_END.search(marker.group("title")))
    )


def _marker_number_and_title(marker: re.Match[str], following: list[str]) -> tuple[str | None, str | None]:
    """The number and title of a chapter marker; a bare "CHAPTER" takes both from the lines after it."""
    number = marker.group("number")
    title = marker.group("title").strip() or None
    rest = [line for line in following if line][: TITLE_LINES + 1]
    if number is None and rest:
        number = _number_word(rest[0])
        rest = rest[1:] if number is not None else rest
    elif number is not None and len(number) > 1 and set(number.upper()) <= _ROMAN.keys():
        # "Part IV"; a single letter stays a letter ("Appendix C").
        number = str(_roman(number.upper()))
    if title is None:
        words: list[str] = []
        for line in rest[:TITLE_LINES]:
            if heading_text(line) is not None or (not line.isupper() and words):
                break
            words.append(line)
            if not line.isupper():
                break
        title = " ".join(words) or None
    return (number.upper() if number is not None and number.isalpha() else number), title


def _number_word(line: str) -> str | None:
    """ "THREE" → "3", "TWENTYONE" / "Twenty-One" → "21"; a digit line stands for itself."""
    word = re.sub(r"\s", "", line)
    if word.isdigit() and len(word) <= 3:
        return word
    value = word_value(word)
    return None if value is None else str(value)


def _roman(numeral: str) -> int:
    total = 0
    for symbol, following in zip(numeral, [*numeral[1:], ""], strict=True):
        value = _ROMAN[symbol]
        total += -value if following and _ROMAN[following] > value else value
    return total


def _number_of(heading: str, current: str | None, *, multilevel_only: bool) -> str | None:
    """The part number a heading opens, or None when it stays in the current part (or is noise)."""
    multilevel = _MULTILEVEL_NUMBER.match(heading)
    if multilevel is not None:
        number = multilevel.group(1)
    else:
        single = _LEADING_NUMBER.match(heading)
        if single is None:
            return None
        number = single.group(1)
        # "3 Scope" opens part 3 only right after part 2 (a lone number is too often a page number or
        # a listing's line number), and only when the rest reads as a title.
        if multilevel_only and (not _next_after(number, current) or _NOT_A_TITLE.search(heading)):
            return None
    return number if _moves_on(number, current) else None


def _next_after(number: str, current: str | None) -> bool:
    """A lone number opens a part only as the next one (or among the first when none is open yet)."""
    if not number.isdigit():
        return False
    if current is None:
        return 0 < int(number) <= MAX_NUMBER_STEP
    return current.isdigit() and int(number) == int(current) + 1


def _moves_on(number: str, current: str | None) -> bool:
    """True when ``number`` is a part after ``current``: further on, and not by a leap."""
    if current is None:
        return not number.isdigit() or 0 < int(number) <= MAX_NUMBER_STEP
    if number.isdigit() and current.isdigit():
        return 0 < int(number) - int(current) <= MAX_NUMBER_STEP
    if number.isalpha() and current.isalpha():
        return 0 < ord(number) - ord(current) <= MAX_NUMBER_STEP
    # Appendices (letters) follow chapters (numbers), never the other way round.
    return number.isalpha()


def _cut(chunks: list[ChunkPoint], openings: list[_Opening]) -> list[Part]:
    """Chunks grouped between openings; what precedes the first opening stays a part of its own."""
    starts: dict[int, _Opening] = {}
    for opening in openings:
        earlier = starts.get(opening.chunk_index)
        # Two openings in one chunk (a chapter marker, then its first numbered heading): the first names it.
        if earlier is None:
            starts[opening.chunk_index] = opening
        elif earlier.title is None and opening.number == earlier.number:
            starts[opening.chunk_index] = _Opening(opening.chunk_index, earlier.number, opening.title)
    parts: list[Part] = []
    for chunk in chunks:
        start = starts.get(chunk.chunk_index)
        if start is not None or not parts:
            number = start.number if start else None
            parts.append(Part(_title(start, number), number, [chunk], lead=start is None))
        else:
            parts[-1].chunks.append(chunk)
    return parts


def _title(opening: _Opening | None, number: str | None) -> str:
    if opening is None:
        return "Front matter"
    title = _readable(opening.title) if opening.title else None
    if title and number and not title.startswith(number):
        return f"{number}. {title}"
    return title or f"Part {number}"


def _readable(title: str) -> str:
    """An all-capitals title in title case ("THE DEBIAN ARCHIVE" → "The Debian Archive")."""
    title = " ".join(title.split())
    if not title.isupper():
        return title
    words = title.lower().split()
    return " ".join(
        word if position and word in _SMALL_WORDS else word[:1].upper() + word[1:]
        for position, word in enumerate(words)
    )


def _merged_to(parts: list[Part], limit: int) -> list[Part]:
    """``parts`` with the smallest neighbours merged until at most ``limit`` remain."""
    parts = list(parts)
    while len(parts) > limit:
        smallest = min(range(len(parts)), key=lambda i: len(parts[i].chunks))
        into = smallest - 1 if smallest > 0 else 1
        first, second = sorted((smallest, into))
        kept = parts[first]
        merged = Part(kept.title, kept.number, kept.chunks + parts[second].chunks, lead=kept.lead)
        parts[first : second + 1] = [merged]
    return parts


def _page_ranges(chunks: list[ChunkPoint]) -> list[Part]:
    """Even ranges of a document without structure, named by their pages (or passages when unpaged)."""
    pages = sorted({c.page for c in chunks if c.page is not None})
    unit = len(pages) / PAGES_PER_RANGE if pages else len(chunks) / CHUNKS_PER_RANGE
    count = max(1, min(MAX_RANGES, len(chunks), max(MIN_RANGES, math.ceil(unit))))
    if len(chunks) < 2 * MIN_RANGES:
        count = 1
    width = len(chunks) / count
    ranges = [chunks[round(i * width) : round((i + 1) * width)] for i in range(count)]
    return [Part(_range_label(members), None, members) for members in ranges]


def _range_label(members: list[ChunkPoint]) -> str:
    pages = Part("", None, members)
    first, last = pages.first_page, pages.last_page
    if first is None or last is None:
        return f"Passages {members[0].chunk_index + 1}–{members[-1].chunk_index + 1}"
    return f"Page {first}" if first == last else f"Pages {first}–{last}"
