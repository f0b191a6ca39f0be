"""What differs between two sentences that say nearly the same thing: changed words, numbers, obligations.

Textual signals only: they point a reader at the words to check and never judge which text is right.
"""

import difflib
import re
from dataclasses import dataclass

_TOKEN = re.compile(r"\S+")
_NUMBER = re.compile(r"\d+(?:[.,]\d+)*%?")
_NUMBER_WORDS = frozenset(
    [
        "zero",
        "one",
        "two",
        "three",
        "four",
        "five",
        "six",
        "seven",
        "eight",
        "nine",
        "ten",
        "eleven",
        "twelve",
        "thirteen",
        "fourteen",
        "fifteen",
        "sixteen",
        "seventeen",
        "eighteen",
        "nineteen",
        "twenty",
        "thirty",
        "forty",
        "fifty",
        "sixty",
        "seventy",
        "eighty",
        "ninety",
        "hundred",
        "thousand",
        "million",
        "billion",
        "half",
        "quarter",
    ]
)
_NEGATIONS = frozenset({"not", "no", "never", "none", "nor", "cannot", "prohibited", "forbidden"})
_BINDING = frozenset({"must", "shall", "required", "requires", "mandatory", "obliged", "obligatory"})
_OPTIONAL = frozenset({"may", "can", "optional", "voluntary", "discretion", "permitted", "allowed"})
_EDGE_PUNCTUATION = ".,;:!?()[]\"'“”‘’"


@dataclass(frozen=True)
class Change:
    """A run of words of ``before`` replaced by ``after`` (either may be empty: removed or added)."""

    before: str
    after: str


@dataclass(frozen=True)
class Signals:
    """Reasons to read two related sentences side by side."""

    numbers_differ: bool
    negation_differs: bool
    obligation_differs: bool

    @property
    def any(self) -> bool:
        """Whether any signal fired."""
        return self.numbers_differ or self.negation_differs or self.obligation_differs

    def describe(self) -> list[str]:
        """The signals in words, for a reader."""
        return [
            text
            for fired, text in (
                (self.numbers_differ, "the numbers or periods differ"),
                (self.negation_differs, "one text negates what the other states"),
                (self.obligation_differs, "one text makes binding what the other leaves optional"),
            )
            if fired
        ]


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


def signals(first: str, second: str) -> Signals:
    """Which textual signals of a possible conflict fire between two related sentences."""
    a, b = _words(first), _words(second)
    numbers_a, numbers_b = _numbers(first, a), _numbers(second, b)
    return Signals(
        numbers_differ=bool(numbers_a and numbers_b and numbers_a != numbers_b),
        negation_differs=bool(a & _NEGATIONS) != bool(b & _NEGATIONS),
        obligation_differs=_strength(a) is not None
        and _strength(b) is not None
        and _strength(a) != _strength(b),
    )


def _key(word: str) -> str:
    return word.strip(_EDGE_PUNCTUATION).casefold()


def _words(text: str) -> set[str]:
    return {_key(w) for w in _TOKEN.findall(text)} - {""}


def _numbers(text: str, words: set[str]) -> set[str]:
    return set(_NUMBER.findall(text)) | (words & _NUMBER_WORDS)


def _strength(words: set[str]) -> str | None:
    if words & _BINDING:
        return "binding"
    if words & _OPTIONAL:
        return "optional"
    return None
