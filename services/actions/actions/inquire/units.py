"""A chunk's text as the units an answer quotes: sentences and list items, without page furniture.

PDF text keeps the page's lines: a sentence wraps over several, a list puts one item per line
(often with no full stop: "• Other NMUs: 10 days"), a heading sits on its own line above its text,
and every page repeats a running head or foot ("Debian Policy Manual, Release 4.6.2.0",
"82 Chapter 9. The Operating System"). Footnote marks are glued to the text they follow or lead
("critical12", "6The format"). Units are cut so that a quote carries one statement with its fact
and none of that furniture; each unit is an exact slice of the chunk, so a quote of it stays
verbatim (docs/benchmarks.md, "Inquire answer quality").
"""

import re
from collections.abc import Iterable
from dataclasses import dataclass

#: A list item's opening: a bullet, "1." / "1)" / "(a)" / "a)", or a label line ending in a colon.
_ITEM = re.compile(r"^(?:[•▪◦‣●○·*\-–—]\s|\(?[0-9]{1,2}[.)]\s|\(?[a-z][.)]\s|\([ivx]+\)\s)")
#: A numbered heading: "9.2.2 UID and GID classes", "5 Making The Best Use of C", "6.2. Composition".
_HEADING = re.compile(r"^(?:[A-Z]\.|\d+\.)?(?:\d+\.)*\d+\.?\s+[A-Z][^.!?]{0,80}$")
_CHAPTER = re.compile(r"^(?:\d+\s+)?(?:Chapter|Section|Part|Appendix)\s+\w+[.:]?(?:\s.*)?$")
#: A page number alone, or "11 / 57" at a line's end.
_PAGE_NUMBER = re.compile(r"\d{1,4}|.{0,70}\D\d{1,4}\s*/\s*\d{1,4}")
#: Where a sentence ends inside a line: . ! ? (closing quotes or brackets) then space and a capital.
_SENTENCE_END = re.compile(
    r"(?<=[.!?])[\"”’')\]]*(?:\d{1,2}[⁰¹²³⁴⁵⁶⁷⁸⁹]*)?\s+(?:(?:\d{1,2}[⁰¹²³⁴⁵⁶⁷⁸⁹]*|[⁰¹²³⁴⁵⁶⁷⁸⁹]+)\s*)?(?=[\"“‘(]?[A-Z])"
)
#: Footnote marks: superscript digits, or 1-2 digits glued before a capital at a unit's start.
_SUPERSCRIPTS = "⁰¹²³⁴⁵⁶⁷⁸⁹"
_LEADING_MARK = re.compile(rf"^(?:\d{{1,2}}[{_SUPERSCRIPTS}]*\s?|[{_SUPERSCRIPTS}]+)(?=[A-Z][a-z])")
#: Dot leaders of a table of contents ("3.2.4 Going on vacation . . . . . 12").
_LEADERS = re.compile(r"(?:\.\s?){5,}")
_TERMINAL = (".", "!", "?", ":", ";")
#: Words a wrapped line ends on when its sentence goes on in the next line.
_CONTINUING = frozenset(
    [
        "a",
        "an",
        "and",
        "as",
        "at",
        "by",
        "for",
        "from",
        "in",
        "of",
        "on",
        "or",
        "should",
        "shall",
        "must",
        "may",
        "the",
        "to",
        "with",
    ]
)


@dataclass(frozen=True)
class Unit:
    """A sentence or list item of a chunk: ``text[start:end]`` of it, and the heading it sits under."""

    start: int
    end: int
    heading: str = ""


def units_of(text: str, *, running_heads: frozenset[str] = frozenset(), title: str = "") -> list[Unit]:
    """The units of ``text`` in reading order, headings and running heads left out of every unit."""
    units: list[Unit] = []
    heading = ""
    for start, end, kind in _blocks(text, running_heads, title):
        if kind == "heading":
            heading = " ".join(text[start:end].split())
            continue
        for begin, finish in _sentences(text, start, end):
            units.append(Unit(begin, finish, heading))
    return units


def without_furniture(text: str, running_heads: frozenset[str], title: str) -> str:
    """``text`` without its furniture lines; unchanged (the same string) when it has none."""
    lines = text.split("\n")
    kept = [
        line
        for line in lines
        if not line.strip() or line_kind(line, running_heads=running_heads, title=title) != "furniture"
    ]
    return text if len(kept) == len(lines) else "\n".join(kept)


def _blocks(text: str, running_heads: frozenset[str], title: str) -> Iterable[tuple[int, int, str]]:
    """Runs of lines that belong together ("text"), and heading lines; page furniture is dropped.

    A run ends at a blank line, a heading, a list item, or after a short line without a full stop
    when the next one opens with a capital: lines wrap near the page's width, so a short one ended
    for a reason (a list item, a table row, a title).
    """
    lines = _lines(text)
    width = max((end - start for start, end, _ in lines), default=0)
    block: tuple[int, int] | None = None
    for position, (start, end, after_blank) in enumerate(lines):
        line = text[start:end]
        following = text[lines[position + 1][0]] if position + 1 < len(lines) else ""
        kind = line_kind(line, running_heads=running_heads, title=title)
        if kind == "heading" and (following.islower() or end - start > 0.7 * width):
            kind = "text"
        ends_short = block is not None and _ended_short(text[block[0] : block[1]], width)
        opens = after_blank or kind != "text" or bool(_ITEM.match(line)) or (ends_short and line[0].isupper())
        if block is not None and opens:
            yield block[0], block[1], "text"
            block = None
        if kind == "furniture":
            continue
        if kind == "heading":
            yield start, end, "heading"
            continue
        block = (block[0] if block else start, end)
    if block is not None:
        yield block[0], block[1], "text"


