"""Changes passed on unmarked, against the GPL-3's notices of modification.

Section 5 of the GPL-3 requires a modified work to "carry prominent notices stating that you modified
it, and giving a relevant date". A clause breaks it by saying its changes carry no such notice ("our
patches are merged without any note in the files saying that we changed them", "the tarballs do not
mark which files we changed", "our changes aren't flagged anywhere"), or that none is needed ("there
is no need to add any note saying that you changed it"). Such a clause shares few words with the
provision, so the provision is matched to every clause doing it (``matching``), as the other
provisions of the licence are (``provision_acts``).
"""

import re
from functools import lru_cache
from typing import Final

# The provision: notices that the work was modified.
_REQUIRES: Final = re.compile(
    r"\bprominent\s+notices\s+stating\s+that\s+you\s+modified\s+it\b", re.IGNORECASE
)
_CHANGES: Final = re.compile(r"\b(?:chang\w*|modif\w*|patch\w*|fork\w*)\b", re.IGNORECASE)
# No mark of the changes, or none needed.
_UNMARKED: Final = re.compile(
    r"\b(?:no|without|not|n[’']t|never)\s+(?:\w+\s+){0,4}?(?:notes?|notices?|marks?|marked(?!\s+as\b)|marking|flagged|"
    r"records?|comments?|mention\w*|labell?ed)\b|\bno\s+need\s+to\s+(?:add|mark|note|say|record)\b|"
    r"\b(?:headers?|files?)\s+(?:still\s+)?(?:read|are\s+left|left|stay|remain)\s+exactly\s+as\b",
    re.IGNORECASE,
)
_WITHOUT_WARNING: Final = re.compile(
    r"\bwithout\s+(?:any\s+)?(?:prior\s+|advance\s+|further\s+)?notice\b", re.IGNORECASE
)
# "never … without a note" marks them.
_NEVER_WITHOUT: Final = re.compile(r"\bnever\b[^.;]*\bwithout\b", re.IGNORECASE)


@lru_cache(maxsize=8192)
def requires_modification_notices(rule: str) -> bool:
    """Whether ``rule`` requires a modified work to carry notices that it was modified."""
    return bool(_REQUIRES.search(rule))


def unmarked_changes(clause: str) -> str | None:
    """The words by which ``clause`` passes changes on without notice of them, else None."""
    if _CHANGES.search(clause) is None or _NEVER_WITHOUT.search(clause):
        return None
    # "may change between releases without notice" says nothing of marking changes in the work.
    found = _UNMARKED.search(_WITHOUT_WARNING.sub(" ", clause))
    return found.group(0) if found else None
