"""A release that unpacks into a directory without its version, against a rule naming that directory.

The GNU Coding Standards want a release tarball to "unpack into a subdirectory named foo-69.96": the
package's name and version, so that unpacking two releases side by side keeps them apart. A clause
breaks it by naming the directory its release unpacks into, when that name carries no version
("unpacks into a directory called src", "extracts into a top-level folder named `source/` whatever
the version"), or by unpacking into no directory of its own ("straight into the current directory").
Such a clause shares few words with the rule, whose name is an example, so the rule is matched to
every clause unpacking into such a directory (``matching``), as a licence's provisions are
(``provision_acts``).
"""

import re
from functools import lru_cache
from typing import Final

from actions.audit.polarity import affirmed_match

# The rule: unpacking into a directory whose example name carries a version ("foo-69.96").
_NAMES_DIRECTORY: Final = re.compile(
    r"\bunpack\w*\s+into\s+a\s+(?:sub)?directory\s+named\s+[\w+~-]+-\d[\w.+~-]*", re.IGNORECASE
)
# Unpacking into a directory the clause names.
_UNPACKS_INTO: Final = re.compile(
    r"\b(?:unpack|extract|untar|expand)\w*\s+(?:\w+\s+){0,2}?(?:into|to|in)\s+(?:(?:a|the|one)\s+)?"
    r"(?:(?:single|top-level|plain|fixed|generic|bare|flat|common)\s+)*(?:(?:sub)?director(?:y|ies)|folder)\s+"
    r"(?:(?:called|named)\s+)?[`'\"“‘]?(?P<name>[\w./+~-]*\w/?)",
    re.IGNORECASE,
)
# Unpacking into no directory of its own.
_NO_DIRECTORY: Final = re.compile(
    r"\b(?:unpack|extract|untar|expand)\w*\s+(?:\w+\s+){0,2}?(?:into|to|in)\s+the\s+current\s+(?:working\s+)?"
    r"directory\b|\bwithout\s+(?:a|any)\s+(?:top-level|leading|enclosing)\s+(?:directory|folder)\b",
    re.IGNORECASE,
)


@lru_cache(maxsize=8192)
def names_release_directory(rule: str) -> bool:
    """Whether ``rule`` names the directory a release unpacks into, by an example with a version."""
    return bool(_NAMES_DIRECTORY.search(rule))


def unversioned_release_directory(clause: str) -> str | None:
    """The words by which ``clause`` unpacks a release into a directory without a version, or into
    none of its own; else None."""
    if loose := affirmed_match(_NO_DIRECTORY, clause):
        return loose.group(0)
    into = affirmed_match(_UNPACKS_INTO, clause)
    if into is None or any(character.isdigit() for character in into.group("name")):
        return None
    return into.group(0)
