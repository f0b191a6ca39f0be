"""A value other than the one a rule requires: "must be encoded in UTF-8" against "written in
Latin-1", "mode 644 or 755" against "mode 0777", "TLS 1.2" against "TLS 1.0"; and a value a rule
forbids by name: "should not be made unreadable (modes like 4711 or 2711)" against "mode 4711".

A value is a token with a digit in it, outside paths and measured quantities (``quantities`` reads
those). Two values are of one kind when both are numbers ("644", "1.2"), or both are names with letters and
digits. A clause that names what the rule's subject names (``placement.names_subject``) and a value of
the kind the rule's act requires, but none of the values it allows, breaks it.
"""

import re
from collections.abc import Mapping
from functools import lru_cache
from typing import Final, Literal

from actions.audit.placement import names_subject
from actions.audit.polarity import stance, without_purpose
from actions.audit.quantities import paths, quantities
from actions.audit.verdict import Verdict

Kind = Literal["number", "code"]

# A token with a digit: "UTF-8", "644", "ISO-8859-1", "1.2"; not a part of a longer path or name.
_TOKEN: Final = re.compile(r"(?<![\w/.<>-])[A-Za-z0-9][\w.+-]*")
_DIGIT: Final = re.compile(r"\d")
_NOTE_MARK: Final = re.compile(r"^\d{1,2}$")


@lru_cache(maxsize=8192)
def values(text: str) -> Mapping[str, Kind]:
    """The values ``text`` names, by their lower-case spelling, with their kind (read once per text:
    a rule's act meets many clauses)."""
    for found in (*paths(text), *(q.words for q in quantities(text))):
        text = text.replace(found, " ")
    named: dict[str, Kind] = {}
    for match in _TOKEN.finditer(text):
        token = match.group(0).rstrip(".,;:-+")
        if not _DIGIT.search(token):
            continue
        kind: Kind = "number" if re.fullmatch(r"[\d.]+", token) else "code"
        # "1" or "12" alone is a count or a footnote mark, not a setting.
        if kind == "number" and _NOTE_MARK.match(token):
            continue
        named[token.lower()] = kind
    return named


def by_other_value(
    clause: str, subject: str, act: str, said: str, weights: Mapping[str, float]
) -> Verdict | None:
    """The verdict on a clause naming what the rule's subject names, by the values it gives it; None
    when the rule's act requires no value, or the clause gives none of that kind."""
    required = values(act)
    if not required:
        return None
    practice = without_purpose(clause)
    given = values(practice)
    kinds = set(required.values())
    others = [value for value, kind in given.items() if kind in kinds and value not in required]
    if not given.keys() & required.keys() and not others:
        return None
    # The thing a value is given to is named before it ("Installed files are given mode 0777"): files
    # "opened with mode 0600, in the directory named by TMPDIR" give the directory no mode.
    lowered = practice.lower()
    at = [lowered.find(value) for value in (*given.keys() & required.keys(), *others)]
    first = min((position for position in at if position >= 0), default=len(practice))
    if not names_subject(practice[:first], subject, weights) or stance(practice) not in ("does", "permits"):
        return None
    allowed = " or ".join(required)
    if given.keys() & required.keys():
        return Verdict(False, "other_value", f"{said} {allowed}; the clause keeps to it.")
    return Verdict(
        True,
        "other_value",
        f"{said} {allowed}; the clause gives {', '.join(others)} instead.",
        f"Use {allowed} as the rule requires, or record why it does not apply.",
    )


# Where what a prohibition forbids ends: another clause, an example of a case ("for instance, an
# Architecture: amd64 package …"), or what it allows instead ("other than", "except").
_FORBIDDING: Final = re.compile(
    r"[;:]|\bfor\s+(?:instance|example)\b|\be\.g\.|\bother\s+than\b|\bexcept\b|\bunless\b", re.IGNORECASE
)


def by_forbidden_value(clause: str, act: str, said: str) -> Verdict | None:
    """The verdict on a clause that gives a value a prohibition's act names ("modes like 4711"): a
    value is as specific as a figure, so naming it is doing what the rule forbids; None when the
    clause gives none of them, or does not state it (denies or only mentions it)."""
    forbidden = values(_FORBIDDING.split(act, maxsplit=1)[0])
    if not forbidden:
        return None
    practice = without_purpose(clause)
    given = [value for value in values(practice) if value in forbidden]
    if not given or stance(practice) not in ("does", "permits"):
        return None
    return Verdict(
        True,
        "forbidden_value",
        f"{said} for {', '.join(forbidden)}; the clause gives {', '.join(given)}.",
        "Use a value the rule allows, or record why it does not apply.",
    )
