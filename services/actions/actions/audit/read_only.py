"""Areas a rule keeps free of writes, and clauses that write: "/usr … must not be written to",
"must not modify /etc/group", data that "doesn't need to be modified"; a clause that saves, appends,
updates or overwrites (changes data at run time, rather than installing it).
"""

import re
from functools import lru_cache
from typing import Final

# An area a rule keeps free of writes, and a clause that writes (changes data, not installs it).
_READ_ONLY: Final = re.compile(
    r"\b(?:read[- ]only|(?:must|shall|should)\s+not\s+(?:be\s+(?:written|modified|altered|changed)|"
    r"(?:modify|alter|edit|change|write\s+to))|"
    r"(?:doesn['’]t|does\s+not|do\s+not|don['’]t)\s+need\s+to\s+be\s+modified|purely\s+static)\b",
    re.IGNORECASE,
)
_WRITES: Final = re.compile(
    r"\b(?:writ(?:e|es|ing)|wrote|written|sav(?:e|es|ed|ing)|updat(?:e|es|ed|ing)|modif(?:y|ies|ied|ying)|"
    r"append(?:s|ed|ing)?|upload(?:s|ed|ing)?|(?:re|over)writ\w*|edit(?:s|ed|ing)?|alter(?:s|ed|ing)?|"
    r"add(?:s|ed|ing)?\s+(?:\w+\s+){0,6}?(?:to|into))\b",
    re.IGNORECASE,
)


@lru_cache(maxsize=8192)
def keeps_free_of_writes(rule: str) -> bool:
    """Whether ``rule`` keeps an area free of writes (read once per rule text)."""
    return bool(_READ_ONLY.search(rule))


def writes(text: str) -> bool:
    """Whether ``text`` writes; give a clause without its purpose ("so that the log is updated"
    writes nothing)."""
    return bool(_WRITES.search(text))
