"""Measured values a rule and a clause can disagree on: quantities with units and bounds, and file paths.

"at most 80 characters", "within 30 days", "no later than 5 days", "up to 120 columns": a number, its
unit (brought to one scale per kind: seconds, characters, bytes, percent…) and its bound (upper,
lower, or exact); a size in pixels ("at least the 22×22 size", "a 16x16 icon") by its area. "/etc/opt", "/opt/<package>/bin": paths, with placeholders (<package>, PACKAGE, *) that match any name.
"""

import re
from dataclasses import dataclass
from typing import Final, Literal

from policypal.rules.number_words import CARDINAL_ALTERNATION, CARDINALS

Bound = Literal["upper", "lower", "exact"]

#: unit word → (kind, factor to the kind's base unit)
_UNITS: Final[dict[str, tuple[str, float]]] = {
    "second": ("time", 1), "minute": ("time", 60), "hour": ("time", 3600), "day": ("time", 86400),
    "business day": ("time", 86400), "working day": ("time", 86400), "week": ("time", 604800),
    "month": ("time", 2629800), "year": ("time", 31557600),
    "character": ("length", 1), "char": ("length", 1), "column": ("length", 1), "letter": ("length", 1),
    "word": ("words", 1), "line": ("lines", 1), "page": ("pages", 1),
    "byte": ("size", 1), "kb": ("size", 1e3), "kib": ("size", 1024), "kilobyte": ("size", 1e3),
    "mb": ("size", 1e6), "mib": ("size", 1048576), "megabyte": ("size", 1e6), "gb": ("size", 1e9),
    "gib": ("size", 1073741824), "gigabyte": ("size", 1e9),
    "percent": ("percent", 1), "%": ("percent", 1), "per cent": ("percent", 1),
    "time": ("count", 1), "attempt": ("count", 1), "retry": ("count", 1), "retries": ("count", 1),
    "reviewer": ("people", 1), "approval": ("people", 1), "maintainer": ("people", 1),
}  # fmt: skip
_UPPER: Final = (
    r"at\s+most|no\s+more\s+than|not\s+more\s+than|no\s+longer\s+than|fewer\s+than|less\s+than|shorter\s+than|"
    r"under|below|up\s+to|maximum(?:\s+of)?|max\.?|within|not\s+(?:to\s+)?exceed(?:ing)?|exceed(?:s|ing)?\s+no|"
    r"no\s+later\s+than|before"
)
_LOWER: Final = (
    r"at\s+least|no\s+less\s+than|not\s+less\s+than|no\s+fewer\s+than|no\s+sooner\s+than|more\s+than|"
    r"longer\s+than|over|above|exceed(?:s|ing)?|minimum(?:\s+of)?|min\.?|after|or\s+more"
)
# Comparators that leave the figure itself out: "more than two characters" is three or more.
_STRICT: Final = re.compile(
    r"^(?:fewer|less|shorter|more|longer)\s+than|^(?:under|below|over|above|exceed(?:s|ing)?)$", re.IGNORECASE
)
_UNIT_WORDS = "|".join(sorted((re.escape(u) for u in _UNITS), key=len, reverse=True))
_QUANTITY = re.compile(
    rf"(?:(?P<upper>{_UPPER})|(?P<lower>{_LOWER}))?\s*\(?"
    rf"(?P<number>\d+(?:[.,]\d+)?|{CARDINAL_ALTERNATION})\)?\s*(?:-\s*)?"
    rf"(?P<unit>{_UNIT_WORDS})(?:e?s)?(?!\w)(?P<after>\s+or\s+(?:more|longer|less|fewer|shorter))?",
    re.IGNORECASE,
)
# A size in pixels, width by height: "16x16", "at least the 22×22 size".
_DIMENSION = re.compile(
    rf"(?:(?P<upper>{_UPPER})|(?P<lower>{_LOWER}))?\s*(?:the\s+)?(?<![\w.])(?P<width>[1-9]\d{{0,4}})\s*[x×]\s*(?P<height>\d{{1,5}})\b",
    re.IGNORECASE,
)
# A path: /segment/segment…, a segment a name or a <placeholder>; "/usr/share/doc/ PACKAGE" as PDFs
# break it at a slash is joined again.
_SEGMENT = r"(?:[\w+-]+(?:\.[\w+-]+)*|<[\w-]+>|\{[\w-]+\}|\*)"
_PATH = re.compile(rf"(?<![\w.:/<>])/\s?{_SEGMENT}(?:/\s?{_SEGMENT})*/?")
# "rather than /usr/local", "instead of /tmp", "not in /etc", "outside /opt": a path turned away from.
_TURNED_AWAY = re.compile(
    r"\b(?:rather\s+than|instead\s+of|not(?:\s+\w+)?|never|no\s+longer|outside(?:\s+of)?)\s*$", re.I
)
# A segment that names any directory or file: <package>, {name}, *, PACKAGE, and the manuals' plain
# "package" ("/usr/share/doc/package", "/var/log/package.log": the package's own name).
_PLACEHOLDER = re.compile(r"^(?:<.*>|\{.*\}|\*|[A-Z][A-Z_-]{2,}|package(?:[-_]?name)?(?:\.\w+)?)$")
# A numbered slot of a kind: "man6", "cat1", "rc3.d".
_NUMBERED_SLOT = re.compile(r"^([a-z]+)\d+(\.\w+)?$")


