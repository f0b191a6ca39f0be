"""Polarity: whether a sentence does, denies, permits or waives what it is about, and which of its
terms it negates.

"We never ship…" denies; "Staff may…" permits; "need not", "is optional", "no consent needed" waive;
anything else states a practice, which does. A negation inside a condition or a relative clause
("if it is not…", "files that are not…") does not deny the main statement. "must not … without
consent" forbids going without consent: a double negative that requires consent.
"""

import re
from typing import Final, Literal

from actions.audit.matching import key_terms
from policypal.rules import modal_cue

Stance = Literal["does", "does_not", "permits", "waives"]

NEGATIVE_MODALITIES: Final = frozenset({"prohibition", "recommendation_against"})
# Words that deny or withhold what the sentence is about ("no more than" is a limit, not a denial).
_NEGATION: Final = re.compile(
    r"\b(?:not|never|without|none|nothing|neither|nor|cannot|skip(?:s|ped|ping)?|omit(?:s|ted|ting)?|"
    r"exempt(?:s|ed)?|bypass(?:es|ed|ing)?|waive[sd]?|ignor(?:e|es|ed|ing)|disabl(?:e|es|ed|ing)|avoid)\b|"
    r"n['’]t\b|\bno\b(?!\s+(?:more|less|fewer|later|earlier|longer|sooner)\b)",
    re.IGNORECASE,
)
_CONDITION: Final = re.compile(
    r"\b(?:if|unless|when|whenever|whether|except)\b(?:[^\S\n]+[\w'’/-]+){0,4}\s*$", re.IGNORECASE
)
_PLAIN_NEGATION: Final = re.compile(
    r"\b(?:not|never)\b|n['’]t\b|\bno\b(?!\s+(?:more|less|fewer|later|earlier|longer|sooner)\b)", re.I
)
# A comma closes such a clause: "whenever it helps, no consent needed" denies.
_QUALIFIER: Final = re.compile(
    r"\b(?:if|unless|when|whenever|where|whether|that|which|who|whose|except)\b(?:[^\S\n]+[\w'’/-]+){0,4}\s*$",
    re.IGNORECASE,
)
# What a negation governs: the words after it up to the end of its clause, at most a few.
_SCOPE: Final = re.compile(r"^[^,.;:()]{0,60}")
# "must not … without X", "must not … unless X": the exception is what the rule requires.
_EXCEPTION: Final = re.compile(r"^[^.;:(]{0,80}?\b(?:without|unless|except)\b", re.IGNORECASE)
# The restrictive "only": "must consist only of …", "may only be …".
_ONLY: Final = re.compile(r"\bonly\b", re.IGNORECASE)


def stance(sentence: str) -> Stance:
    """What the sentence does with its subject: does it, does not, permits it, or waives it."""
    cue = modal_cue(sentence, can_permits=True)
    if cue is not None:
        after = sentence[cue.start + len(cue.words) :]
        if cue.modality in NEGATIVE_MODALITIES:
            return "does" if requires_exception(after) else "does_not"
        if cue.modality == "permission":
            return "waives" if cue.waives or denies(after) else "permits"
        return "does_not" if denies(after) else "does"
    return "does_not" if denies(sentence) else "does"


def denies(text: str) -> bool:
    """True when ``text`` negates its main statement (not only inside a condition)."""
    return any(not _QUALIFIER.search(text[: match.start()]) for match in _NEGATION.finditer(text))


def requires_exception(after_modal: str) -> bool:
    """True when a prohibition's words forbid going without something: "must not X without consent"."""
    return bool(_EXCEPTION.match(after_modal))


def restricts(rule: str) -> bool:
    """True when the rule allows only what it names ("must consist only of lower case letters")."""
    return bool(_ONLY.search(rule))


def negated_terms(sentence: str) -> frozenset[str]:
    """The key terms a plain negation in ``sentence`` governs ("don't compute it from argv[0]" → argv).

    Only "not", "n't", "never" and "no": "without local changes" or "avoid" name a circumstance, and
    too often share a term with a clause that does no wrong.
    """
    found: set[str] = set()
    for match in _PLAIN_NEGATION.finditer(sentence):
        # "so that they don't grow" is the rule's purpose; only a condition ("if it is not…") is not.
        if _CONDITION.search(sentence[: match.start()]):
            continue
        scope = _SCOPE.match(sentence[match.end() :])
        if scope:
            found |= key_terms(scope.group(0))
    return frozenset(found)


def affirmed_terms(sentence: str) -> frozenset[str]:
    """The key terms of ``sentence`` that no negation governs."""
    return key_terms(sentence) - negated_terms(sentence)
