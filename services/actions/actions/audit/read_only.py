"""Areas a rule keeps free of writes, and clauses that write: "/usr … must not be written to",
"must not modify /etc/group", data that "doesn't need to be modified"; a clause that saves, appends,
updates, refreshes or overwrites (changes data at run time, rather than installing it). A rule that
keeps people from writing there ("Users must never need to modify files in /var/lib") is broken by
people writing, not by a program keeping its state there.
"""

import re
from functools import lru_cache
from typing import Final

# An area a rule keeps free of writes, and a clause that writes (changes data, not installs it).
_READ_ONLY: Final = re.compile(
    r"\b(?:read[- ]only|(?:must|shall|should)\s+(?:not|never)\s+(?:need\s+to\s+)?"
    r"(?:be\s+(?:written|modified|altered|changed)|(?:modify|alter|edit|change|write\s+to))|"
    r"(?:doesn['’]t|does\s+not|do\s+not|don['’]t)\s+need\s+to\s+be\s+modified|purely\s+static)\b",
    re.IGNORECASE,
)
_WRITES: Final = re.compile(
    r"\b(?:writ(?:e|es|ing)|wrote|written|sav(?:e|es|ed|ing)|updat(?:e|es|ed|ing)|modif(?:y|ies|ied|ying)|"
    r"append(?:s|ed|ing)?|upload(?:s|ed|ing)?|(?:re|over)writ\w*|edit(?:s|ed|ing)?|alter(?:s|ed|ing)?|"
    r"refresh(?:es|ed|ing)?|regenerat(?:e|es|ed|ing)|"
    r"add(?:s|ed|ing)?\s+(?:\w+\s+){0,6}?(?:to|into)|"
    # Placing things while the program runs writes: "are unpacked at run time into /usr/share/…".
    r"(?:unpack|extract|download|fetch|generat|creat|stor)\w*\s+(?:\w+\s+){0,3}?at\s+run[- ]?time|"
    r"at\s+run[- ]?time,?\s+(?:\w+\s+){0,5}?(?:unpack|extract|download|fetch|generat|creat|stor)\w*)\b",
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


# People, as who a rule keeps from writing or who writes in a clause ("you", a manual's reader, is the
# maintainer whose package writes, not a person at the machine).
_PEOPLE: Final = re.compile(
    r"\b(?:users?|administrators?|admins?|sysadmins?|operators?|people|customers?|humans?)\b",
    re.IGNORECASE,
)
_MODAL: Final = re.compile(r"\b(?:must|shall|should)\b", re.IGNORECASE)
# A clause that tells its reader to write: "Edit retention_days in …", "To change it, edit …".
_WRITE_ORDERED: Final = re.compile(
    r"^\W*(?:to\s+[^,;]+,\s*)?(?:edit|modify|change|alter|update|overwrite|write|set|add|append)\b",
    re.IGNORECASE,
)


def keeps_people_from_writing(rule: str) -> bool:
    """Whether the subject of ``rule`` names people ("Users must never need to modify …")."""
    modal = _MODAL.search(rule)
    return modal is not None and bool(_PEOPLE.search(rule[: modal.start()]))


def people_write(clause: str) -> bool:
    """Whether people do the writing in ``clause``: it tells its reader to write, or names people
    before its first writing verb ("Administrators configure it by editing …")."""
    if _WRITE_ORDERED.match(clause):
        return True
    write = _WRITES.search(clause)
    return write is not None and bool(_PEOPLE.search(clause[: write.start()]))