@dataclass(frozen=True)
class Quantity:
    """A value of one kind on its base scale, and whether the text bounds it above, below or exactly."""

    kind: str
    value: float
    bound: Bound
    words: str
    #: The bound leaves the figure itself out ("more than two", "under 5 days").
    strict: bool = False


def quantities(text: str) -> list[Quantity]:
    """The quantities of ``text`` with units, in order."""
    found: list[tuple[int, Quantity]] = []
    for size in _DIMENSION.finditer(text):
        area = float(size.group("width")) * float(size.group("height"))
        found.append((size.start(), _measured(size, "pixels", area, "")))
    for match in _QUANTITY.finditer(text):
        number = match.group("number").lower().replace(",", "")
        value = float(CARDINALS[number]) if number in CARDINALS else float(number)
        kind, factor = _UNITS[_unit_key(match.group("unit"))]
        found.append(
            (match.start(), _measured(match, kind, value * factor, (match.group("after") or "").lower()))
        )
    return [quantity for _, quantity in sorted(found, key=lambda item: item[0])]


def _measured(match: re.Match[str], kind: str, value: float, after: str) -> Quantity:
    """A quantity of ``kind`` and ``value``, bounded as its comparator (or an "or more" ``after`` it) says."""
    if match.group("upper") or any(w in after for w in ("less", "fewer", "shorter")):
        bound: Bound = "upper"
    elif match.group("lower") or after:
        bound = "lower"
    else:
        bound = "exact"
    comparator = " ".join((match.group("upper") or match.group("lower") or "").split())
    return Quantity(kind, value, bound, " ".join(match.group(0).split()), bool(_STRICT.match(comparator)))


def _unit_key(unit: str) -> str:
    unit = unit.lower()
    if unit in _UNITS:
        return unit
    return next(key for key in _UNITS if unit.startswith(key))


def effective_bound(rule: Quantity, negated: bool) -> Bound | None:
    """The bound a rule sets once its negation is read ("must not be shorter than 12" bounds below).

    None when a negated exact figure ("must not be 0") bounds nothing either way.
    """
    # "must not exceed 80": the negation is the comparator's own, already read as an upper bound.
    negated = negated and not rule.words.lower().startswith(("not ", "no "))
    if not negated:
        return rule.bound
    if rule.bound == "exact":
        return None
    return "lower" if rule.bound == "upper" else "upper"


