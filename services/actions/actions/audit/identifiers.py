"""Identifiers a rule requires by name, and a clause that goes without them.

A command-line option ("-g", "--silent") or an environment variable ("DEB_BUILD_OPTIONS", "TMPDIR") is
as specific as a word gets: a rule that requires it by name ("the Make rules should compile and link
with ‘-g’") is broken by a clause that denies it by name ("our Makefiles build without -g"), whatever
else the two share; and what a rule rules out by a name in code form ("don’t compute it from
argv[0]") is ruled out as specifically as by the rule's own rare verb (``judgement``).
"""

import re
from collections.abc import Mapping
from functools import lru_cache
from typing import Final

from actions.audit.key_terms import key_terms
from actions.audit.polarity import affirms, denied_scopes, negated_scopes, turned_away_scopes

# An option after a space, a quote or a bracket ("-g", "--with-", "--enable-foo"), a name of capitals
# and underscores with at least one underscore or digit, or four capitals or more; a name in code
# form: indexed ("argv[0]"), called ("malloc()") or in snake case ("retention_days").
_IDENTIFIER: Final = re.compile(
    r"(?:(?<=[\s‘'\"“(\[`])|^)--?[A-Za-z][\w-]*|\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\b|\b[A-Z]{4,}[0-9]*\b|"
    r"\b[A-Za-z_]\w*(?:\[\w*\]|\(\))|\b[a-z][a-z0-9]*_[a-z0-9_]+\b"
)
# Capitals that are words, not names: "POSIX", "GNU", "ASCII", "UNIX".
_WORDS_IN_CAPITALS: Final = frozenset(
    {"POSIX", "ASCII", "UNIX", "NOTE", "WARNING", "MUST", "SHALL", "SHOULD"}
)


def identifiers(text: str) -> dict[str, str]:
    """The options and variable names ``text`` names, by their name without dashes, lower case
    ("‘-g’" → {"g": "-g"})."""
    return {
        _key(name): name
        for name in (m.group(0) for m in _IDENTIFIER.finditer(text))
        if name not in _WORDS_IN_CAPITALS
    }


def _key(name: str) -> str:
    """An identifier by its name without dashes, lower case ("--Help" → "help")."""
    return name.strip("-").lower()


# A name given a value in code form: "DESTDIR = /srv/stage", "CFLAGS ?= -O2", "prefix:=/opt".
_ASSIGNMENT: Final = re.compile(r"\b(?P<name>[A-Za-z_][A-Za-z0-9_]*)\s*[?:+]?=(?!=)\s*\S")
# What an assignment on a command line follows: the command, or another such assignment ("make
# CC=gcc DESTDIR=/tmp/stage install" passes values to a run, and sets nothing in a file).
_COMMAND_LINE: Final = re.compile(r"(?:\b(?:make|gmake|configure|env)|\S=\S*)\s+$")


def assigned_identifiers(text: str) -> frozenset[str]:
    """The identifiers ``text`` assigns a value to, by key ("added DESTDIR = /srv/stage" → {"destdir"}):
    an assignment sets what it names, whatever verb the sentence uses; one on a command line does not."""
    return frozenset(
        _key(m.group("name"))
        for m in _ASSIGNMENT.finditer(text)
        if not _COMMAND_LINE.search(text[: m.start()]) and affirms(text[: m.end()])
    )


@lru_cache(maxsize=8192)
def identifier_terms(text: str) -> frozenset[str]:
    """The key terms of the identifiers ``text`` names ("don’t compute it from argv[0]" → argv)."""
    return frozenset().union(*(key_terms(name) for name in identifiers(text).values()))


@lru_cache(maxsize=8192)
def denied_identifiers(clause: str) -> Mapping[str, str]:
    """The identifiers ``clause`` denies by name ("builds without -g" → {"g": "-g"})."""
    return {key: name for scope in denied_scopes(clause) for key, name in identifiers(scope).items()}


def lacked_identifiers(clause: str, act_terms: frozenset[str]) -> Mapping[str, str]:
    """The identifiers ``clause`` goes without: denied by name alone ("builds without -g", "has no
    --version option") or with a verb of having them or of the rule's act (``act_terms``: "no longer
    understands --help"), or taken away ("we removed the --help option"); not an act of its own done
    to them ("never assigns a value to DESTDIR")."""
    lacked: dict[str, str] = {}
    for scope in denied_scopes(clause):
        for match in _IDENTIFIER.finditer(scope):
            said = key_terms(scope[: match.start()])
            if said <= _HAVING | act_terms and match.group(0) not in _WORDS_IN_CAPITALS:
                lacked[_key(match.group(0))] = match.group(0)
    # "We removed the --help option": taking it away leaves the program without it.
    if affirms(clause):
        for removal in _REMOVED.finditer(clause):
            named = _IDENTIFIER.match(removal.group("name"))
            if named is not None and named.group(0) not in _WORDS_IN_CAPITALS:
                lacked[_key(named.group(0))] = named.group(0)
    return lacked


# Taking an option or a variable away: the verb, then what it takes away, first after any article.
_REMOVED: Final = re.compile(
    r"\b(?:remov|drop|delet|retir|discontinu|withdr[ae]w)\w*\s+(?:(?:the|its|our|their|support\s+for)\s+)*"
    r"[‘'\"“`]?(?P<name>\S+)",
    re.IGNORECASE,
)


# Verbs of having an option or a variable, or of answering to it.
_HAVING: Final = key_terms(
    "have has had support supports accept accepts understand understands implement implements provide "
    "provides offer offers recognise recognize recognises recognizes honour honor honours honors handle "
    "handles take takes answer answers respond responds print prints longer any option options flag flags "
    "switch switches variable variables"
)


@lru_cache(maxsize=8192)
def required_identifiers(act: str) -> Mapping[str, str]:
    """The identifiers an obligation's ``act`` requires: those it names outside what it negates or
    turns away from ("use --verbose rather than -v" requires --verbose only)."""
    ruled_out = {key for scope in negated_scopes(act) + turned_away_scopes(act) for key in identifiers(scope)}
    return {key: name for key, name in identifiers(act).items() if key not in ruled_out}
