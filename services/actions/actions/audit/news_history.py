"""Old entries deleted from NEWS, against the GNU Coding Standards' rule that they stay in the file.

The GNU Coding Standards say of the NEWS file "Don't discard old items; leave them in the file after
the newer items", so that a user upgrading from any earlier version can see what changed. A clause
breaks it when NEWS is trimmed, cleared or pruned of older entries, or they are moved elsewhere ("We
trimmed the `NEWS` file so it now lists only the changes in 3.2; the older entries have been
deleted"). Such a clause shares few words with the rule ("items", "discard"), so the rule is matched
to every clause doing it (``matching``), as the other provisions are (``provision_acts``); adding
entries at the top and keeping the older ones below them is what the rule asks.
"""

import re
from functools import lru_cache
from typing import Final

from actions.audit.polarity import affirmed_match

_FORBIDS: Final = re.compile(r"\bdon[’']?t\s+discard\s+old\s+items\b", re.IGNORECASE)
# The file by its name, as the GNU Coding Standards write it (capitals: "news" is any news).
_NEWS: Final = re.compile(r"\bNEWS\b")
_DISCARDED: Final = re.compile(
    r"\b(?:delet(?:e|es|ed|ing)|remov(?:e|es|ed|ing)|trim(?:s|med|ming)?|clear(?:s|ed|ing)?|"
    r"drop(?:s|ped|ping)?|discard(?:s|ed|ing)?|prun(?:e|es|ed|ing)|purg(?:e|es|ed|ing)|truncat(?:e|es|ed|ing)|"
    r"moved?\s+(?:out|away|to|into))\b",
    re.IGNORECASE,
)
# Which entries: older ones, those of earlier series, or all but what it is cut down to.
_OLD: Final = re.compile(
    r"\b(?:old(?:er)?|previous|earlier|past|prior)\b|\bentries\s+for\s+\d|\bdown\s+to\b", re.IGNORECASE
)


@lru_cache(maxsize=8192)
def keeps_old_news(rule: str) -> bool:
    """Whether ``rule`` forbids discarding old items of the NEWS file."""
    return bool(_FORBIDS.search(rule))


def discards_old_news(clause: str) -> str | None:
    """The words by which ``clause`` removes older entries from NEWS, else None."""
    if not _NEWS.search(clause) or not _OLD.search(clause):
        return None
    found = affirmed_match(_DISCARDED, clause)
    return f"NEWS … {found.group(0)}" if found else None