def breaks_limit(rule: Quantity, negated: bool, clause: Quantity) -> bool | None:
    """Whether ``clause`` goes beyond the limit ``rule`` sets; None when the two do not compare.

    ``negated``: the rule forbids its quantity ("must not exceed 80" bounds above like "at most 80";
    "must not be less than 5 days" bounds below).
    """
    if rule.kind != clause.kind:
        return None
    bound = effective_bound(rule, negated)
    if bound is None:
        return clause.bound == "exact" and clause.value == rule.value
    # Whatever the clause's own bound, its figure past the rule's limit is a breach: "up to 120" or
    # "120" against at most 80; "within 2 days" or "after 2 days" against at least 5 days.
    # A negation turns the bound and its strictness: "must not be more than 5" is at most 5.
    strict = rule.strict != (bound != rule.bound)
    if bound == "upper":
        return clause.value >= rule.value if strict else clause.value > rule.value
    if bound == "lower":
        return clause.value <= rule.value if strict else clause.value < rule.value
    return clause.value != rule.value if clause.bound == "exact" else None


def paths(text: str, *, affirmed_only: bool = False) -> list[str]:
    """The file-system paths of ``text`` ("/etc/opt", "/opt/<package>/bin"), spaces PDFs put in removed.

    ``affirmed_only`` leaves out the paths the text turns away from ("rather than /usr/local").
    """
    text = _BRACES.sub(_alternatives, text)
    return [
        re.sub(r"\s+", "", match.group(0)).rstrip("/.") or "/"
        for match in _PATH.finditer(text)
        if not (affirmed_only and _TURNED_AWAY.search(text[max(0, match.start() - 24) : match.start()]))
    ]


# A shell's alternatives in a path: "/etc/cron.{hourly, daily,weekly,monthly}" names four directories.
_BRACES = re.compile(r"(?<![\w.:/<>])(/[\w./-]*)\{(\s*[\w.-]+(?:\s*,\s*[\w.-]+)+\s*)\}([\w./-]*)")


def _alternatives(braces: re.Match[str]) -> str:
    prefix, suffix = braces.group(1), braces.group(3)
    return ", ".join(f"{prefix}{name.strip()}{suffix}" for name in braces.group(2).split(","))


def path_within(path: str, area: str) -> bool:
    """True when ``path`` is ``area`` or lies inside it; a <placeholder> segment of ``area`` matches any name."""
    inner = [s for s in path.split("/") if s]
    outer = [s for s in area.split("/") if s]
    if len(inner) < len(outer):
        return False
    return all(bool(_PLACEHOLDER.match(o)) or o == i for o, i in zip(outer, inner, strict=False))


def holds(path: str, area: str) -> bool:
    """True when ``path`` is a directory above ``area`` ("/usr/share/doc/acme" above
    "/usr/share/doc/<package>/copyright"; a <placeholder> of ``area`` matches any name)."""
    levels = depth(path)
    above = [s for s in area.split("/") if s][:levels]
    # The area cut to the path's depth: the path must be that (its placeholders matching any name).
    return levels < depth(area) and path_within(path, "/" + "/".join(above))


def same_area(path: str, area: str) -> bool:
    """True when ``path`` lies within ``area``, or within another numbered slot of the same kind
    ("/usr/share/man/man1" for a rule about "/usr/share/man/man6": the games' section, not a
    misplaced manual page)."""
    if path_within(path, area):
        return True
    outer = [s for s in area.split("/") if s]
    inner = [s for s in path.split("/") if s]
    slot = _NUMBERED_SLOT.match(outer[-1]) if outer else None
    if slot is None or len(inner) < len(outer):
        return False
    other = _NUMBERED_SLOT.match(inner[len(outer) - 1])
    return (
        other is not None
        and other.groups() == slot.groups()
        and path_within("/" + "/".join(inner[: len(outer) - 1]), "/" + "/".join(outer[:-1]))
    )


def depth(path: str) -> int:
    """How many segments a path has: "/usr" 1, "/usr/local" 2."""
    return len([s for s in path.split("/") if s])
