"""Files in /tmp relied on later, against the FHS rule that /tmp keeps nothing between runs.

The FHS says "Programs must not assume that any files or directories in /tmp are preserved between
invocations of the program". A clause breaks it by reading back later, or after a reboot, what it
left in /tmp ("writes its intermediate files to /tmp and the morning job reads them back, even when
the host has rebooted", "resumes from the checkpoint file /tmp/app/resume.state that it wrote during
its previous run"). Such a clause shares few words with the rule, so the rule is matched to every
clause doing it (``matching``), as a licence's provisions are (``provision_acts``). /var/tmp, which
is kept between reboots, is another directory.
"""

import re
from functools import lru_cache
from typing import Final

from actions.audit.polarity import affirmed_match

# The rule: nothing in /tmp assumed kept between invocations.
_FORBIDS: Final = re.compile(
    r"\bnot\s+assume\s+that\s+any\s+files\s+or\s+directories\s+in\s+/tmp\s+are\s+preserved\b", re.IGNORECASE
)
_TMP: Final = re.compile(r"(?<![\w/.-])[`'\"“]?/tmp(?:/[\w.-]+)*/?")
# What was left there, used again later.
_LATER: Final = re.compile(
    r"\b(?:reads?\s+(?:them|it|those|these)\s+back|resum\w+|(?:previous|last|earlier)\s+run|"
    r"(?:next|following|later)\s+(?:run|start|invocation|day|morning|boot)|after\s+(?:a\s+|the\s+)?"
    r"(?:reboot|restart|power\s+(?:cut|cycle|loss))|across\s+reboots?|survives?\s+(?:a\s+)?reboots?|"
    r"(?:has|have|had)\s+rebooted)\b",
    re.IGNORECASE,
)


@lru_cache(maxsize=8192)
def keeps_nothing_in_tmp(rule: str) -> bool:
    """Whether ``rule`` forbids assuming that files in /tmp are kept between invocations."""
    return bool(_FORBIDS.search(rule))


def relies_on_tmp(clause: str) -> str | None:
    """The words by which ``clause`` uses later what it left in /tmp, else None."""
    kept = affirmed_match(_TMP, clause)
    # "… and never relies on finding them again on its next run" denies the reliance.
    later = affirmed_match(_LATER, clause)
    if kept is None or later is None:
        return None
    return f"{kept.group(0).strip('`')} … {later.group(0)}"
