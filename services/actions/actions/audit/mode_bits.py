"""Who may read or write a file, as a rule says it in words, against the octal modes a clause gives.

"Make sure that all the files in the distribution are world-readable" is broken by "the files in the
release tarball are mode 0600"; "They should not be made unreadable" by "installed with mode 0711";
"must not be world-writable" by "directories are mode 0777", and "/run should not be writable for
unprivileged users" by "/run is set to mode 1777". A umask gives modes too: "rolled with umask 077"
makes files 0600 and directories 0700. The rule names no figure, so the value readings
(``values``) cannot compare; the bits of the mode can.
"""

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Final

from actions.audit.key_terms import key_terms
from actions.audit.polarity import affirms, denies, without_purpose
from actions.audit.verdict import Verdict

# What a rule says of everyone else's access (the world's, or any user's but the owner's), and the bit
# of the mode that grants it (the "other" digit: 4 read, 2 write). "Unreadable" is the want of the read
# bit.
_EVERYONE: Final = (
    r"\s+(?:by|for|to)\s+(?:everyone|anyone|all\s+users|any\s+users?|other\s+users|"
    r"(?:unprivileged|ordinary|normal|regular|non-root)\s+users)"
)
_ACCESS: Final = re.compile(
    rf"\b(?:(?P<readable>world[- ]readable|readable{_EVERYONE})|"
    rf"(?P<writable>world[- ]writ(?:e)?able|writ(?:e)?able{_EVERYONE})|"
    r"(?P<unreadable>unreadable))\b",
    re.IGNORECASE,
)
_BITS: Final = {"readable": 4, "writable": 2, "unreadable": 4}
# A mode a clause gives: "mode 0600", "modes 0644", "chmod 600", "-m 600", "permissions 0700"; and a
# umask, from which files (0666) and directories (0777) take their modes.
_MODE: Final = re.compile(
    r"\b(?:modes?|chmod|permissions?|perms)\s+(?:of\s+|to\s+|is\s+|are\s+)?(?P<mode>0?[0-7]{3,4})\b|"
    r"(?<![\w-])-m\s*(?P<flag>0?[0-7]{3,4})\b|\bumask\s+(?P<umask>0?[0-7]{3})\b",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class _Access:
    """What a rule says of everyone's access: the bit, whether it is wanted, and the words saying so."""

    bit: int
    wanted: bool
    words: str
    start: int


def by_mode_bits(clause: str, subject: str, act: str, negative: bool, said: str) -> Verdict | None:
    """The verdict on the modes ``clause`` gives under a rule whose ``act`` says who may read or write
    (``negative``: the rule forbids what its act says); None when either says nothing of it, or the
    clause does not speak of what the rule's ``subject`` binds."""
    access = _access(act, negative)
    if access is None:
        return None
    practice = without_purpose(clause)
    modes = _modes(practice)
    # What the rule binds is named before its words on access: its subject, or the start of an
    # instruction's act ("Make sure that all the files in the distribution are world-readable").
    if not modes or not key_terms(f"{subject} {act[: access.start]}") & key_terms(clause):
        return None
    wrong = list(
        dict.fromkeys(written for written, mode in modes if bool(mode & access.bit) is not access.wanted)
    )
    if wrong:
        return Verdict(
            True,
            "mode_bits",
            f"{said} {access.words}; the clause gives {', '.join(wrong)}.",
            "Give a mode that grants or withholds that access as the rule says, or record why it does not apply.",
        )
    return Verdict(False, "mode_bits", f"{said} {access.words}; the clause's modes keep it.")


@lru_cache(maxsize=8192)
def _access(act: str, negative: bool) -> _Access | None:
    """What the act's first statement says of everyone's access; None where it says nothing, or only
    in a denial of its own ("should have mode 4754; again there is no point in making them unreadable")."""
    statement = act.split(";", 1)[0]
    found = _ACCESS.search(statement)
    if found is None or denies(statement[: found.start()]):
        return None
    kind = next(name for name in _BITS if found.group(name))
    # "should not be made unreadable" wants the read bit; "must be world-readable" too; "must not be
    # world-writable" wants the write bit withheld.
    wanted = (kind == "unreadable") is negative
    return _Access(_BITS[kind], wanted, found.group(0), found.start())


def _modes(clause: str) -> list[tuple[str, int]]:
    """The modes ``clause`` gives, as written, with their "other" digit; a umask gives the modes of
    files and of directories. A mode is left out where the clause denies what it says up to it."""
    found = []
    for match in _MODE.finditer(clause):
        if not affirms(clause[: match.end()]):
            continue
        if match.group("umask"):
            other = int(match.group("umask")[-1])
            found += [(match.group(0), 6 & ~other), (match.group(0), 7 & ~other)]
        else:
            found.append((match.group(0), int((match.group("mode") or match.group("flag"))[-1])))
    return found
