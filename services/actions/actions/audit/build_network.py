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
# The build, by its targets, its makefile or its rules file, fetching a thing from elsewhere: the
# build is the one that fetches ("Nightly builds can be downloaded from our server" is customers'
# downloading, not the build's).
_BUILD_FETCHES: Final = re.compile(
    r"\b(?:debian/rules|build(?:\s+(?:target|step|script|system|process|job))?|(?:binary|clean|install)(?:-\w+)?"
    r"\s+target|make|compil(?:er|ation|ing)|at\s+build\s+time)\b[^.;]{0,60}?"
    r"(?P<fetch>\b(?:downloads?|downloading|fetch(?:es)?|fetching|pulls?|pulling|clones?|cloning|curl|wget|"
    r"(?:pip|npm|gem|cargo|go)\s+(?:install|get|fetch)|git\s+(?:clone|fetch|pull))\b)",
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
    fetch = _BUILD_FETCHES.search(clause)
    if fetch is None or _REMOTE.search(clause, fetch.start("fetch")) is None or not affirms(clause):
        return None
    return " ".join(clause[fetch.start("fetch") :].split()[:8]).rstrip(".,;")
