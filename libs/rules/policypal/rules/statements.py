"""Statements of a text: its sentences and list items, with headings told apart, as exact spans.

Text comes as PDFs give it (lines hard-wrapped at the page width, table rows, running heads, footnote
numbers glued to a sentence's end) or as people type it (Markdown, e-mail, one paragraph per line).
Lines are first classed (heading, list item, contents line, text), text lines are joined into blocks
where the layout says the sentence goes on, and blocks are cut into sentences. A list item under a
lead-in ("… must be installed:") keeps that lead-in, whose modality it inherits.

Every statement is a span of the text it came from, so a quote of it is verbatim; ``plain`` is the
same words on one line without footnote marks, for matching.
"""

import re
from dataclasses import dataclass
from typing import Final, Literal

StatementKind = Literal["sentence", "item"]

#: Fewer words is a label, a fragment or a table cell, not a statement.
MIN_WORDS: Final = 4
#: A chapter's title after a single number is a few words ("3 The Root Filesystem"); more is a footnote.
MAX_CHAPTER_WORDS: Final = 9
#: A line this much shorter than the page's usual line ends its paragraph when the next line starts anew.
SHORT_LINE: Final = 0.6

_NUMBERED_HEADING = re.compile(
    r"^(?:(?:chapter|section|article|part|appendix|annex)\s+)?"
    r"(?:\d+(?:\.\d+)+\.?|\d+\.?|[A-Z]\.(?:\d+\.?)*|§\s*[\d.]+)\s+\S",
    re.IGNORECASE,
)
_MULTILEVEL = re.compile(
    r"^(?:(?:chapter|section|article|part|appendix|annex)\s+\S|\d+\.\d|[A-Z]\.\d|§)", re.I
)
_MARKDOWN_HEADING = re.compile(r"^#{1,6}\s+\S")
_ITEM = re.compile(r"^(?:[-*+•◦▪‣–·]|\(?(?:\d{1,2}|[a-z]|[ivx]{1,4})[.)])\s+(?=\S)")
_CONTENTS_LINE = re.compile(r"(?:\.\s?){4,}\s*\d*\s*$|…{2,}|\s\.\s\.\s\.")
_TERMINAL = (".", "!", "?", ":", ";")
# A line opening with a conjunction, a preposition or an article in lower case continues a sentence.
_GOES_ON = re.compile(r"(?:and|or|but|nor|the|a|an|of|to|in|with|for|that|which|than|by|from|on|as)\s")
# A sentence ends at . ! ? (then closing quotes or brackets, then an optional footnote number) before
# whitespace and an opening capital, digit, bracket or quote.
_SENTENCE_END = re.compile(r"[.!?][\"”’')\]]*(?P<note>\d{1,2})?(?=\s+[\"“‘(\[A-Z0-9])")
# Abbreviations a sentence never ends on, and those that stand before a number ("Art. 5", "No. 3"):
# "the state of the art. They…" and "500 ms. Clients…" do end there.
# An initial is a capital standing alone ("J. Smith", "U.S. law"); a lower-case letter after a dot ends a
# file name ("through invoke-rc.d. After an upgrade …"), and the sentence with it.
_ABBREVIATION = re.compile(
    r"(?:(?<![/.\w-])(?:e\.g|i\.e|etc|cf|vs|viz|approx|mr|mrs|dr|inc|ltd)|(?-i:(?<![\w/.-])[A-Z](?:\.[A-Z])*))\.$",
    re.IGNORECASE,
)
_NUMBERING = re.compile(r"(?<![/.\w-])(?:art|no|nr|sec|ch|pp|vol|fig|para)\.$", re.IGNORECASE)
_FOOTNOTE_AT_END = re.compile(r"(?<=[.!?\"”’')\]])\d{1,2}$")
# Manuals open sentences with a command or file in lower case ("… but not the scripts. install-strip
# should not strip …"). Such a start ends the sentence before it only when the word before the full
# stop is plain (not a path, URL or file name a PDF broke at its dot: "changelog. gz", "ld.so. conf")
# and the lower-case word, three characters or more, goes on into a lower-case sentence. Its empty
# ``note`` group lets ``_sentences`` read both kinds of end alike.
_LOWER_START = re.compile(r"\.(?P<note>)(?=\s+[a-z][\w+/.-]{2,}(?<![.,;:])\s+[a-z])")
_PLAIN_WORD_BEFORE = re.compile(r"(?:^|\s)[^\W\d_][\w’'-]+$")
_WORD = re.compile(r"[^\W\d_]{2,}")


