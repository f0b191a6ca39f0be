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
# A directory of one's own is one added: "into their own subdirectory, such as /usr/bin/fjordline/", "its
# own tree at /usr/tracksentry/".
_ADDS: Final = re.compile(r"\b(?:new|top[- ]level|own\s+(?:(?:sub)?director(?:y|ies)|tree))\b", re.IGNORECASE)
# "There must be no subdirectories in /usr/bin" (or what its modal words leave of it, "subdirectories
# in /usr/bin"): that area's top level is closed.
# "must not use a direct subdirectory under the /usr hierarchy": so is that area's.
_NO_DIRECTORIES_IN: Final = re.compile(
    rf"(?:^\W*|\bno\s+|\bdirect\s+)(?:sub)?director(?:y|ies)\s+(?:of|in|under|within)\s+(?:the\s+)?{_PATH}",
    re.I,
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


def unknown_at_top_level(clause: str, area: str, known: Sequence[str]) -> list[str]:
    """The directories right under ``area`` that the paths of ``clause`` lie in ("/var/cartwheel" of
    "/var/cartwheel/queue") and that no path of ``known`` (the target's own) lies in: a standard that
    names the directories of an area's top level makes any other one a new one, whether or not the
    clause calls it new. Not for the root, whose top level holds mount points the standard cannot list."""
    if area == "/" or not known:
        return []
    level = depth(area) + 1
    added = []
    for p in paths(clause, affirmed_only=True):
        top = "/" + "/".join([s for s in p.split("/") if s][:level])
        # A path right at that level is a directory where it is written as one ("/usr/quaystone/"), or
        # right under /usr or /var, which hold only directories; "/usr/bin/acme" is a file.
        directory = depth(p) > level or level == _DIRECTORIES_ONLY or f"{p}/" in clause
        if (
            directory
            and depth(p) >= level
            and path_within(p, area)
            and not _PLACEHOLDER.search(top)
            and not any(path_within(k, top) for k in known)
            and top not in added
        ):
            added.append(top)
    return added


#: The depth of the areas whose top level holds only directories (/usr, /var).
_DIRECTORIES_ONLY: Final = 2
# A segment standing for any name ("<package>", "$(prefix)", "*"): no directory of its own.
_PLACEHOLDER: Final = re.compile(r"[<>{}$*]")


def new_directories_verdict(rule: str, modal_words: str, added: Sequence[str]) -> Verdict:
    """The conflict of a clause adding ``added`` at the top level a prohibition keeps closed."""
    area = closed_top_level(rule) or "/"
    return Verdict(
        True,
        "new_top_level",
        f"The rule says “{modal_words}”: no new directories at the top level of {area}; the clause adds "
        f"{', '.join(added)}, which the standard does not name.",
        f"Keep it in a subdirectory of a directory {area} already has, or record why the rule does not apply.",
    )


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
