"""What a regulation calls itself, and the abbreviation a clause calls it by: a policy says "a copy of
the GPL" where the GNU General Public License says "a copy of this License".

The abbreviation is the initials of the title's words (the last three or more: "GPL" of "GNU General
Public License", "FHS" of "Filesystem Hierarchy Standard"), with a version after it ("GPLv3",
"GPL-3"); the document's own word for itself is its title's last word (License, Standard, Manual).
A clause naming the abbreviation is read as naming that word too, so the shared words of matching and
the readings of the judgement meet the rule's "this License".
"""

import re
from functools import lru_cache
from typing import Final

#: The fewest initials an abbreviation has ("PL" of "Public License" names nothing).
MIN_INITIALS: Final = 3
_WORD: Final = re.compile(r"[A-Za-z][\w-]*")


@lru_cache(maxsize=256)
def _abbreviation(title: str) -> tuple[re.Pattern[str], str] | None:
    words = _WORD.findall(title)
    if len(words) < MIN_INITIALS:
        return None
    initials = "".join(w[0].upper() for w in words)
    forms = [initials[start:] for start in range(len(initials) - MIN_INITIALS + 1)]
    pattern = re.compile(rf"\b(?:{'|'.join(forms)})(?:v?-?\d+(?:\.\d+)?)?\b")
    return pattern, words[-1]


@lru_cache(maxsize=4096)
def as_document_words(text: str, title: str) -> str:
    """``text`` with each abbreviation of ``title`` followed by the document's own word for itself
    ("a copy of the GPL" → "a copy of the GPL License" for the GNU General Public License); read once
    per clause and target, though each of the clause's candidate rules asks."""
    found = _abbreviation(title)
    if found is None:
        return text
    pattern, own_word = found
    return pattern.sub(lambda match: f"{match.group(0)} {own_word}", text)
