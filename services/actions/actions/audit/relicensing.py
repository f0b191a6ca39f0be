"""A work a copyleft licence requires be licensed under itself, passed on under other terms.

"You must license the entire work, as a whole, under this License to anyone who comes into
possession of a copy" is broken by a clause that passes the work, or lets others pass it, under terms
of its own: "receive the modified SDK under our commercial licence rather than under the GPL",
"partners may ship their own modified builds under their own proprietary EULA". Such a clause shares
few words with the rule and ranks it low, so the rule is matched to every clause that relicenses the
work (``matching``), as the rule against further restrictions is. Selling the work, or support for it,
under a contract of one's own is no relicensing: only terms the work itself is passed on under count.
"""

import re
from functools import lru_cache
from typing import Final

from actions.audit.restrictions import names_work

# The rule: the work licensed under the licence itself.
_UNDER_ITSELF: Final = re.compile(
    r"\blicen[cs]e\s+(?:the\s+)?(?:entire\s+|whole\s+)?work\b[^.;]{0,40}\bunder\s+this\s+licen[cs]e\b",
    re.IGNORECASE,
)
# Terms of the company's or a partner's own that the work is passed on under.
_OTHER_TERMS: Final = re.compile(
    r"\bunder\s+(?:(?:our|their|its|your|a|an|the)\s+)?(?:own\s+)?(?:proprietary|commercial|closed[- ]source|"
    r"non-free|separate|custom)\s+(?:licen[cs]es?|eulas?|terms|agreements?)\b|"
    r"\b(?:rather|instead)\s+than\s+under\s+the\s+(?:gpl|gnu|licen[cs]e)",
    re.IGNORECASE,
)


# What is sold under a contract of one's own besides the work: support, a warranty, a service.
_SERVICE: Final = re.compile(
    r"\b(?:support|warrant(?:y|ies)|services?|contracts?|subscriptions?|hosting|training)\b", re.IGNORECASE
)


@lru_cache(maxsize=8192)
def requires_licensing_under_itself(rule: str) -> bool:
    """Whether ``rule`` requires the work be licensed under the licence itself (read once per rule)."""
    return bool(_UNDER_ITSELF.search(rule))


def relicensing_of(clause: str) -> str | None:
    """The words by which ``clause`` passes the work on under terms of its own, else None."""
    found = _OTHER_TERMS.search(clause)
    if found is None or not names_work(clause) or _SERVICE.search(clause, 0, found.start()):
        return None
    return found.group(0)
