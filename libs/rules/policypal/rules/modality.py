"""The modality of a sentence: whether it obliges, forbids, recommends or permits, and the words saying so.

Regulations state rules with a small set of modal forms (RFC 2119's MUST, MUST NOT, SHOULD, SHOULD NOT,
MAY and their many spellings: "shall", "is required to", "is prohibited", "it is not necessary", an
imperative "Never ..."). The first modal form of a sentence decides, the negative forms winning over
the positive ones that start at the same word ("may not" is a prohibition, not a permission).
"""

import re
from dataclasses import dataclass
from typing import Final

from policypal.contracts.audit import Modality

#: How binding each modality is, for ordering and for the severity of a breach.
STRENGTH: Final[dict[Modality, int]] = {
    "prohibition": 3,
    "obligation": 3,
    "recommendation_against": 2,
    "recommendation": 2,
    "permission": 1,
}

#: The plain words a person reads: "the rule says must not".
BINDING_WORDS: Final[dict[Modality, str]] = {
    "prohibition": "forbids it",
    "obligation": "requires it",
    "recommendation_against": "advises against it",
    "recommendation": "recommends it",
    "permission": "permits it",
}


@dataclass(frozen=True)
class ModalCue:
    """The modal form found: its modality, the words as written, where it starts, and ``waives``.

    ``waives`` marks a permission not to do something ("need not", "is optional", "is not required").
    """

    modality: Modality
    words: str
    start: int
    waives: bool = False


_EPISTEMIC: Final = (
    r"be\s+able|want|wish|have|exist|work|know|always|even|necessarily|apply|matter|comply|conform|fit|"
    r"reflect|suit|match|"
    r"be\s+(?:available|present|possible|installed|needed|necessary|enough|sufficient|aware|obvious)"
)


def _forms(*patterns: str) -> re.Pattern[str]:
    return re.compile("|".join(f"(?:{p})" for p in patterns), re.IGNORECASE)


#: A connective a sentence may open with before its modal form: "Likewise, please don’t …".
_CONNECTIVE: Final = (
    r"(?:likewise|similarly|also|again|instead|however|therefore|thus|hence|so|and|but|finally|"
    r"above\s+all|in\s+general|in\s+particular|for\s+(?:example|instance))\s*,?\s+"
)
_LEAD: Final = rf"^\W*(?:{_CONNECTIVE})?"
_OPENING_CONNECTIVE: Final = re.compile(rf"\W*{_CONNECTIVE}", re.IGNORECASE)
#: An adverb that hedges a denial without undoing it: "must generally not add directories".
_HEDGE: Final = r"(?:(?:generally|normally|usually|typically|ordinarily|also|still|ever)\s+)?"

