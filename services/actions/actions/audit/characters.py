"""The characters a rule allows in a name, or forbids there, against the names a clause gives.

"Package names must consist only of lower case letters (a-z), digits (0-9), plus (+) and minus (-)
signs, and periods (.)" against "as in Kestrel_Agent"; "A cron job file name must not include any
period or plus characters" against "installed as /etc/cron.d/kestrel.agent, with the dot". A rule
says which characters by class ("lower case letters", "alphanumerics"), by name ("period", "tilde")
or by the characters themselves ("the characters . + - ~"). A clause gives a name as an example ("as
in", "such as", "e.g."), as what something is called or installed as, or in quotes; or it names a
character in words ("with the dot", "underscores are allowed").
"""

import re
import string
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Final

from actions.audit.key_terms import key_terms
from actions.audit.placement import names_subject
from actions.audit.polarity import affirms, denied_terms, rule_act, rule_subject, without_purpose
from actions.audit.quantities import paths
from actions.audit.verdict import Verdict

_CLASSES: Final[dict[str, frozenset[str]]] = {
    "alphanumerics?": frozenset(string.ascii_letters + string.digits),
    "alphanumeric\\s+characters": frozenset(string.ascii_letters + string.digits),
    "(?:lower[\\s-]*case|lowercase)\\s+letters?": frozenset(string.ascii_lowercase),
    "(?:upper[\\s-]*case|uppercase|capital)\\s+letters?|capitals": frozenset(string.ascii_uppercase),
    "letters": frozenset(string.ascii_letters),
    "digits|numerals": frozenset(string.digits),
}
_NAMED: Final[dict[str, str]] = {
    "periods?|full\\s+stops?|dots?": ".",
    "plus(?:\\s+signs?)?": "+",
    "minus(?:\\s+signs?)?|hyphens?|dashes": "-",
    "tildes?": "~",
    "underscores?": "_",
    "colons?": ":",
    "spaces?|whitespace": " ",
}
# A footnote mark may be glued to the class ("alphanumerics⁶" reads "alphanumerics6").
_CLASS: Final = re.compile(r"\b(" + "|".join(f"(?:{p})" for p in _CLASSES) + r")(?=\d{0,2}\b)", re.IGNORECASE)
_CHARACTER_WORD: Final = re.compile(r"\b(" + "|".join(f"(?:{p})" for p in _NAMED) + r")\b", re.IGNORECASE)
# The characters themselves, standing alone ("the characters . + - ~") or in parentheses ("(+)", "(a-z)").
_SYMBOL: Final = re.compile(r"(?:(?<=\s)|(?<=\())([.+~_:-])(?=[\s),]|$)")
_RANGE: Final = re.compile(r"\(([a-zA-Z0-9])-([a-zA-Z0-9])\)")
_ONLY: Final = re.compile(r"\b(?:only|solely|exclusively)\b", re.IGNORECASE)
_INCLUDE: Final = re.compile(r"\b(?:include|contain|use|have)\b", re.IGNORECASE)
#: The words a clause gives an example after.
EXAMPLE_CUES: Final = r"as\s+in|such\s+as|e\.g\.,?|for\s+example"
# Where a clause gives a name: as an example, as what a thing is called or installed as (quoted or
# in code form: "installed as `/etc/cron.d/x.y`"), in quotes.
_GIVEN: Final = re.compile(
    rf"(?:\b(?:{EXAMPLE_CUES}|(?<!-)(?:called|named)(?!\s+(?:after|by|for|from|in|on|with)\b)|"
    r"(?:(?:install|ship|publish|packag|releas|upload)(?:ed|es|s)?|shipped)\s+as)\s+[\"“'`‘]?"
    r"|[\"“'`])([\w.+~:/-]*\w)",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class CharacterRule:
    """The characters a rule allows (``only``) or forbids in what its subject names."""

    characters: frozenset[str]
    allows_only: bool
    words: str


@lru_cache(maxsize=8192)
def character_rule(act: str, negative: bool) -> CharacterRule | None:
    """The characters the rule's act allows only, or (a prohibition) forbids; None when it names none."""
    only = _ONLY.search(act)
    include = _INCLUDE.search(act)
    if only and not negative:
        listed = act[only.end() :]
    elif include and negative and not only:
        listed = act[include.end() :]
    else:
        return None
    # What the list is of ends with the sentence's first clause ("… and should start with a digit").
    listed = re.split(r"[;:]|\band\s+(?:is|are|should|must|may)\b|\bas\s+this\b", listed, maxsplit=1)[0]
    characters = set(_in_words(listed))
    for match in _RANGE.finditer(listed):
        characters |= {chr(c) for c in range(ord(match.group(1)), ord(match.group(2)) + 1)}
    characters |= {m.group(1) for m in _SYMBOL.finditer(listed)}
    if not characters:
        return None
    words = re.sub(r"^(?:of|from)\s+", "", " ".join(listed.split())).rstrip(".;, ")
    return CharacterRule(frozenset(characters), bool(only), words)


@lru_cache(maxsize=8192)
def rules_characters(rule: str, modal_words: str, negative: bool) -> bool:
    """Whether ``rule`` allows only, or forbids, characters in what its subject names (asked of every
    rule of a target by the matching: read once per rule)."""
    return character_rule(rule_act(rule, modal_words), negative) is not None


def gives_names(clause: str) -> bool:
    """Whether ``clause`` gives a name (an example, what a thing is called or packaged as)."""
    return next(given_names(clause), None) is not None


def names_whole_subject(clause: str, rule: str, modal_words: str) -> bool:
    """Whether ``clause`` names every key term of the rule's subject, its asides left out ("package"
    and "name" of "Package names (both source and binary, see Package) must …"): a clause met by the
    name it gives, not by what it is about, must say whose name it is."""
    return _names_all_of(with_path_words(clause), rule_subject(rule, modal_words))


def _installed_as(given: re.Match[str]) -> bool:
    """Whether a name ``_GIVEN`` found is a path a thing is installed or shipped as."""
    return "/" in given.group(1) and bool(_AS.search(given.group(0)))


def _names_all_of(named: str, subject: str) -> bool:
    """Whether ``named`` (a clause ``with_path_words``) names every key term of ``subject``, its asides
    left out."""
    terms = key_terms(_ASIDE.sub(" ", subject))
    return bool(terms) and terms <= key_terms(named)


def with_path_words(clause: str) -> str:
    """``clause`` with the words of the paths it installs or ships things as, and "file name": a job
    "installed as /etc/cron.d/tidemark.prune" is a cron job whose file name is "tidemark.prune"; and
    with "name" where it says what a thing is called ("a binary package called `Acme-Tides`" gives the
    package's name)."""
    given = [m.group(1) for m in _GIVEN.finditer(clause) if _installed_as(m)]
    called = " name" if _CALLED.search(clause) else ""
    if not given:
        return f"{clause}{called}"
    words = " ".join(_path_words(path) for path in given)
    return f"{clause} {words}{called}"


_ASIDE: Final = re.compile(r"\([^()]*\)")
_AS: Final = re.compile(r"\bas\s", re.IGNORECASE)
# "published as Isobath_RefGrids" names the thing published as much as "called" does, and so does an
# example in code form or quotes ("Application packages carry the family in capitals, for example
# `QuayPOS-core`" gives package names).
_CALLED: Final = re.compile(
    r"(?<![\w-])(?:called|named|(?:publish|packag|releas|upload)(?:ed|es|s)?\s+as)\s+[\"“'`‘]?[\w.+~:-]*\w"
    rf"|\b(?:{EXAMPLE_CUES})\s+[\"“'`‘][\w.+~:-]*\w",
    re.IGNORECASE,
)


def files_of_kind(clause: str, subject: str) -> list[str]:
    """The paths of ``clause`` that lie in a directory named for the kind of thing the rule's subject
    names ("/etc/cron.d/kestrel.compact" for "A cron job file name"): each is a file of that kind, its
    last part the file's name, whatever verb the clause places it with ("runs nightly from …")."""
    kinds = key_terms(_ASIDE.sub(" ", subject)) - _GENERIC
    return [
        path
        for path in paths(clause)
        if "/" in path.strip("/") and kinds & key_terms(_path_words(path.rsplit("/", 1)[0]))
    ]


def _path_words(path: str) -> str:
    """The words of ``path`` and "file name"; a placeholder ("<package>") names no thing."""
    return f"{re.sub(r'[/._-]+', ' ', _PLACEHOLDER.sub(' ', path))} file name"


_PLACEHOLDER: Final = re.compile(r"<[^<>/]*>")


# Words of every subject on names: they say a thing has a name, not what kind of thing it is.
_GENERIC: Final = key_terms("file files name names directory directories")


def names_characters(text: str) -> bool:
    """Whether ``text`` names characters by class or by name ("lower case letters", "period")."""
    return bool(_CLASS.search(text) or _CHARACTER_WORD.search(text) or _RANGE.search(text))


def given_names(clause: str) -> Iterator[str]:
    """The names ``clause`` gives: examples, what a thing is called or installed as, quoted names (of a
    path, its last part: "installed as /etc/cron.d/kestrel.agent"). A path alone names a place."""
    for match in _GIVEN.finditer(clause):
        name = match.group(1)
        yield name.rsplit("/", 1)[-1] if "/" in name else name


def named_characters(clause: str) -> frozenset[str]:
    """The characters ``clause`` names in words and does not deny ("with the dot", "underscores")."""
    return _in_words(clause, denied_terms(clause))


def _in_words(text: str, denied: frozenset[str] = frozenset()) -> frozenset[str]:
    """The characters ``text`` names by class or by name, but those named in ``denied`` terms."""
    found: set[str] = set()
    for pattern, table in ((_CLASS, _CLASSES), (_CHARACTER_WORD, _NAMED)):
        for match in pattern.finditer(text):
            if not key_terms(match.group(1)) & denied:
                found |= next(set(c) for p, c in table.items() if re.fullmatch(p, match.group(1), re.I))
    return frozenset(found)


def by_characters(
    clause: str, subject: str, act: str, negative: bool, said: str, weights: Mapping[str, float]
) -> Verdict | None:
    """The verdict on a clause naming what the rule's subject names, by the characters of the names it
    gives or the characters it names; None when the rule names no characters or the clause none."""
    ruled = character_rule(act, negative)
    if ruled is None:
        return None
    practice = without_purpose(clause)
    # Where the clause gives a name, what it says up to that name decides ("a package called
    # `Acme-Tides`, so laptops that never need it can skip it" gives the name all the same).
    found = list(_GIVEN.finditer(clause))
    kind_paths = files_of_kind(practice, subject)
    ends = [m.end() for m in found] + [clause.find(path) + len(path) for path in kind_paths if path in clause]
    if not affirms(clause[: max(ends)] if ends else clause):
        return None
    # Whose names they are must be said in full ("function names such as read_config" are no package
    # names, "the `Uploaders` field" names no package, nor does a placeholder: "/usr/share/doc/<package>"),
    # but where the directory of a path says it ("ships as /etc/cron.d/x.y").
    named = " ".join(
        [with_path_words(_PLACEHOLDER.sub(" ", practice)), *(_path_words(path) for path in kind_paths)]
    )
    if not names_subject(named, subject, weights):
        return None
    if not kind_paths and not _names_all_of(named, subject):
        return None
    # Examples are given after a comma ("…, as in 4.1.0_hf1234"), which a reason's pattern would drop.
    given = list(dict.fromkeys([*given_names(clause), *(path.rsplit("/", 1)[-1] for path in kind_paths)]))
    outside = [name for name in given if _breaks(frozenset(name), ruled)]
    # Characters named in words count where the clause gives no name: a name it gives shows what it
    # does ("/etc/cron.d/gatewarden-export, with a hyphen instead of a dot").
    broken = [] if given else sorted(c for c in named_characters(clause) if _breaks(frozenset(c), ruled))
    if not outside and not broken:
        if given:
            keeps = "keep to" if ruled.allows_only else "keep clear of"
            return Verdict(False, "characters", f"{said}; the names the clause gives {keeps} {ruled.words}.")
        return None
    what = ", ".join(f"“{n}”" for n in outside) if outside else _described(broken)
    rule_says = f"allows only {ruled.words}" if ruled.allows_only else f"forbids {ruled.words}"
    return Verdict(
        True,
        "characters",
        f"{said} (it {rule_says}); the clause gives {what}.",
        "Use only the characters the rule allows, or record why it does not apply.",
    )


def _breaks(characters: frozenset[str], ruled: CharacterRule) -> bool:
    if ruled.allows_only:
        return bool(characters - ruled.characters)
    return bool(characters & ruled.characters)


def _described(characters: Sequence[str]) -> str:
    """Characters in words: letters and digits by class, others as themselves."""
    classes = [
        ("capital letters", string.ascii_uppercase),
        ("lower case letters", string.ascii_lowercase),
        ("digits", string.digits),
    ]
    named = [name for name, members in classes if set(characters) & set(members)]
    others = [f"“{c}”" for c in characters if not c.isalnum()]
    return ", ".join([*named, *others])
