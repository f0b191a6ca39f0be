"""New directories at the top level of an area a rule keeps closed: "Applications must generally not
add directories to the top level of /var", "creating a new subdirectory of the root filesystem is
prohibited". A clause that adds one ("a new top-level directory, /var/osprey", "/evidence, a
top-level directory that it creates") breaks it; one that writes further down ("/var/lib/osprey") or
elsewhere does not.
"""

import re
from collections.abc import Sequence
from functools import lru_cache
from typing import Final

from actions.audit.quantities import depth, path_within, paths
from actions.audit.verdict import Verdict

_PATH: Final = r"(/[\w./<>*+-]*)"
# The area whose top level the rule keeps closed: "the top level of /var", "the root hierarchy".
_TOP_LEVEL_OF: Final = re.compile(
    rf"\btop[- ]level\s+(?:of|in|under)\s+(?:the\s+)?(?:directory\s+)?{_PATH}", re.I
)
_ROOT: Final = re.compile(r"\broot\s+(?:hierarchy|file\s?system|directory)\b", re.IGNORECASE)
# A rule about adding directories there, and a clause that says its directory is a new one (a clause
# that merely creates files in /tmp adds no directory).
_DIRECTORIES: Final = re.compile(r"\b(?:sub)?director(?:y|ies)\b", re.IGNORECASE)
# A directory of one's own is one added: "into their own subdirectory, such as /usr/bin/fjordline/".
_ADDS: Final = re.compile(r"\b(?:new|top[- ]level|own\s+(?:sub)?director(?:y|ies))\b", re.IGNORECASE)
# "There must be no subdirectories in /usr/bin" (or what its modal words leave of it, "subdirectories
# in /usr/bin"): that area's top level is closed.
_NO_DIRECTORIES_IN: Final = re.compile(
    rf"(?:^\W*|\bno\s+)(?:sub)?director(?:y|ies)\s+(?:in|under|within)\s+{_PATH}", re.I
)


@lru_cache(maxsize=8192)
def closed_top_level(act: str) -> str | None:
    """The area whose top level ``act`` (what a prohibition forbids) keeps free of new directories."""
    if not _DIRECTORIES.search(act):
        return None
    area = _TOP_LEVEL_OF.search(act) or _NO_DIRECTORIES_IN.search(act)
    if area is not None:
        return area.group(1).rstrip("/.") or "/"
    return "/" if _ROOT.search(act) else None


def calls_directory_new(clause: str) -> bool:
    """Whether ``clause`` calls a directory new or top-level (what adding one takes)."""
    return bool(_ADDS.search(clause))


def added_at_top_level(clause: str, area: str, known: Sequence[str] = ()) -> list[str]:
    """The directories ``clause`` adds right under ``area`` ("a new top-level directory, /var/osprey");
    none that a path in ``known`` (the target's own) lies in: the target names it, so it is not new."""
    if not calls_directory_new(clause):
        return []
    return [
        p
        for p in paths(clause, affirmed_only=True)
        if depth(p) == depth(area) + 1 and path_within(p, area) and not any(path_within(k, p) for k in known)
    ]


def by_top_level(clause: str, act: str, negative: bool, said: str) -> Verdict | None:
    """A prohibition of new directories at the top level of an area, against a clause adding one."""
    area = closed_top_level(act) if negative else None
    added = added_at_top_level(clause, area) if area is not None else []
    if area is None or not added:
        return None
    return Verdict(
        True,
        "new_top_level",
        f"{said}: no new directories at the top level of {area}; the clause adds {', '.join(added)}.",
        f"Keep it in a subdirectory of a directory {area} already has, or record why the rule does not apply.",
    )
