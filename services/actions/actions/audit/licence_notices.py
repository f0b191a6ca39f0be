"""A work passed on without the licence's text, or with its notices stripped, against the GPL-3.

Section 4 of the GPL-3 lets anyone convey verbatim copies "provided that you … keep intact all
notices" (of the licence, of the absence of any warranty) "and give all recipients a copy of this
License along with the Program". A clause breaks it in words of its own: "binary downloads come
without a copy of the licence text", "we removed the copy of the GPL from the image", "we deleted the
licence header comments from its source files", "partners may strip the GPL notices". Such a clause
shares few words with the provision, so the provision is matched to every clause doing it
(``matching``), as the other provisions of the licence are (``provision_acts``).
"""

import re
from functools import lru_cache
from typing import Final

from actions.audit.polarity import affirmed_match

# The provisions: a copy of the licence given, and its notices kept intact.
_GIVES_COPY: Final = re.compile(
    r"\bgive\s+all\s+recipients\s+a\s+copy\s+of\s+this\s+License\b", re.IGNORECASE
)
_KEEPS_NOTICES: Final = re.compile(r"\bkeep\s+intact\s+all\s+notices\b", re.IGNORECASE)
# Going without the licence's text: shipped without it, no longer included, taken out.
_WITHOUT_COPY: Final = re.compile(
    r"\b(?:without|no\s+longer\s+(?:include|ship|contain|carr(?:y|ies))\w*|(?:do|does|did)\s+not\s+"
    r"(?:include|ship|contain|carry|come\s+with)|(?:remov|dropp|delet|omitt|strip)\w*|left\s+out|leav\w*\s+out)"
    r"\s+(?:\S+\s+){0,4}?(?:(?:any\s+other\s+)?cop(?:y|ies)\s+of\s+the\s+(?:GPL|licen[cs]e)|licen[cs]e\s+text|"
    r"[`'\"“]?COPYING\b)",
    re.IGNORECASE,
)
# Taking the notices out: licence, copyright or warranty headers, notices or comments.
_STRIPS_NOTICES: Final = re.compile(
    r"\b(?:remov|dropp|delet|strip|replac|eras)\w*\s+(?:\S+\s+){0,8}?(?:(?:GPL|licen[cs]e|copyright|warranty)\s+"
    r"(?:header|notice|comment|paragraph|banner|statement)s?|(?:file\s+)?headers?\b[^.;]{0,60}\bwarranty)",
    re.IGNORECASE,
)


@lru_cache(maxsize=8192)
def requires_licence_copy(rule: str) -> bool:
    """Whether ``rule`` requires a copy of the licence given to all recipients."""
    return bool(_GIVES_COPY.search(rule))


@lru_cache(maxsize=8192)
def requires_intact_notices(rule: str) -> bool:
    """Whether ``rule`` requires the licence's notices kept intact (and not a copy of it as well)."""
    return bool(_KEEPS_NOTICES.search(rule)) and not requires_licence_copy(rule)


def withheld_licence_copy(clause: str) -> str | None:
    """The words by which ``clause`` passes the work on without the licence's text, else None."""
    found = _WITHOUT_COPY.search(clause)
    return found.group(0) if found else None


def stripped_notices(clause: str) -> str | None:
    """The words by which ``clause`` takes the licence's, copyright or warranty notices out, or lets
    someone do so, else None ("we do not remove licence notices" keeps them)."""
    found = affirmed_match(_STRIPS_NOTICES, clause)
    return found.group(0) if found else None
