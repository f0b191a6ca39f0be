"""Data that cannot be recreated kept in a cache, against a rule that cached data be regenerable.

The FHS keeps ``/var/cache`` for data an application can "regenerate or restore" and "recover from
manual deletion of": an administrator may empty it at any time. A clause keeping the only copy of
something there ("pairing keys are kept only under /var/cache/coracle/pairing/", "curves computed
once at commissioning … please make sure nobody clears /var/cache/centrilab/", "lost for good if that
directory is cleaned", "the agent has no way to rebuild them") breaks it in words of its own. Such a
clause shares few words with the rule ("The application must be able to regenerate or restore the
data"), so the rule is matched to every clause that keeps irreplaceable data in a cache
(``matching``), as a licence's provisions are (``provision_acts``).
"""

import re
from functools import lru_cache
from typing import Final

# The rule: cached data must be recreatable.
_REQUIRES: Final = re.compile(
    r"\bmust\s+(?:always\s+)?be\s+able\s+to\s+(?:regenerate|restore|recover|recreate|rebuild)\b",
    re.IGNORECASE,
)
_CACHE: Final = re.compile(r"/var/cache\b[\w./-]*|\bcache\b", re.IGNORECASE)
# Said to be irreplaceable: the only copy, lost for good, not to be cleared, no way to recreate it.
_IRREPLACEABLE: Final = re.compile(
    r"\b(?:kept|stored|held|saved|lives?|exists?)\s+only\s+(?:in|under|at)\b|\bonly\s+cop(?:y|ies)\b|"
    r"\blost\s+(?:for\s+good|forever|permanently|for\s+ever)\b|\bcannot\s+be\s+(?:recovered|recreated|"
    r"regenerated|rebuilt|restored)\b|"
    r"\b(?:no\s+way|not\s+able|unable|cannot|can[’']t|can\s+not)\s+(?:\w+\s+){0,3}?"
    r"(?:rebuild|regenerat|recreat|recomput|re-?creat|restor|recover|re-?download|re-?deriv)\w*|"
    r"\b(?:make\s+sure|ensure)\s+(?:that\s+)?(?:nobody|no\s+one|no-one|nothing)\s+(?:\w+\s+){0,2}?"
    r"(?:clears?|deletes?|removes?|clean|cleans|empties|wipes?|purges?|prunes?)\b|"
    r"\b(?:must|should|may)\s+(?:never|not)\s+be\s+(?:cleared|deleted|removed|cleaned|emptied|wiped|"
    r"purged|pruned|expired)\b|\b(?:have|has)\s+to\s+be\s+re-\w+",
    re.IGNORECASE,
)


_RECREATED: Final = re.compile(
    r"\b(?:rebuil[dt]|regenerat\w*|recreat\w*|re-?download\w*|re-?fetch\w*|(?:fetched|downloaded)\s+again)\b",
    re.IGNORECASE,
)
_NEGATION: Final = re.compile(r"\b(?:no|not|never|cannot|unable)\b|n[’']t\b", re.IGNORECASE)


@lru_cache(maxsize=8192)
def requires_regenerable_data(rule: str) -> bool:
    """Whether ``rule`` requires an application to be able to regenerate or restore its data."""
    return bool(_REQUIRES.search(rule))


def irreplaceable_cache_data(clause: str) -> str | None:
    """The words by which ``clause`` keeps data it cannot recreate in a cache, else None."""
    cache = _CACHE.search(clause)
    if cache is None:
        return None
    lost = _IRREPLACEABLE.search(clause)
    if lost is None or _recreated(clause):
        return None
    return f"{cache.group(0)} … {lost.group(0)}"


def _recreated(clause: str) -> bool:
    """Whether ``clause`` says the data is recreated ("kept only in /var/cache/tiles and rebuilt on
    demand"), not merely that it cannot be."""
    return any(
        not _NEGATION.search(clause[max(0, found.start() - 30) : found.start()])
        for found in _RECREATED.finditer(clause)
    )
