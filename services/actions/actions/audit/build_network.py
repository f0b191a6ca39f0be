"""A build that fetches from the network, against a rule forbidding network access in the build.

Debian's Policy forbids the required targets of ``debian/rules`` to "attempt network access" (the
loopback interface to services the build started aside): a build must be reproducible offline. A
clause seldom says "network access"; it says what the build does ("the build target downloads the SDK
from our CDN with curl", "``make`` clones the schema repository from GitHub"). Such a clause shares
few words with the rule and ranks it low, so the rule is matched to every clause in which a build
fetches something from elsewhere (``matching``), as a licence's provisions are (``provision_acts``).
A clause denying the fetch ("the build never downloads anything"), or fetching outside the build
("the installer downloads …"), does not do it.
"""

import re
from functools import lru_cache
from typing import Final

from actions.audit.polarity import affirms

# The rule: network access forbidden (in a build).
_FORBIDS: Final = re.compile(
    r"\b(?:must|should|shall|may)\s+not\s+(?:\w+\s+){0,2}?(?:network\s+access|access\s+the\s+(?:network|internet))",
    re.IGNORECASE,
)
# The build, by its targets, its makefile or its rules file.
_BUILD: Final = re.compile(
    r"\b(?:build(?:s|ing)?|debian/rules|compil\w+|make\s+(?:all|install|check)|makefile|"
    r"(?:build|binary|clean)(?:-\w+)?\s+targets?)\b",
    re.IGNORECASE,
)
# Fetching a thing from elsewhere.
_FETCH: Final = re.compile(
    r"\b(?:download\w*|fetch\w*|pulls?|pulled|pulling|clon(?:e|es|ed|ing)|curl|wget|"
    r"(?:pip|npm|gem|cargo|go)\s+(?:install|get|fetch)|git\s+(?:clone|fetch|pull))\b",
    re.IGNORECASE,
)
# From somewhere that is reached over the network.
_REMOTE: Final = re.compile(
    r"\b(?:cdn|servers?|internet|urls?|https?://\S+|mirrors?|registry|registries|online|remote|"
    r"web\s*sites?|github|gitlab|(?:the\s+)?web|network|portal|upstream\s+(?:site|project)|"
    r"cloud|bucket|s3)\b",
    re.IGNORECASE,
)


@lru_cache(maxsize=8192)
def forbids_network_access(rule: str) -> bool:
    """Whether ``rule`` forbids network access (asked of the same rules by the matching, the checks
    and the model's selection)."""
    return bool(_FORBIDS.search(rule))


def network_fetch_in_build(clause: str) -> str | None:
    """The words by which a build in ``clause`` fetches something over the network, else None."""
    fetch = _FETCH.search(clause)
    if fetch is None or _BUILD.search(clause) is None or _REMOTE.search(clause) is None:
        return None
    if not affirms(clause):
        return None
    return " ".join(clause[fetch.start() :].split()[:8]).rstrip(".,;")
