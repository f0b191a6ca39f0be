"""An installer mounting on /mnt, against the FHS keeping /mnt for the administrator.

The FHS leaves /mnt to the system administrator for temporary mounts, and says "This directory must
not be used by installation programs: a suitable temporary directory not in use by the system must
be used instead". A clause breaks it in words of its own: "the offline installer mounts the update
ISO on /mnt", "during a field update, the updater mounts the image at /mnt/next". Such a clause shares
few words with the rule, whose subject is only "This directory", so the rule is matched to every
clause in which an installation or update mounts something on /mnt (``matching``), as a licence's
provisions are (``provision_acts``).
"""

import re
from functools import lru_cache
from typing import Final

from actions.audit.polarity import affirmed_match

# The rule: a directory kept from installation programs.
_KEPT_FROM_INSTALLERS: Final = re.compile(
    r"\bmust\s+not\s+be\s+used\s+by\s+installation\s+programs\b", re.IGNORECASE
)
_MOUNTS_ON_MNT: Final = re.compile(
    r"\b(?:loop-?)?mount\w*\b[^.;]{0,80}?\b(?:on|at|under|into|onto)\s+[`'\"“]?/mnt(?:/[\w.-]*)?(?![\w/])",
    re.IGNORECASE,
)
_INSTALLING: Final = re.compile(
    r"\b(?:install\w*|updat\w*|upgrad\w*|flash\w*|set-?up|deploy\w*)\b", re.IGNORECASE
)


@lru_cache(maxsize=8192)
def kept_from_installers(rule: str) -> bool:
    """Whether ``rule`` keeps its directory from installation programs."""
    return bool(_KEPT_FROM_INSTALLERS.search(rule))


def installer_mount(clause: str) -> str | None:
    """The words by which an installation or update in ``clause`` mounts something on /mnt, else None."""
    mounts = affirmed_match(_MOUNTS_ON_MNT, clause)
    if mounts is None or _INSTALLING.search(clause) is None:
        return None
    return mounts.group(0)
