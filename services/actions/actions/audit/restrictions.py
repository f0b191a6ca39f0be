"""Restrictions a licence forbids, and the clauses that impose them.

"You may not impose any further restrictions on the exercise of the rights granted" is broken by a
clause that restricts what the work's recipients may do with it ("Customers may not pass copies of the
firmware on", "redistribution requires our written approval", "released with an added clause that
forbids commercial use"). Such a clause shares no words with the rule, and its meaning is far from
"the exercise of the rights granted", so matching would not find the rule: it governs every clause
that restricts a recipient's use of the work, and is matched to each such clause (``matching``).

A right granted only within a scope restricts it too ("Customers may run the agent only on certified
hardware", "may redistribute it only to existing customers"), and so does a price set on exercising
it ("must first buy a developer licence to modify it", "owes us a royalty on every copy it
redistributes"); a price for copies or for support is not one (the licence allows both).

A restriction on the company's own staff ("Engineers must not distribute builds without the source")
is the company keeping the licence, not restricting its recipients, and is not read as one.
"""

import re
from dataclasses import replace
from functools import lru_cache
from typing import Final

from policypal.rules import modal_cue

# The rule: a prohibition of further restrictions on the rights the document grants.
_FORBIDS_FURTHER: Final = re.compile(
    r"\b(?:impos|add|plac)\w*\s+(?:any\s+)?(?:further|additional|other|new)?\s*"
    r"(?:restrictions?|conditions?|limitations?)\s+on\s+(?:the\s+)?"
    r"(?:exercise|rights?|recipients?|licensees?|users?|freedoms?)\b",
    re.IGNORECASE,
)
# Whom a restriction binds: those who receive the work.
_RECIPIENT: Final = re.compile(
    r"\b(?:customers?|users?|end[- ]users?|recipients?|licensees?|buyers?|purchasers?|partners?|resellers?|"
    r"distributors?|third[- ]part(?:y|ies)|anyone|anybody|everyone|everybody|clients?|companies|vendors?|"
    r"integrators?|sites?|venues?|owners?|operators?|institutions?|organi[sz]ations?|members?|subscribers?|"
    r"dealers?|oems?|manufacturers?|exhibitors?|hospitals?|schools?)\b",
    re.IGNORECASE,
)
# A term of the company's own added to the licence, or its own licence terms for the work, restricts
# every recipient ("The EULA will say that the agent may not be modified").
_ADDED_TERM: Final = re.compile(
    r"\b(?:added|extra|additional|further|own)\s+(?:clause|term|condition|restriction)s?\b|"
    r"\b(?:eulas?|end[- ]user\s+(?:licen[cs]e|terms|agreement)s?|licen[cs]e\s+agreements?|"
    r"terms\s+of\s+(?:use|service))\b",
    re.IGNORECASE,
)
# The work the rights are about (a password or a badge is no work a licence grants rights in).
_WORK: Final = re.compile(
    r"\b(?:software|firmware|programs?|code|binar(?:y|ies)|sources?|cop(?:y|ies)|librar(?:y|ies)|"
    r"applications?|works?|releases?|versions?|packages?|images?|builds?|tools?|sdks?|gpl|licen[cs]es?|"
    r"agents?|daemons?|plugins?|drivers?|modules?|utilit(?:y|ies)|toolkits?|toolchains?)\b",
    re.IGNORECASE,
)
# What a recipient may do with the work.
_RIGHT: Final = re.compile(
    r"\b(?:cop(?:y|ies|ying|ied)|(?:re)?distribut\w*|convey\w*|shar(?:e|es|ed|ing)|modif\w*|"
    r"pass(?:es|ed|ing)?\s+(?:\w+\s+){0,4}?on|sell\w*|resell\w*|publish\w*|adapt\w*|fork\w*|"
    r"(?:commercial\s+)?use)\b",
    re.IGNORECASE,
)
_APPROVAL: Final = re.compile(
    r"\brequir\w*\s+(?:our\s+|prior\s+|written\s+|explicit\s+)*(?:approval|permission|consent|authori[sz]ation)\b",
    re.IGNORECASE,
)
# A right granted only within a scope: on what, for what, where, by or to whom ("only with the source
# offer" or "only if …" is a condition the licence may itself set, not a scope).
_ONLY_WITHIN: Final = re.compile(
    r"\bonly\s+(?:\w+\s+){0,2}?(?:on|for|in|within|inside|at|from|by|to)\b|\bonly\s+internally\b",
    re.IGNORECASE,
)
# A price set on the work's use: paying, buying a licence, a royalty owed.
_PRICE: Final = re.compile(
    r"\b(?:pays?|paid|paying|buys?|buying|purchas\w*|owes?|royalt(?:y|ies)|licen[cs]e\s+fees?|"
    r"(?:re)?distribution\s+fees?)\b",
    re.IGNORECASE,
)
# The rights a recipient exercises on the work, which a scope or a price restricts.
_EXERCISES: Final = (
    r"(?:runs?|running|use[sd]?|using|modif\w*|redistribut\w*|bundl\w*|ship(?:s|ped|ping)?|"
    r"shar(?:e|es|ed|ing)|resell\w*|fork\w*|adapt\w*|study\w*|pass(?:es|ed|ing)?\s+(?:[\w-]+\s+){0,4}?on)"
)
_EXERCISED: Final = re.compile(rf"\b{_EXERCISES}\b", re.IGNORECASE)
# A price on exercising a right is paid by those who exercise it ("Anyone who runs …", "Companies that
# bundle …") or to exercise it ("must first buy a licence to modify it"); a price for copies, for
# support or for a service the licence allows.
_PRICED: Final = re.compile(
    rf"\b(?:who|that|to|before)\s+(?:\w+\s+){{0,2}}?(?P<right>{_EXERCISES})\b|"
    # A fee named for the right it prices: "a redistribution fee of EUR 40 per site".
    r"\b(?P<named>(?:re)?distribution|modification|copying|sharing|resale)\s+(?:fees?|charges?|royalt(?:y|ies)|levy)\b",
    re.IGNORECASE,
)
# Where a grant turns to what it withholds: "…, but may not pass copies on".
_LIMITED_TO: Final = re.compile(
    r"\b(?:is|are)\s+(?:\w+\s+)?(?:limited|restricted|confined|reserved)\s+to\b", re.IGNORECASE
)
_RIGHT_NAMED: Final = re.compile(
    r"\b(?:(?:re)?distribution|copying|modification|resale|sharing)\b", re.IGNORECASE
)
_BUT: Final = re.compile(r"[,;]?\s*\b(?:but|yet|although|though)\b", re.IGNORECASE)
_FORBIDDING: Final = re.compile(
    r"\b(?:forbids?|prohibits?|bans?|disallows?)\b|" + _APPROVAL.pattern, re.IGNORECASE
)