@dataclass(frozen=True)
class Statement:
    """A sentence or list item: ``text[start:end]`` of the segmented text, and where it stands."""

    start: int
    end: int
    text: str
    plain: str
    kind: StatementKind
    section: str | None = None
    lead_in: str | None = None


@dataclass(frozen=True)
class Segmented:
    """The statements of a text, and the heading in force at its end (for the next page)."""

    statements: list[Statement]
    section: str | None


@dataclass
class _Block:
    kind: StatementKind
    start: int
    end: int
    section: str | None
    lead_in: str | None = None


def one_line(text: str) -> str:
    """``text`` on one line, footnote number at its end removed: what is matched and embedded."""
    return _FOOTNOTE_AT_END.sub("", " ".join(text.split()))


def heading_text(line: str) -> str | None:
    """The title when ``line`` is a numbered or Markdown heading ("3.13.1 Purpose", "## Scope").

    A single number ("10 years after…") heads a section only before a capitalised title word, and
    only a short title: "15 A compliant distribution with two CDROM drives might have …" is a
    footnote.
    """
    stripped = line.strip()
    if _MARKDOWN_HEADING.match(stripped):
        return stripped.lstrip("#").strip()
    match = _NUMBERED_HEADING.match(stripped)
    if (
        match
        and len(stripped) <= 120
        and not stripped.endswith(_TERMINAL)
        and not _ITEM.match(stripped)
        and not _CONTENTS_LINE.search(stripped)
        and (
            _MULTILEVEL.match(stripped)
            or (stripped[match.end() - 1 :][:1].isupper() and len(stripped.split()) <= MAX_CHAPTER_WORDS)
        )
    ):
        return stripped
    return None


def is_contents_line(line: str) -> bool:
    """A line of a table of contents or an index: dot leaders, with or without a page number."""
    return bool(_CONTENTS_LINE.search(line))


def segment(text: str, *, section: str | None = None) -> Segmented:
    """The statements of ``text`` (sentences and list items), each under the heading in force.

    ``section`` is the heading in force where ``text`` begins (the previous page's last).
    """
    blocks, section = _blocks(text, section)
    statements: list[Statement] = []
    lead_in: str | None = None
    for block in blocks:
        if block.kind == "item":
            block.lead_in = lead_in
        else:
            lead_in = None
        for begin, end in _sentences(text, block.start, block.end):
            piece = text[begin:end]
            plain = one_line(piece)
            if block.kind == "item":
                plain = _ITEM.sub("", plain, count=1)
            if len(_WORD.findall(plain)) < MIN_WORDS:
                continue
            statements.append(Statement(begin, end, piece, plain, block.kind, block.section, block.lead_in))
        if block.kind == "sentence" and statements and text[block.start : block.end].rstrip().endswith(":"):
            lead_in = statements[-1].plain if statements[-1].end >= block.end - 1 else None
    return Segmented(statements, section)