# Order matters where two forms start at the same word: earlier entries win.
_FORMS: Final[tuple[tuple[Modality, bool, re.Pattern[str]], ...]] = (
    (
        "prohibition",
        False,
        _forms(
            rf"\b(?:must|shall)\s+{_HEDGE}(?:not|never|neither)\b",
            # "Nor may you …", "nor shall it …": the second half of a denial.
            r"\bnor\s+(?:may|shall|must)\b",
            # "may not be able to", "may not want": a possibility, not a prohibition.
            rf"\bmay\s+(?:not|never)\b(?!\s+(?:{_EPISTEMIC}))",
            r"\b(?:mustn|shan)['’]t\b",
            r"\b(?:is|are|be)\s+(?:strictly\s+)?(?:prohibited|forbidden|not\s+(?:permitted|allowed))\b",
            r"\b(?:prohibits|forbids)\b",
            r"\bnot\s+(?:be\s+)?(?:permitted|allowed)\b",
            r"\b(?:is|are)\s+not\s+to\b",
            r"\bno\s+(?:\S+\s+){1,3}(?:may|shall|must)\b",
            # "you waive any legal power to forbid circumvention": the power to do it given up.
            r"\bwaive\s+any\s+(?:legal\s+)?power\s+to\b",
            # "There must be no subdirectories in /usr/bin": what there must be none of is forbidden.
            r"\bthere\s+(?:must|shall)\s+be\s+no\b",
            rf"{_LEAD}(?:never|do\s+not|don['’]t)\b",
        ),
    ),
    (
        "recommendation_against",
        False,
        _forms(
            rf"\bshould\s+{_HEDGE}(?:not|never|neither)\b",
            r"\bnor\s+should\b",
            # "Therefore, no program should …" (not "where there is no agreement should …").
            # A name in quotes counts as one word: "No ‘--enable’ option should ever …".
            r"(?<!\bis\s)(?<!\bare\s)(?<!\bbe\s)(?<!\bwas\s)\bno\s+(?:\S+\s+){1,2}should\b(?!\s+not\b)",
            r"\bshouldn['’]t\b",
            r"\bthere\s+should\s+be\s+no\b",
            r"\b(?:is|are)\s+(?:strongly\s+)?discouraged\b",
            r"\bnot\s+(?:be\s+)?recommended\b",
            r"\b(?:we\s+)?(?:recommend|advise)s?\s+against\b",
            r"\b(?:is|are)\s+(?:recommended|advised)\s+against\b",
            rf"{_LEAD}(?:avoid|please\s+(?:do\s+not|don['’]t))\b",
        ),
    ),
    (
        "permission",
        True,
        _forms(
            r"\bneeds?\s+not\b",
            r"\b(?:is|are)\s+not\s+(?:required|necessary|mandatory|obliged)\b",
            r"\bdo(?:es)?\s+not\s+(?:need|have)\s+to\b",
            r"\bit\s+is\s+not\s+necessary\b",
            r"\b(?:is|are)\s+optional\b",
        ),
    ),
    (
        "obligation",
        False,
        _forms(
            r"\b(?:must|shall)\b",
            r"\b(?:is|are)\s+(?:required|obliged|mandatory)\b",
            r"\brequired\s+to\b",
            r"\b(?:has|have)\s+to\b",
            r"\bneeds?\s+to\b",
            r"\bit\s+is\s+(?:mandatory|necessary|essential)\b",
            rf"{_LEAD}always\b",
        ),
    ),
    (
        "recommendation",
        False,
        _forms(
            r"\bshould\b",
            r"\bought\s+to\b",
            r"\b(?:is|are)\s+(?:strongly\s+)?(?:recommended|encouraged|preferred|advised)\b",
            r"\bwe\s+recommend\b",
            r"\bpreferabl[ey]\b",
            r"\bit\s+is\s+(?:best|better|a\s+good\s+idea)\b",
            rf"{_LEAD}please\b",
        ),
    ),
    (
        "permission",
        False,
        # "in May 2018", "on 25 May": a month, not a permission.
        _forms(
            r"(?<!\bin\s)(?<!\bof\s)\bmay\b(?!\s+\d)(?!,?\s+(?:19|20)\d\d)",
            r"\b(?:is|are)\s+(?:permitted|allowed)\b",
            r"\bis\s+acceptable\b",
        ),
    ),
)

#: "can" reads as a permission in a company's own text ("developers can skip"), rarely in a rule.
_CAN: Final = re.compile(
    r"\b(?:can|are\s+free\s+to|feel\s+free\s+to|at\s+(?:their|your)\s+discretion)\b", re.I
)


# An instruction: a sentence (or its main clause) opening on a verb of doing, as style guides and
# standards write them ("Make that a fatal error.", "If you make temporary files, check TMPDIR.").
# Read as a recommendation: binding, without the force of "must".
# A code line ("#define …", "$(make) …") opens on a symbol, not on an instruction.
_INSTRUCTION_VERBS: Final = (
    r"use|make|put|keep|write|check|include|provide|ensure|specify|add|set|call|"
    r"define|report|give|follow|treat|declare|mention|store|send|print|return|handle|support|choose|"
    r"prefer|design|run|install|place|remove|delete|test|verify|record|document|name|list|sign|encrypt|"
    r"review|obtain|get|notify|inform|reject|refuse|limit|restrict|validate"
)
_IMPERATIVE: Final = re.compile(
    rf"[^\w#$@/\\.]*(?:please\s+)?((?:{_INSTRUCTION_VERBS})\b)"
    r"(?!\s+(?:of|is|are|was|were|has|have|and|or)\b)(?=\s+\S)",
    re.IGNORECASE,
)
_INSTRUCTION: Final = re.compile(rf"(?:{_INSTRUCTION_VERBS})", re.IGNORECASE)


def is_instruction(modal_words: str) -> bool:
    """Whether a rule's modal words are the verb of an instruction ("Keep" of "Keep a change log"):
    then they are the first word of the act, not words before it."""
    return _INSTRUCTION.fullmatch(modal_words.strip()) is not None


#: The words a condition a permission is granted on opens with: what the permitted must then do.
CONDITION_OPENERS: Final = (
    r"provided\s+that|on\s+(?:the\s+)?condition\s+that|as\s+long\s+as|so\s+long\s+as|only\s+if|subject\s+to"
)
_CONDITION: Final = re.compile(rf"\b(?:{CONDITION_OPENERS})\b", re.IGNORECASE)

