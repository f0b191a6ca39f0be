"""The offline verdict on a clause and a rule that governs it: does the clause break the rule?

Three readings; the most specific that applies decides:
1. quantities of one kind in both (a limit and a figure): the figure breaks the limit, or keeps it;
2. paths in both (the rule naming a specific area): the clause puts things inside what the rule
   forbids, or elsewhere than where it requires them;
3. polarity: what the rule requires (must, should) against a clause that denies, omits or waives it;
   what the rule forbids (must not, should not) against a clause that does, permits or requires it.
Every verdict says which reading made it and quotes the words that decided, so a reviewer can check
it in seconds. A rule that only permits ("may") cannot be broken.
"""

import re
from dataclasses import dataclass
from typing import Final, Literal

from actions.audit.quantities import breaks_limit, depth, effective_bound, path_within, paths, quantities
from policypal.contracts.audit import Modality, Severity
from policypal.rules import BINDING_WORDS, is_binding, modal_cue

Stance = Literal["does", "does_not", "permits", "waives"]
Reading = Literal["quantity", "forbidden_path", "required_path", "polarity", "model"]

_NEGATIVE: Final = frozenset({"prohibition", "recommendation_against"})
# Words that deny or withhold what the sentence is about ("no more than" is a limit, not a denial).
_NEGATION: Final = re.compile(
    r"\b(?:not|never|without|none|nothing|neither|nor|cannot|skip(?:s|ped|ping)?|omit(?:s|ted|ting)?|"
    r"exempt(?:s|ed)?|bypass(?:es|ed|ing)?|waive[sd]?|ignor(?:e|es|ed|ing)|disabl(?:e|es|ed|ing))\b|n['’]t\b|"
    r"\bno\b(?!\s+(?:more|less|fewer|later|earlier|longer|sooner)\b)",
    re.IGNORECASE,
)
# A negation inside a condition or a relative clause ("if it is not…", "files that are not…") does not
# deny the main statement; a comma closes such a clause ("whenever it helps, no consent needed" denies).
_QUALIFIER: Final = re.compile(
    r"\b(?:if|unless|when|whenever|where|whether|that|which|who|whose|except)\b(?:[^\S\n]+[\w'’/-]+){0,4}\s*$",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Verdict:
    """Whether the clause breaks the rule, by which reading, and why in words a reviewer can check."""

    conflict: bool
    reading: Reading
    rationale: str
    suggestion: str = ""


def stance(clause: str) -> Stance:
    """What the clause does with its subject: does it, does not, permits it, or waives it."""
    cue = modal_cue(clause, can_permits=True)
    if cue is not None:
        if cue.modality in _NEGATIVE:
            # "must not share it without consent" requires consent: a double negative affirms.
            return "does" if _denies(clause[cue.start + len(cue.words) :]) else "does_not"
        if cue.modality == "permission":
            return "waives" if cue.waives or _denies(clause[cue.start :]) else "permits"
        return "does_not" if _denies(clause[cue.start :]) else "does"
    return "does_not" if _denies(clause) else "does"


def _denies(text: str) -> bool:
    return any(not _QUALIFIER.search(text[: match.start()]) for match in _NEGATION.finditer(text))


def judge(clause: str, rule: str, modality: Modality, modal_words: str) -> Verdict | None:
    """The verdict on ``clause`` under ``rule`` (its modality and modal words); None when not binding."""
    if not is_binding(modality):
        return None
    # "must not be transferred without consent" forbids doing it without consent: it requires consent.
    after = rule.lower().find(modal_words.lower())
    double_negative = after >= 0 and _denies(rule[after + len(modal_words) :])
    negative = modality in _NEGATIVE and not double_negative
    binding = "requires what it names" if double_negative else BINDING_WORDS[modality]
    said = f"the rule says “{modal_words}”"
    for limit in quantities(rule):
        for figure in quantities(clause):
            broken = breaks_limit(limit, negative, figure)
            if broken is not None:
                verb = (
                    ("falls short of" if effective_bound(limit, negative) == "lower" else "goes beyond")
                    if broken
                    else "keeps within"
                )
                return Verdict(
                    broken,
                    "quantity",
                    f"{said.capitalize()} {limit.words}; the clause says {figure.words}, which {verb} it.",
                    f"Bring “{figure.words}” within the rule's limit ({limit.words}).",
                )
    # Paths decide when the rule names a specific area ("/usr/local", not "/usr" alone).
    rule_paths = [p for p in paths(rule) if depth(p) >= 2]
    clause_paths = paths(clause)
    if rule_paths and clause_paths:
        inside = [p for p in clause_paths if any(path_within(p, area) for area in rule_paths)]
        where = ", ".join(rule_paths)
        if negative:
            if inside and stance(clause) in ("does", "permits"):
                return Verdict(
                    True,
                    "forbidden_path",
                    f"{said.capitalize()} for {where}; the clause uses {', '.join(inside)}.",
                    f"Keep out of {where}, as the rule says, or record why it does not apply.",
                )
            return Verdict(
                False, "forbidden_path", f"{said.capitalize()} for {where}; the clause keeps out of it."
            )
        if inside:
            return Verdict(
                False, "required_path", f"{said.capitalize()} {where}; the clause uses {', '.join(inside)}."
            )
        return Verdict(
            True,
            "required_path",
            f"{said.capitalize()} {where}; the clause names {', '.join(clause_paths)} instead.",
            f"Use {where} as the rule requires, or record why it does not apply.",
        )
    position = stance(clause)
    if negative and position in ("does", "permits"):
        doing = "allows it" if position == "permits" else "does or requires it"
        return Verdict(
            True,
            "polarity",
            f"{said.capitalize()} ({binding}); the clause {doing}.",
            "Reword the clause so it no longer does or allows what the rule forbids, or record why the rule "
            "does not apply.",
        )
    if not negative and position in ("does_not", "waives"):
        denying = "makes it optional" if position == "waives" else "denies or omits it"
        return Verdict(
            True,
            "polarity",
            f"{said.capitalize()} ({binding}); the clause {denying}.",
            "Make the clause require what the rule requires, or record why the rule does not apply.",
        )
    return Verdict(False, "polarity", f"{said.capitalize()}; the clause agrees.")


def severity_of(modality: Modality) -> Severity:
    """Offline severity follows the rule's force: a breach of must/must not is High, of should Medium."""
    return "High" if modality in ("obligation", "prohibition") else "Medium"
