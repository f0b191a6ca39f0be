"""A value other than the one a rule requires: "must be encoded in UTF-8" against "written in
Latin-1", "mode 644 or 755" against "mode 0777", "TLS 1.2" against "TLS 1.0"; and a value a rule
forbids by name: "should not be made unreadable (modes like 4711 or 2711)" against "mode 4711".

A value is a token with a digit in it, outside paths and measured quantities (``quantities`` reads
those), or the name of a format: a character set ("ASCII"), a number base ("decimal"), a compression
("gzip"), a data or document format ("JSON", "Texinfo"), a letter case ("camelCase"). Two values are
of one kind when both are numbers ("644", "1.2"), both names with letters and digits, or both formats
of one kind: "ASCII-encoded decimal" against "a raw binary integer"; a data format takes a number
base's place too ("a JSON object" against "decimal"). A clause that names what the
rule's subject names (``placement.names_subject``) and a value of a kind the rule's act requires, but
none of the values it allows of that kind, breaks it.
"""

import re
from collections.abc import Mapping
from functools import lru_cache
from typing import Final, Literal

from actions.audit.placement import names_subject
from actions.audit.polarity import affirmed_match, stance, without_purpose
from actions.audit.quantities import paths, quantities
from actions.audit.verdict import Verdict

Kind = Literal["number", "code", "charset", "base", "compression", "data", "document", "case"]

# Formats by kind, each with its spellings (the first names it): the alternatives one rule's act can
# require of a thing and a clause give instead.
_FORMATS: Final[Mapping[Kind, tuple[tuple[str, ...], ...]]] = {
    "charset": (
        ("ascii", "us-ascii"),
        ("utf-8", "utf8"),
        ("utf-16",),
        ("utf-32",),
        ("latin-1", "latin1", "iso-8859-1"),
        ("iso-8859-15", "latin-9"),
        ("ebcdic",),
        ("windows-1252", "cp1252"),
    ),
    "base": (
        ("decimal",),
        ("hexadecimal", "hex"),
        ("octal",),
        # A byte order is the order of a binary number's bytes ("a raw 4-byte little-endian integer").
        ("binary", "little-endian", "big-endian"),
    ),
    "compression": (
        ("gzip", "gzipped", "gzip-compressed"),
        ("bzip2", "bzip2-compressed"),
        ("xz", "xz-compressed"),
        ("lzma",),
        ("zstd",),
        ("zip",),
        ("lzip",),
    ),
    "data": (("json",), ("yaml",), ("xml",), ("csv",), ("toml",), ("protobuf",)),
    "document": (
        ("texinfo",),
        ("html",),
        ("pdf",),
        ("markdown",),
        ("docbook",),
        ("postscript",),
        ("troff", "nroff"),
    ),
    "case": (
        ("lower case", "lower-case", "lowercase"),
        ("upper case", "upper-case", "uppercase"),
        ("camel case", "camelcase"),
        ("snake case", "snake_case"),
        ("kebab case", "kebab-case"),
    ),
}
# Kinds whose values also take the place of a required kind's: a number written in a base is no
# structured data ("a single-line JSON object" is not "the process identifier in ASCII-encoded
# decimal"), where a character set says nothing of either.
_ALSO_OF: Final[Mapping[Kind, tuple[Kind, ...]]] = {"base": ("data",)}
# Each spelling by the format it names.
_FORMAT_NAMED: Final[Mapping[str, str]] = {
    spelling: spellings[0] for kind in _FORMATS.values() for spellings in kind for spelling in spellings
}
# Spellings that name a format only in context: "binary" of a number's form, not a "binary package".
_IN_CONTEXT: Final[Mapping[str, str]] = {
    "binary": r"binary(?=\s+(?:integer|number|value|form|format|representation))",
}
_FORMAT: Final = re.compile(
    r"(?<![\w/.-])(?:"
    + "|".join(
        f"(?P<{kind}>{'|'.join(_IN_CONTEXT.get(s, re.escape(s)) for spellings in formats for s in spellings)})"
        for kind, formats in _FORMATS.items()
    )
    # "ASCII-encoded", "gzip-compressed" name the format; "ascii-art" or "html-escape" do not.
    + r")(?![\w/]|-(?!(?:encoded|compressed|formatted)\b)\w)",
    re.IGNORECASE,
)

_FIGURE_AFTER: Final = re.compile(r"\s+(?:[a-z]+\s+)?\d", re.IGNORECASE)

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
        if not _DIGIT.search(token) or token.lower() in _FORMAT_NAMED:
            continue
        kind: Kind = "number" if re.fullmatch(r"[\d.]+", token) else "code"
        # "1" or "12" alone is a count or a footnote mark, not a setting.
        if kind == "number" and _NOTE_MARK.match(token):
            continue
        # "0644" and "644" are one mode: a whole number's leading zeros say nothing.
        if kind == "number" and re.fullmatch(r"0+\d+", token):
            token = token.lstrip("0") or "0"
        named[token.lower()] = kind
    for match in _FORMAT.finditer(text):
        kind = next(kind for kind in _FORMATS if match.group(kind))
        # "octal mode 755" says how the figure is written: the figure is the value.
        if kind == "base" and _FIGURE_AFTER.match(text, match.end()):
            continue
        named[_FORMAT_NAMED[match.group(0).lower()]] = kind
    return named


