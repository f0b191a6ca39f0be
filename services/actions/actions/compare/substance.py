"""Which edits change what a provision requires: a modal verb, a number, a duration, a party, a negation.

A reader checks these first: "must" became "may", 30 days became 60, "the Secretary" became "the
Chair", a "not" appeared. Everything else (wording, order, references) follows them.
"""

import re
from collections.abc import Sequence
from typing import Final, Literal

from actions.wording_differences import Word, WordChange
from policypal.rules import modal_cue
from policypal.rules.number_words import CARDINALS

Substance = Literal["modality", "negation", "number", "duration", "party"]

#: The order a reader checks them in.
ORDER: Final[tuple[Substance, ...]] = ("modality", "negation", "number", "duration", "party")

_MODAL = frozenset(
    [
        "must",
        "shall",
        "may",
        "should",
        "can",
        "cannot",
        "could",
        "will",
        "would",
        "might",
        "need",
        "needs",
        "required",
        "require",
        "requires",
        "obliged",
        "mandatory",
        "optional",
        "permitted",
        "allowed",
        "prohibited",
        "forbidden",
        "entitled",
    ]
)
_NEGATION = frozenset(
    ["not", "no", "never", "nor", "none", "neither", "without", "unless", "except", "n't", "cannot"]
)
# Number words, and the words of a share or a majority, carry a figure as digits do.
_NUMBER_WORDS = frozenset(CARDINALS) | {"half", "twice", "double", "third", "quarter", "majority"}
_DURATION = re.compile(
    r"^(?:second|minute|hour|day|week|fortnight|month|quarter|year|annual|annually|daily|weekly|"
    r"monthly|yearly|period|deadline|term)s?$",
    re.IGNORECASE,
)
_PARTY_WORDS = frozenset(
    [
        "you",
        "we",
        "they",
        "licensee",
        "licensor",
        "licensees",
        "recipient",
        "recipients",
        "party",
        "parties",
        "user",
        "users",
        "member",
        "members",
        "developer",
        "developers",
        "author",
        "authors",
        "holder",
        "holders",
        "owner",
        "owners",
        "chair",
        "secretary",
        "leader",
        "committee",
        "delegate",
        "delegates",
        "board",
        "officer",
        "regulator",
        "authority",
        "company",
        "employee",
        "employees",
        "contractor",
        "vendor",
        "customer",
    ]
)
_DIGIT = re.compile(r"\d")


def substance(before: Sequence[Word], after: Sequence[Word], runs: Sequence[WordChange]) -> list[Substance]:
    """What the edits ``runs`` between two wordings of one provision change, in ``ORDER``."""
    changed = [w for run in runs for w in (*before[run.i1 : run.i2], *after[run.j1 : run.j2])]
    found = _kinds(changed)
    for run in runs:
        # "seven years" -> "ten years": a changed figure of a period is a changed duration.
        unit = [words[end] for words, end in ((before, run.i2), (after, run.j2)) if end < len(words)]
        edited = _kinds([*before[run.i1 : run.i2], *after[run.j1 : run.j2]])
        if "number" in edited and any(_DURATION.match(_plain(w)) for w in unit):
            found.add("duration")
    old, new = modal_cue(" ".join(w.key for w in before)), modal_cue(" ".join(w.key for w in after))
    if (old and old.modality) != (new and new.modality):
        found.add("modality")
    return [kind for kind in ORDER if kind in found]


def provision_substance(words: Sequence[Word]) -> list[Substance]:
    """What a provision added or removed whole bears: a rule (modal form), a negation, a figure, a period.

    Parties are left out: nearly every provision names one.
    """
    found = _kinds(words) - {"party", "modality"}
    if modal_cue(" ".join(w.key for w in words)) is not None:
        found.add("modality")
    return [kind for kind in ORDER if kind in found]


def _kinds(words: Sequence[Word]) -> set[Substance]:
    found: set[Substance] = set()
    for word in words:
        plain = _plain(word)
        if plain in _MODAL:
            found.add("modality")
        if plain in _NEGATION or plain.endswith("n't"):
            found.add("negation")
        if (_DIGIT.search(plain) and not _is_reference(word.key)) or plain in _NUMBER_WORDS:
            found.add("number")
        if _DURATION.match(plain):
            found.add("duration")
        if plain in _PARTY_WORDS or plain.rstrip("s") in _PARTY_WORDS:
            found.add("party")
    return found


def _plain(word: Word) -> str:
    return word.key.strip(".,;:!?()[]").casefold()


def _is_reference(word: str) -> bool:
    # "§4.1(3)", "4.2", "section 5.1.": a cross-reference renumbered, not a figure.
    return word.startswith("§") or bool(re.fullmatch(r"\(?\d+(?:\.\d+)+[.,;:)]*(?:\(\d+\))?[.,;:)]*", word))
