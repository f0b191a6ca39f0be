"""A device lock file not named as the convention requires, against a rule setting its name.

The FHS requires lock files for devices to be named "LCK.." followed by the base name of the device
("LCK..ttyS0"), so that every program holding the device finds the others' locks. A clause that
locks a device and names its lock file otherwise ("takes the lock /var/lock/ttyUSB0.lock", "creates
/run/lock/radio-ttyS1") breaks it. Such a clause shares few words with the rule, so the rule is
matched to every clause naming a device lock file (``matching``), as a licence's provisions are
(``provision_acts``).
"""

import re
from functools import lru_cache
from typing import Final

from actions.audit.polarity import affirms

# The rule: the naming convention of device lock files.
_CONVENTION: Final = re.compile(r"[\"“]?LCK\.\.[\"”]?\s+followed\s+by\b", re.IGNORECASE)
_DEVICE: Final = re.compile(
    r"/dev/\w+|\btty\w*|\bserial\s+(?:ports?|lines?|devices?)|\bmodems?\b", re.IGNORECASE
)
# A lock file the clause names: a path in a lock directory, or a name ending in .lock or .lck.
_LOCK_FILE: Final = re.compile(
    r"(?:/var/lock|/run/lock|/var/run/lock)/(?P<path>[\w.+-]+)|\b(?P<named>[\w.+-]+\.(?:lock|lck))\b",
    re.IGNORECASE,
)


@lru_cache(maxsize=8192)
def sets_lock_file_names(rule: str) -> bool:
    """Whether ``rule`` sets the naming convention of device lock files."""
    return bool(_CONVENTION.search(rule))


def misnamed_device_lock(clause: str) -> str | None:
    """The lock file name ``clause`` gives a device's lock outside the "LCK.." convention, else None."""
    if _DEVICE.search(clause) is None:
        return None
    for found in _LOCK_FILE.finditer(clause):
        name = found.group("path") or found.group("named")
        # What the clause says up to the name decides: "never /var/lock/radio.lock" names no lock it uses.
        if not name.startswith("LCK..") and affirms(clause[: found.end()]):
            return found.group(0)
    return None
