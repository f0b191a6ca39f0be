"""What differs between two texts that say nearly the same thing: the words that changed.

Textual only: they point a reader at the words to check and never judge which text is right. Words
are compared by a key that ignores what is not a change: quote styles, dash styles, hyphenation at a
line end ("deci-\\nsion"), spacing, and a leading list or clause number ("3.", "(b)").
"""

import difflib
import re
from dataclasses import dataclass

_TOKEN = re.compile(r"\S+")
_EDGE_PUNCTUATION = ".,;:!?()[]\"'“”‘’"
_QUOTES = re.compile(r"[\"'`´‘’‚‛“”„‟«»‹›]")
_DASHES = re.compile(r"[‐‑‒–—―−]+|-{2,}")
_INNER_HYPHEN = re.compile(r"(?<=\w)-(?=\w)")
# A leading enumerator: "1.", "2.1.", "(3)", "b)", "iv.", "§4".
_ENUMERATOR = re.compile(
    r"^(?:§\s*)?(?:\(?(?:[A-Z]\.)?\d+(?:\.\d+)*[.)]|\(?(?:[a-zA-Z]|[ivxlcIVXLC]{1,5})[.)]|\d+(?:\.\d+)+)$"
)


@dataclass(frozen=True)
class Change:
    """A run of words of ``before`` replaced by ``after`` (either may be empty: removed or added)."""

    before: str
    after: str


@dataclass(frozen=True)
class Word:
    """A word of a text as written (``text[start:end]``) and the key it is compared by."""

    start: int
    end: int
    written: str
    key: str


@dataclass(frozen=True)
class WordChange:
    """Words ``[i1, i2)`` of the first text became words ``[j1, j2)`` of the second."""

    i1: int
    i2: int
    j1: int
    j2: int


def changed_words(before: str, after: str, *, limit: int = 3) -> list[Change]:
    """The word runs that change from ``before`` to ``after`` (at most ``limit``), words as written."""
    old, new = _TOKEN.findall(before), _TOKEN.findall(after)
    matcher = difflib.SequenceMatcher(a=[_key(w) for w in old], b=[_key(w) for w in new], autojunk=False)
    changes = [
        Change(before=" ".join(old[i1:i2]), after=" ".join(new[j1:j2]))
        for tag, i1, i2, j1, j2 in matcher.get_opcodes()
        if tag != "equal"
    ]
    return changes[:limit]


def same_wording(first: str, second: str) -> bool:
    """Whether the two texts have the same words (case, spacing and punctuation at word edges aside)."""
    return [_key(w) for w in _TOKEN.findall(first)] == [_key(w) for w in _TOKEN.findall(second)]


def words(text: str) -> list[Word]:
    """The words of ``text`` with their comparison keys; a leading enumerator and bare quotes are left out.

    A word broken by a hyphen at a line end is one word ("deci-" + "sion" is "decision").
    """
    raw = list(_TOKEN.finditer(text))
    found: list[Word] = []
    position = 0
    while position < len(raw):
        match, end = raw[position], raw[position].end()
        written = match.group()
        following = raw[position + 1] if position + 1 < len(raw) else None
        if (
            following is not None
            and written.endswith("-")
            and written[:-1][-1:].isalpha()
            and following.group()[:1].islower()
            and "\n" in text[end : following.start()]
        ):
            written, end = written[:-1] + following.group(), following.end()
            position += 1
        position += 1
        key = word_key(written)
        if key and not (not found and _ENUMERATOR.match(written)):
            found.append(Word(match.start(), end, text[match.start() : end], key))
    return found


def word_key(word: str) -> str:
    """What a word is compared by: quotes dropped, dashes made one, hyphens inside words dropped."""
    return _INNER_HYPHEN.sub("", _DASHES.sub("-", _QUOTES.sub("", word)))


def text_key(text: str) -> str:
    """The words of ``text`` by their keys, on one line: equal keys mean no change worth reporting."""
    return " ".join(w.key for w in words(text))


def word_changes(before: list[Word], after: list[Word]) -> list[WordChange]:
    """The runs of words that differ between two word lists, in order."""
    matcher = difflib.SequenceMatcher(a=[w.key for w in before], b=[w.key for w in after], autojunk=False)
    return [WordChange(i1, i2, j1, j2) for tag, i1, i2, j1, j2 in matcher.get_opcodes() if tag != "equal"]


def _key(word: str) -> str:
    return word.strip(_EDGE_PUNCTUATION).casefold()