def _blocks(text: str, section: str | None) -> tuple[list[_Block], str | None]:
    """Paragraphs and list items of ``text``; headings, contents lines and blank lines divide them."""
    lines = _lines(text)
    lengths = sorted(len(line.strip()) for _, line in lines if line.strip())
    width = max(40, lengths[int(len(lengths) * 0.9)] if lengths else 0)
    blocks: list[_Block] = []
    current: _Block | None = None
    previous = ""
    for number, (offset, line) in enumerate(lines):
        stripped = line.strip()
        following = lines[number + 1][1].strip() if number + 1 < len(lines) else ""
        continues = (
            bool(previous) and not previous.endswith(_TERMINAL) and len(previous) >= SHORT_LINE * width
        )
        title = heading_text(stripped) if stripped and not continues else None
        if title is None and stripped and _short_title(stripped, previous, following):
            # "Rationale" under "3.12 /tmp": the numbered section keeps naming where the rule stands.
            numbered = section.split(" › ")[0] if section and _NUMBERED_HEADING.match(section) else None
            title = f"{numbered} › {stripped}" if numbered else stripped
        if not stripped or title is not None or is_contents_line(stripped):
            if title is not None:
                section = title
            current = None
            previous = stripped
            continue
        begin = offset + (len(line) - len(line.lstrip()))
        end = begin + len(stripped)
        if _ITEM.match(stripped):
            current = _Block("item", begin, end, section)
            blocks.append(current)
        elif current is None:
            current = _Block("sentence", begin, end, section)
            blocks.append(current)
        else:
            current.end = end
        # A short line with no closing punctuation is a table row, a label or a forced break: the
        # sentence does not go on across it (wrapped sentence lines run to the page's width), unless the
        # next line plainly goes on with it ("…only alphanumerics⁶" / "and the characters . + - ~").
        short = len(stripped) < SHORT_LINE * width and not stripped.endswith((*_TERMINAL, ","))
        if short and not _GOES_ON.match(following):
            current = None
        previous = stripped
    return blocks, section


def _lines(text: str) -> list[tuple[int, str]]:
    lines, offset = [], 0
    for line in text.split("\n"):
        lines.append((offset, line))
        offset += len(line) + 1
    return lines


def _short_title(line: str, previous: str, following: str) -> bool:
    """An unnumbered heading: a short capitalised line standing alone between paragraphs, or framed
    by separator lines ("-----" above and below "PART 1: DISTRIBUTING AND MODIFYING")."""
    words = line.split()
    return (
        len(line) <= 60
        and len(words) <= 8
        and line[:1].isupper()
        and not line.endswith((*_TERMINAL, ","))
        and (
            not previous
            or previous.endswith(_TERMINAL)
            or heading_text(previous) is not None
            or bool(_SEPARATOR_LINE.match(previous))
        )
        and (
            not following
            or following[:1].isupper()
            or bool(_ITEM.match(following))
            or bool(_SEPARATOR_LINE.match(following))
        )
        and not _ITEM.match(line)
    )


# A line of dashes, equals signs, stars or underscores: a frame around a heading in plain text.
_SEPARATOR_LINE: Final = re.compile(r"^\s*[-=*_~]{3,}\s*$")


def _sentences(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """Sentence spans of ``text[start:end]``; a footnote number after a full stop is left outside."""
    spans: list[tuple[int, int]] = []
    begin = start
    for match in _sentence_ends(text, start, end):
        stop = match.end() - (len(match.group("note")) if match.group("note") else 0)
        before = text[max(begin, stop - 8) : stop]
        numbered = _NUMBERING.search(before) and text[match.end() : match.end() + 2].strip()[:1].isdigit()
        if (_ABBREVIATION.search(before) or numbered) and not match.group("note"):
            continue
        spans.append((begin, stop))
        begin = match.end()
        while begin < end and text[begin].isspace():
            begin += 1
    if begin < end:
        spans.append((begin, end))
    trimmed = []
    for b, e in spans:
        while b < e and text[b].isspace():
            b += 1
        while e > b and text[e - 1].isspace():
            e -= 1
        if e > b:
            trimmed.append((b, _without_note(text, b, e)))
    return trimmed


def _sentence_ends(text: str, start: int, end: int) -> list[re.Match[str]]:
    """Where sentences of ``text[start:end]`` may end, in order: before a capital, digit, bracket or
    quote, and before a lower-case command or file name that opens a sentence (``_LOWER_START``)."""
    ends = list(_SENTENCE_END.finditer(text, start, end))
    for match in _LOWER_START.finditer(text, start, end):
        if _PLAIN_WORD_BEFORE.search(text[max(start, match.start() - 40) : match.start()]):
            ends.append(match)
    return sorted(ends, key=lambda m: m.start())


def _without_note(text: str, begin: int, end: int) -> int:
    """``end`` moved before a footnote number glued to the sentence's last full stop."""
    note = _FOOTNOTE_AT_END.search(text[begin:end])
    return begin + note.start() if note else end
