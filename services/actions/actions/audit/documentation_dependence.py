"""A program reading what it needs from /usr/share/doc, against Debian's rule that packages must work
without the files there.

Debian Policy says "Packages must not require the existence of any files in /usr/share/doc/ in order
to function": administrators may leave documentation out of an installation. A clause breaks it when
the program reads, loads or falls back on something under /usr/share/doc ("loads its default sensor
table from /usr/share/doc/acme/examples/sensors.csv", "reads its built-in layouts at run time from the
examples directory under /usr/share/doc/"). Such a clause shares few words with the rule, so the rule
is matched to every clause doing it (``matching``), as the other provisions are (``provision_acts``);
installing documentation or examples there, or pointing readers to them, is no reliance.
"""

import re
from functools import lru_cache
from typing import Final

from actions.audit.polarity import affirmed_match

# The rule: nothing under /usr/share/doc required to function.
_FORBIDS: Final = re.compile(
    r"\bnot\s+(?:require|rely\s+on|depend\s+on)\s+(?:the\s+)?(?:existence|presence)\s+of\s+(?:any\s+)?files\s+"
    r"in\s+/usr/share/doc\b",
    re.IGNORECASE,
)
# The program taking something from there: a verb of reading, then within the same part of the
# sentence, with no other path between, a place under /usr/share/doc.
_READS_DOC: Final = re.compile(
    r"\b(?:(?:reads?|reading|loads?|loading|loaded|sourc(?:ed|ing)|parses?|parsed|opens?|opened|imports?|"
    r"imported|takes?|took)\b[^.;:/]{0,90}?\b(?:from|in|under|out\s+of)|falls?\s+back\s+(?:on|to))\s+"
    r"(?:[^.;:/]{0,40}?)[`'\"“]?/usr/share/doc\b[\w/<>.-]*",
    re.IGNORECASE,
)


@lru_cache(maxsize=8192)
def requires_no_documentation(rule: str) -> bool:
    """Whether ``rule`` forbids packages to need files in /usr/share/doc to function."""
    return bool(_FORBIDS.search(rule))


# People reading the documentation, or telling the reader to ("Read the notes in /usr/share/doc/…").
_PEOPLE: Final = re.compile(
    r"\b(?:you|users?|administrators?|admins?|operators?|people|customers?|readers?|technicians?|engineers?)"
    r"\W+(?:\w+\W+){0,2}$",
    re.IGNORECASE,
)


def reads_documentation(clause: str) -> str | None:
    """The words by which ``clause`` has a program take what it needs from /usr/share/doc, else None."""
    found = affirmed_match(_READS_DOC, clause)
    if found is None:
        return None
    before = clause[: found.start()]
    if not re.search(r"\w", before) or _PEOPLE.search(before):
        return None
    return found.group(0).replace("`", "")
