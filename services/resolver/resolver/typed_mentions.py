"""Mentions typed by hand, with a version: "@GPL 2", "@GPL(v3)", "@Debian Social Contract 1.0".

The composer sends picked documents as ids; a user who types the mention instead sends only text.
Such a mention names a title (written out, run together, or by its acronym, "GPL" for "GNU General
Public License") and may carry a version (after a space or in brackets). It counts as a tagged
document when it names exactly one title of the user's catalog and, with a version, exactly one
version of it; a bare "@GPL" with two versions is left to the other rules, which ask.
"""

import re
from collections.abc import Sequence
from dataclasses import dataclass

from policypal.state import DocumentRecord
from resolver.matching import acronym_within, compact, stands_for
from resolver.mentions import ACTION_TAGS
from resolver.version_order import names_version

_TYPED = re.compile(
    r"(?<![\w@])@(?P<name>[A-Za-z][\w&'.-]*(?:[ \t]+[A-Z][\w&'.-]*)*)"
    r"(?:[ \t]*\([ \t]*(?P<paren>v?\d+(?:\.\d+)*)[ \t]*\)|[ \t]+(?P<plain>v?\d+(?:\.\d+)*)\b)?"
)
_MIN_NAME = 3


@dataclass(frozen=True)
class TypedMention:
    """A typed mention that names one document, and where it is in the message."""

    document: DocumentRecord
    start: int
    end: int


def typed_mentions(
    text: str, catalog: Sequence[DocumentRecord], *, taken: Sequence[tuple[int, int]] = ()
) -> list[TypedMention]:
    """The typed mentions in ``text`` that name one document of ``catalog``, outside the ``taken`` spans."""
    found: list[TypedMention] = []
    for match in _TYPED.finditer(text):
        if any(match.start() < end and start < match.end() for start, end in taken):
            continue
        name = match["name"].rstrip(".")
        if name.lower() in ACTION_TAGS or len(compact(name)) < _MIN_NAME:
            continue
        document = _named(name, match["paren"] or match["plain"], catalog)
        if document is not None:
            found.append(TypedMention(document, match.start(), match.end()))
    return found


def _named(name: str, version: str | None, catalog: Sequence[DocumentRecord]) -> DocumentRecord | None:
    key = compact(name)
    titles = {compact(d.title) for d in catalog if _names_title(name, key, d.title)}
    if len(titles) != 1:
        return None
    (title,) = titles
    versions = [d for d in catalog if compact(d.title) == title]
    if version is not None:
        versions = [d for d in versions if names_version(version, d.version)]
    return versions[0] if len(versions) == 1 else None


def _names_title(name: str, key: str, title: str) -> bool:
    """The whole title run together, or the title's acronym ("GPL": initials of consecutive words)."""
    return key == compact(title) or stands_for(name, title) or acronym_within(name, title)
