"""Forbidding circumvention of a technological measure, against a licence that waives that power.

The GPL-3 says that whoever conveys the work waives "any legal power to forbid circumvention of
technological measures" to the extent it is done by exercising the licence's rights. A clause that
forbids working around a check in the work, or threatens action under anti-circumvention law ("we will
pursue anyone who strips that check out … under the anti-circumvention provisions", "treats any such
workaround as circumvention of a technological protection measure"), claims that power. Such a clause
shares few words with the rule, so the rule is matched to every clause that forbids circumvention
(``matching``), as the rule against further restrictions is. Saying that no one will be pursued, or
that the power is waived, claims nothing.
"""

import re
from functools import lru_cache
from typing import Final

# The rule: the power to forbid circumvention waived.
_WAIVES: Final = re.compile(r"\bwaive\w*\s+any\s+(?:legal\s+)?power\s+to\s+forbid\s+circumvention\b", re.I)
# Circumvention, by name or by what it does to a check ("bypassing the signed-image check", "working
# around the signature verification").
_CIRCUMVENTION: Final = re.compile(
    r"\b(?:anti-?)?circumvent\w*|\b(?:bypass\w*|work(?:s|ing)?\s+around|get(?:s|ting)?\s+around|"
    r"defeat\w*|disabl\w*|jailbreak\w*)\s+(?:\S+\s+){0,3}?(?:check|checks|verification|signature|"
    r"protection|lock|locks|measures?|secure\s+boot|drm)\b",
    re.IGNORECASE,
)
# Forbidding it, or threatening to enforce against it.
_ENFORCING: Final = re.compile(
    r"\b(?:pursue|sue|prosecute|enforce|legal\s+action|claims?|treats?|treated|counts?\s+as|deem\w*|"
    r"prohibit\w*|forbid\w*|must\s+not|may\s+not|not\s+(?:be\s+)?(?:allowed|permitted))\b",
    re.IGNORECASE,
)
_DISCLAIMED: Final = re.compile(
    r"\b(?:not|never|no)\s+(?:\w+\s+){0,3}?(?:pursue|sue|prosecute|enforce|claim)\w*|\bwaive", re.I
)


@lru_cache(maxsize=8192)
def waives_forbidding_circumvention(rule: str) -> bool:
    """Whether ``rule`` waives the power to forbid circumvention of technological measures (asked of
    the same rules by the matching, the checks and the model's selection)."""
    return bool(_WAIVES.search(rule))


def forbidden_circumvention(clause: str) -> str | None:
    """The words by which ``clause`` forbids circumvention or threatens action against it, else None."""
    named = _CIRCUMVENTION.search(clause)
    if named is None or _DISCLAIMED.search(clause):
        return None
    enforcing = _ENFORCING.search(clause)
    return f"{enforcing.group(0)} … {named.group(0)}" if enforcing else None