# An instruction to see to a state of things: what follows "that", up to its verb, is its subject.
_ENSURED: Final = re.compile(
    r"^\W*(?:make\s+sure|ensure|see\s+to\s+it)\s+(?:that\s+)?(?P<subject>[^,;:]+?)\s+"
    r"(?:is|are|be|has|have|gets?|stays?|remains?|uses?)\b",
    re.IGNORECASE,
)


def by_other_value(
    clause: str, subject: str, act: str, said: str, weights: Mapping[str, float]
) -> Verdict | None:
    """The verdict on a clause naming what the rule's subject names, by the values it gives it; None
    when the rule's act requires no value, or the clause gives none of that kind."""
    required = values(act)
    if not required:
        return None
    # "Make sure that all the files in the distribution are world-readable (… mode 755)": an instruction
    # names what it binds inside its act.
    if not subject and (ensured := _ENSURED.match(act)):
        subject = ensured.group("subject")
    practice = without_purpose(clause)
    given = values(practice)
    # A value of a kind the rule requires, where the clause gives none the rule allows of that kind:
    # "hexadecimal" breaks "ASCII-encoded decimal" even beside "ASCII".
    kept = {required[value] for value in given.keys() & required.keys()}
    open_kinds = set(required.values()) - kept
    open_kinds |= {other for kind in open_kinds for other in _ALSO_OF.get(kind, ())}
    others = [value for value, kind in given.items() if kind in open_kinds]
    if not kept and not others:
        return None
    # The thing a value is given to is named before it ("Installed files are given mode 0777"): files
    # "opened with mode 0600, in the directory named by TMPDIR" give the directory no mode.
    lowered = practice.lower()
    at = [lowered.find(value) for value in (*given.keys() & required.keys(), *others)]
    first = min((position for position in at if position >= 0), default=len(practice))
    named = names_subject(practice[:first], subject, weights, files_by_path=True)
    if not named or stance(practice) not in ("does", "permits"):
        return None
    by_kind: dict[Kind, list[str]] = {}
    for value, kind in required.items():
        by_kind.setdefault(kind, []).append(value)
    allowed = " and ".join(" or ".join(alternatives) for alternatives in by_kind.values())
    if not others:
        return Verdict(False, "other_value", f"{said} and requires {allowed}; the clause keeps to it.")
    return Verdict(
        True,
        "other_value",
        f"{said} and requires {allowed}; the clause gives {', '.join(others)} instead.",
        f"Use {allowed} as the rule requires, or record why it does not apply.",
    )


# Where what a prohibition forbids ends: another clause, an example of a case ("for instance, an
# Architecture: amd64 package …"), or what it allows instead ("other than", "except").
_FORBIDDING: Final = re.compile(
    r"[;:]|\bfor\s+(?:instance|example)\b|\be\.g\.|\bother\s+than\b|\bexcept\b|\bunless\b", re.IGNORECASE
)


def labelled_value(subject: str) -> str:
    """The value a list item is labelled with, where the rule's subject refers back to it ("65535: This
    value must not be used" → "65535", "4294967294: (uid_t)(-2)" → "4294967294"); "" for any other
    subject."""
    labelled = _LABELLED_SUBJECT.match(subject)
    return (labelled.group("value") or labelled.group("number")) if labelled else ""


# "65535: This value", or a number labelling the expression that yields it ("4294967294: (uid_t)(-2)").
_LABELLED_SUBJECT: Final = re.compile(
    r"^\W*(?:(?P<value>[\w.-]*\d[\w.-]*)\s*:\s*(?:this|that|the)\s+(?:value|number|id|uid|gid)\b|"
    r"(?P<number>\d{3,})\s*:\s*\()",
    re.IGNORECASE,
)


@lru_cache(maxsize=8192)
def forbidden_values(subject: str, act: str) -> frozenset[str]:
    """The values a prohibition forbids by name: those its act names before what it allows instead
    ("modes like 4711"), and the value its subject is labelled with ("65535: This value")."""
    return frozenset(values(_FORBIDDING.split(act, maxsplit=1)[0])) | frozenset(
        values(labelled_value(subject))
    )


def by_forbidden_value(clause: str, subject: str, act: str, said: str) -> Verdict | None:
    """The verdict on a clause that gives a value a prohibition forbids by name (``forbidden_values``):
    a value is as specific as a figure, so naming it is doing what the rule forbids; None when the
    clause gives none of them, or does not state it (denies or only mentions it)."""
    forbidden = sorted(forbidden_values(subject, act))
    if not forbidden:
        return None
    practice = without_purpose(clause)
    # What the clause says up to the value decides: "created with GID 65535, a number adduser never
    # hands out" gives it; the denial after it is said of something else.
    given = [
        value
        for value in values(practice)
        if value in forbidden
        and affirmed_match(re.compile(rf"(?<![\w.])0*{re.escape(value)}(?![\w])", re.IGNORECASE), practice)
    ]
    if not given:
        return None
    return Verdict(
        True,
        "forbidden_value",
        f"{said} for {', '.join(forbidden)}; the clause gives {', '.join(given)}.",
        "Use a value the rule allows, or record why it does not apply.",
    )
