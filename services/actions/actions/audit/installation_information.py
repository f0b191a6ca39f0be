"""A device locked to the vendor's signing key, against a licence requiring Installation Information.

The GPL-3 requires object code conveyed in a User Product to be "accompanied by the Installation
Information": the "methods, procedures, authorization keys, or other information required to install
and execute modified versions". A clause saying the device only boots images signed with the
vendor's key, and that the key or any other way to install a rebuilt image is not given ("only boots
firmware signed with our release key, and we do not provide the key or any other way …"), withholds
it. Such a clause shares few words with the rule and ranks it low, so the rule is matched to every
clause that both locks the device and withholds the means (``matching``), as the rule against further
restrictions is. A device nobody can rewrite (firmware in mask ROM) locks nothing, and is not read.
"""

import re
from functools import lru_cache
from typing import Final

# The rule: object code accompanied by the Installation Information, or what that information is.
_REQUIRES: Final = re.compile(
    r"\baccompanied\s+by\s+the\s+installation\s+information\b|"
    r"\binstallation\s+information[\"”]?\s+for\s+a\s+user\s+product\s+means\b",
    re.IGNORECASE,
)
# The device runs only what the vendor signed.
_LOCKED: Final = re.compile(
    r"\bonly\s+(?:accepts?|boots?|runs?|loads?|installs?|starts?)\b[^.;:]{0,60}\bsigned\b|"
    r"\b(?:accepts?|boots?|runs?|loads?|installs?|starts?)\s+only\s+[^.;:]{0,60}\bsigned\b|"
    r"\bsecure\s+boot\b[^.;:]{0,40}\blocked\b|\blocked\s+to\s+(?:our|the|its)\b[^.;:]{0,30}\bkeys?\b",
    re.IGNORECASE,
)
# The key, or any other way to install a rebuilt image, not given.
_WITHHELD: Final = re.compile(
    r"\b(?:do|does|did|will)\s+not\s+(?:be\s+)?(?:giv|provid|releas|publish|shar|includ|suppl|hand)\w*|"
    r"\bnot\s+(?:be\s+)?(?:part\s+of|provided|included|published|released|given|available|shared)\b|"
    r"\b(?:stays?|kept|keeps?|remains?)\s+(?:strictly\s+)?(?:internal|secret|private|confidential)\b|"
    r"\bneither\b[^.;]{0,80}\bnor\b[^.;]{0,100}\b(?:provided|included|published|given|released)\b|"
    r"\bbut\s+not\s+the\s+(?:\w+\s+)?keys?\b",
    re.IGNORECASE,
)
_KEY: Final = re.compile(r"\bkeys?\b", re.IGNORECASE)


@lru_cache(maxsize=8192)
def requires_installation_information(rule: str) -> bool:
    """Whether ``rule`` requires the Installation Information with object code in a User Product, or
    says what it is (asked of the same rules by the matching, the checks and the model's selection)."""
    return bool(_REQUIRES.search(rule))


def withheld_installation(clause: str) -> str | None:
    """The words by which ``clause`` locks a device to the vendor's key and withholds the means to
    install a rebuilt image, else None."""
    locked = _LOCKED.search(clause)
    if locked is None or not _KEY.search(clause):
        return None
    withheld = _WITHHELD.search(clause)
    return f"{locked.group(0)} … {withheld.group(0)}" if withheld else None