def names_work(clause: str) -> bool:
    """Whether ``clause`` names the work a licence grants rights in (software, its source, a build …)."""
    return bool(_WORK.search(clause))


@lru_cache(maxsize=8192)
def forbids_further_restrictions(rule: str) -> bool:
    """Whether ``rule`` forbids imposing further restrictions on the rights its document grants (asked
    of the same rules by the matching, the checks and the model's selection: read once per text)."""
    return bool(_FORBIDS_FURTHER.search(rule))


def restriction_of(clause: str) -> str | None:
    """The words by which ``clause`` restricts what recipients may do with the work, else None."""
    cue = modal_cue(clause)
    # "Partners may install them for their customers, but may not pass copies on": what a grant is
    # followed by forbidding, of the work, is what restricts.
    if cue is not None and cue.modality != "prohibition":
        for turn in _BUT.finditer(clause, cue.start + len(cue.words)):
            later = modal_cue(clause[turn.end() :])
            if later is not None and later.modality == "prohibition" and _WORK.search(clause, turn.end()):
                cue = replace(later, start=turn.end() + later.start)
                break
    forbidding = _FORBIDDING.search(clause)
    approval = _APPROVAL.search(clause)
    # Whom it binds: named recipients, a term added to the licence, or anyone who must ask first.
    binds_recipients = _RECIPIENT.search(clause) or _ADDED_TERM.search(clause) or approval
    # "Redistribution of the tool is limited to venues that hold a support contract": the right, named
    # as an act on the work, kept to some recipients.
    limited = _LIMITED_TO.search(clause)
    if limited and binds_recipients and (named := _RIGHT_NAMED.search(clause, 0, limited.start())):
        return named.group(0)
    if not binds_recipients or not names_work(clause):
        return None
    rights = _RIGHT
    if cue is not None and cue.modality == "prohibition":
        at = cue.start
    elif forbidding is not None:
        at = forbidding.start()
    elif (
        cue is not None
        and cue.modality == "permission"
        and _ONLY_WITHIN.search(clause, cue.start + len(cue.words))
    ):
        at, rights = cue.start, _EXERCISED
    elif _PRICE.search(clause):
        priced = _PRICED.search(clause)
        return (priced.group("right") or priced.group("named")) if priced else None
    else:
        return None
    # The right restricted is the one the prohibition governs: "… forbids commercial use".
    right = rights.search(clause, at) or rights.search(clause)
    return right.group(0) if right else None