def _ended_short(block: str, width: int) -> bool:
    last = block.rsplit("\n", 1)[-1]
    return len(last) < 0.6 * width and not last.endswith(_TERMINAL)


def _lines(text: str) -> list[tuple[int, int, bool]]:
    """(start, end, after a blank line) of every non-empty line, whitespace trimmed."""
    lines: list[tuple[int, int, bool]] = []
    position, blank = 0, False
    for line in text.split("\n"):
        stripped = line.strip()
        if stripped:
            lead = len(line) - len(line.lstrip())
            lines.append((position + lead, position + lead + len(stripped), blank))
        blank = not stripped
        position += len(line) + 1
    return lines


def line_kind(line: str, *, running_heads: frozenset[str] = frozenset(), title: str = "") -> str:
    """ "furniture" (running head or foot, page number, contents line), "heading", "label" or "text"."""
    stripped = line.strip()
    if shape(stripped) in running_heads or _PAGE_NUMBER.fullmatch(stripped) or _LEADERS.search(stripped):
        return "furniture"
    if title and _is_title_line(stripped, title):
        return "furniture"
    if _CHAPTER.match(stripped) and len(stripped) < 80 and not stripped.endswith("."):
        return "furniture"
    if _is_heading(stripped):
        return "heading"
    if stripped.endswith(":") and len(stripped) <= 40:
        return "label"
    return "text"


def _is_heading(line: str) -> bool:
    # "6.2. Composition", not the wrapped list item "1. The Committee consists of up to 8 Developers,".
    words = line.split()
    return (
        bool(_HEADING.match(line))
        and not line.endswith(_TERMINAL)
        and "," not in line
        and len(words) <= 9
        and words[-1].lower() not in _CONTINUING
    )


def _is_title_line(line: str, title: str) -> bool:
    # "Debian Policy Manual, Release 4.6.2.0" or "Debian Reference 69 / 233": the title and a number.
    plain = _folded(line)
    folded = _folded(title)
    return plain.startswith(folded) and len(plain) <= len(folded) + 24 and not line.endswith(".")


def _folded(text: str) -> str:
    return text.replace("’", "'").replace("‘", "'").casefold()


def shape(line: str) -> str:
    """A line with its digits masked, to recognise a running head repeated with other page numbers."""
    return re.sub(r"\d+", "#", _folded(" ".join(line.split())))


def running_heads(pages: Iterable[tuple[int | None, str]]) -> frozenset[str]:
    """Shapes of the first and last lines of chunks that recur on two pages or more.

    ``pages`` are (page, chunk text) pairs; counting pages, not chunks, keeps a line that two
    overlapping chunks of one page share from passing for a running head.
    """
    seen: dict[str, set[int | None]] = {}
    for page, text in pages:
        lines = [line.strip() for line in text.strip().split("\n") if line.strip()]
        for line in {lines[0], lines[-1]} if lines else set():
            if len(line) <= 80 and not line.endswith((".", ":")):
                seen.setdefault(shape(line), set()).add(page)
    return frozenset(key for key, found in seen.items() if len(found) >= 2)


def _sentences(text: str, start: int, end: int) -> Iterable[tuple[int, int]]:
    """Sentences of ``text[start:end]``, each trimmed of a leading footnote mark."""
    begin = start
    for match in _SENTENCE_END.finditer(text, start, end):
        yield from _trimmed(text, begin, match.start())
        begin = match.end()
    yield from _trimmed(text, begin, end)


def _trimmed(text: str, begin: int, end: int) -> Iterable[tuple[int, int]]:
    piece = text[begin:end]
    mark = _LEADING_MARK.match(piece)
    begin += mark.end() if mark else 0
    while begin < end and text[begin].isspace():
        begin += 1
    while end > begin and text[end - 1].isspace():
        end -= 1
    if re.search(r"[A-Za-z]{2}", text[begin:end]):
        yield begin, end


def plain(text: str) -> str:
    """``text`` on one line with footnote marks taken out: for display and scoring, never for a quote.

    A mark is only recognised where it cannot be part of a name: superscript digits anywhere, and
    1-2 digits glued after a full stop or before a capital at a sentence's start ("range.6 The").
    """
    text = " ".join(text.split())
    text = re.sub(rf"[{_SUPERSCRIPTS}]+", "", text)
    text = re.sub(r"(?<=[a-z][.!?])\d{1,2}(?=\s[A-Z])", "", text)
    return _LEADING_MARK.sub("", text)
