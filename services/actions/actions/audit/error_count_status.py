"""A count of errors used as the exit status, against a rule forbidding it.

The GNU Coding Standards say "Do not use a count of errors as the exit status for a program" (a count
of 256 would read as success). A clause breaks it by saying its program exits with how many things
failed ("exits with the number of rejected records", "its exit status is the number of records it
rejected", "may use the number of failed items as their exit code"). This rule is read by that act
alone: a clause that exits with 0 or 1 and reports the count elsewhere ("exits with status 1 when any
reel fails, and reports the number of failed reels on standard error") shares the rule's words but
keeps it, so the words it shares decide nothing (``provision_acts``, ``sole``).
"""

import re
from functools import lru_cache
from typing import Final

from actions.audit.polarity import affirmed_match

# The rule: no count of errors as the exit status.
_FORBIDS: Final = re.compile(r"\bcount\s+of\s+errors\s+as\s+the\s+exit\s+status\b", re.IGNORECASE)
_COUNT: Final = r"(?:number|count|total)\s+of\b"
# Exiting with the count, the status being the count, or the count used as the status.
_EXITS_WITH_COUNT: Final = re.compile(
    rf"\bexit(?:s|ed|ing)?\s+with\s+(?:a\s+status\s+(?:equal\s+to|of)\s+)?(?:the|a)\s+{_COUNT}|"
    rf"\b(?:exit\s+)?(?:status|code)\s+(?:is|equals|will\s+be|becomes)\s+(?:equal\s+to\s+)?the\s+{_COUNT}|"
    rf"\b{_COUNT}\s+(?:[\w-]+\s+){{0,4}}?(?:as|for)\s+(?:its|their|the)\s+(?:exit\s+)?(?:status|code)\b",
    re.IGNORECASE,
)


@lru_cache(maxsize=8192)
def forbids_error_count_status(rule: str) -> bool:
    """Whether ``rule`` forbids using a count of errors as the exit status."""
    return bool(_FORBIDS.search(rule))


def error_count_status(clause: str) -> str | None:
    """The words by which ``clause`` exits with a count of what failed, else None."""
    found = affirmed_match(_EXITS_WITH_COUNT, clause)
    return found.group(0) if found else None