#: The words a subordinate clause opens with ("If …,", "Because …,", "As long as …,").
SUBORDINATORS: Final = (
    r"if|unless|when|whenever|while|although|though|because|since|where|once|as\s+long\s+as|even\s+if|"
    r"in\s+case"
)
#: A sentence opening with a subordinate clause, up to the comma that closes it.
_SUBORDINATE: Final = re.compile(rf"^\W*(?:{SUBORDINATORS})\b[^,;:]{{3,200}}[,;]", re.IGNORECASE)


#: A condition put as an inverted question, up to the comma that closes it.
_INVERTED_CONDITION: Final = re.compile(
    r"^\W*should\s+(?:the|a|an|any|this|that|these|those|you|we|it|they|he|she|your|our|their|there)\b"
    r"[^,;:]{3,200}[,;]",
    re.IGNORECASE,
)


def modal_cue(sentence: str, *, can_permits: bool = False) -> ModalCue | None:
    """The sentence's first modal form, or None for a statement of fact.

    ``can_permits`` also reads "can"/"are free to" as a permission (for the audited text, not rules).
    """
    # "Should the program prove defective, you assume the cost": a condition, whose "should" binds
    # nobody; only the main clause can.
    inverted = _INVERTED_CONDITION.match(sentence)
    if inverted is not None:
        return _first_cue(sentence, inverted.end(), can_permits)
    # "If …, it must …", "While users may not want …, the root should …": the main clause rules.
    opening = _SUBORDINATE.match(sentence)
    cue = _first_cue(sentence, opening.end(), can_permits) if opening is not None else None
    cue = cue or _first_cue(sentence, 0, can_permits)
    if cue is not None and cue.modality == "permission" and not cue.waives:
        # "You may convey it, provided that you also convey the source": the condition is required.
        condition = _CONDITION.search(sentence, cue.start)
        if condition is not None:
            return ModalCue("obligation", condition.group(0), condition.start())
    return cue


def _first_cue(sentence: str, start: int, can_permits: bool) -> ModalCue | None:
    imperative = _IMPERATIVE.match(sentence, start)
    if imperative is not None:
        return ModalCue("recommendation", imperative.group(1), imperative.start(1))
    found: list[tuple[int, int, ModalCue]] = []
    for rank, (modality, waives, pattern) in enumerate(_FORMS):
        match = next(
            (
                m
                for m in pattern.finditer(sentence, start)
                if not _in_question(sentence, m.start()) and not _needed_aside(sentence, m)
            ),
            None,
        )
        if match:
            # The connective a sentence opens with is no part of its modal words ("Likewise, please don’t").
            lead = _OPENING_CONNECTIVE.match(match.group(0)) if match.start() == 0 else None
            cut = lead.end() if lead else 0
            words = match.group(0)[cut:]
            found.append((match.start() + cut, rank, ModalCue(modality, words, match.start() + cut, waives)))
    if can_permits:
        match = _CAN.search(sentence, start)
        if match:
            found.append((match.start(), len(_FORMS), ModalCue("permission", match.group(0), match.start())))
    if not found:
        return None
    return min(found, key=lambda item: (item[0], item[1]))[2]


#: An indirect question up to a modal form: "it hides whether or not the daemon should be started".
_QUESTION: Final = re.compile(r"\bwhether\b[^,;:.()]{0,80}$", re.IGNORECASE)


#: A form of need, said of what a relative clause or a condition describes: "data that doesn't need
#: to be modified should …", "if you … now need to go backwards, call …".
_NEED: Final = re.compile(r"(?:do(?:es)?\s+not\s+|don['’]t\s+|doesn['’]t\s+)?(?:needs?|(?:has|have))\b", re.I)
_ASIDE_BEFORE: Final = re.compile(
    r"\b(?:that|which|who)\s+(?:[\w'’-]+\s+){0,2}$|"
    r"\b(?:if|when|whenever|unless)\b(?:[^,;:.()]|\.(?=\w)){0,60}$",
    re.IGNORECASE,
)


def _needed_aside(sentence: str, match: re.Match[str]) -> bool:
    """Whether the form of need ``match`` found stands in a relative clause or a condition: it says
    what the thing described needs, and binds nobody."""
    return bool(_NEED.match(match.group(0).strip())) and bool(
        _ASIDE_BEFORE.search(sentence, 0, match.start())
    )


def _in_question(sentence: str, at: int) -> bool:
    """Whether the modal form at ``at`` stands in an indirect question ("whether … should"): what is
    asked binds nobody."""
    return bool(_QUESTION.search(sentence, 0, at))


#: The modalities that forbid: what they name is not to be done.
NEGATIVE_MODALITIES: Final[frozenset[Modality]] = frozenset({"prohibition", "recommendation_against"})


def is_binding(modality: Modality) -> bool:
    """True for the modalities a text can breach: obligations, prohibitions and their advisory forms."""
    return STRENGTH[modality] >= 2
