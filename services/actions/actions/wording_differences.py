"""What differs between two sentences that say nearly the same thing: the words that changed.

Textual only: they point a reader at the words to check and never judge which text is right.
"""

import difflib
import re
from dataclasses import dataclass

_TOKEN = re.compile(r"\S+")
_EDGE_PUNCTUATION = ".,;:!?()[]\"'“”‘’"


@dataclass(frozen=True)
class Change:
    """A run of words of ``before`` replaced by ``after`` (either may be empty: removed or added)."""

    before: str
    after: str


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


def _key(word: str) -> str:
    return word.strip(_EDGE_PUNCTUATION).casefold()
