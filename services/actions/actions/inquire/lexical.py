"""The question's words in a passage: rarity-weighted coverage, and what kind of answer it wants.

Terms are the BM25 index's own (``policypal.vectorstore.sparse_terms``: lower case, stop words out,
Snowball stems), so "retained" meets "retention" here as it does in the keyword search.
"""

import math
import re
from collections.abc import Iterable, Sequence
from functools import lru_cache

from policypal.vectorstore import ChunkHit, sparse_terms

_WANTS_QUANTITY = re.compile(
    r"\b(?:how (?:many|much|long|often|old|big|large|short|soon|far)|when|what (?:\w+ )?(?:date|year|day|time|"
    r"size|length|number|percentage|delay|range|majority|uid|gid|value|priority)|which (?:uid|gid|range|"
    r"year|date|value|number))\b",
    re.IGNORECASE,
)
_QUANTITY = re.compile(
    r"\d|\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|"
    r"sixty|hundred|thousand|once|twice|january|february|march|april|june|july|august|september|"
    r"october|november|december)\b",
    re.IGNORECASE,
)


_WANTS_NAME = re.compile(
    r"\b(?:what|which)\s+(?:\w+\s+)?(?:tool|command|program|script|list|mailing list|subject|format|field|"
    r"file|variable|directory|option|name|address|site|url|target|tag|queue|prefix)s?\b",
    re.IGNORECASE,
)
#: Identifiers, commands, addresses: "gnupload", "ITP:", "info-gnu", "DESTDIR", "mentors.debian.net".
_NAME = re.compile(r"[\w$~]+(?:[./:@_-][\w$~]+)+:?|\b[A-Z]{3,}\b:?|‘[^’]{2,40}’|“[^”]{2,40}”|\"[^\"]{2,40}\"")


def asks_for_name(query: str) -> bool:
    """Whether the question asks for a name: a tool, a command, a list, a field, a format."""
    return _WANTS_NAME.search(query) is not None


def has_name(text: str, query: str) -> bool:
    """Whether ``text`` holds an identifier (a command, an address, a field) the question does not."""
    asked = query.casefold()
    return any(match.group().casefold().strip('‘’“”":') not in asked for match in _NAME.finditer(text))


def asks_for_quantity(query: str) -> bool:
    """Whether the question asks for a number, a length of time, a date or a range."""
    return _WANTS_QUANTITY.search(query) is not None


def has_quantity(text: str) -> bool:
    """Whether ``text`` states a number or a date (in digits or in words)."""
    return _QUANTITY.search(text) is not None


#: Texts whose terms are remembered: a request reads each candidate's terms twice (weights, then
#: coverage) and the same chunks come back question after question; a 1000-character chunk's set is
#: a few kilobytes.
REMEMBERED_TEXTS = 2048


@lru_cache(maxsize=REMEMBERED_TEXTS)
def term_set(text: str) -> frozenset[str]:
    """The distinct index terms of ``text``."""
    return frozenset(sparse_terms.terms(text))


def term_weights(query: str, texts: Sequence[str]) -> dict[str, float]:
    """The question's index terms, each weighted by its rarity among ``texts`` (IDF)."""
    wanted = term_set(query)
    counts = dict.fromkeys(wanted, 0)
    for text in texts:
        for term in wanted & term_set(text):
            counts[term] += 1
    return {term: math.log(1 + len(texts) / (1 + count)) for term, count in counts.items()}


def coverage(weights: dict[str, float], text: str) -> float:
    """The weighted share of the question's terms that ``text`` holds, 0..1."""
    total = sum(weights.values())
    if not total:
        return 0.0
    held = term_set(text)
    return sum(weight for term, weight in weights.items() if term in held) / total


def fields(hit: ChunkHit) -> str:
    """The chunk's searchable fields in one text: title (with its acronyms and version), section, body."""
    return (
        f"{hit.title} {' '.join(acronyms(hit.title))} version {hit.version}\n{hit.section or ''}\n{hit.text}"
    )


def acronyms(title: str) -> list[str]:
    """The acronyms a title may go by: initials of each run of two or more capitalised words.

    "Filesystem Hierarchy Standard" → FHS, FH, HS; "GNU General Public License v3" → GPL among
    others: users name documents this way in chat.
    """
    words = [w for w in re.findall(r"[A-Za-z][\w'’]*", title)]
    capitals = [w[0] if w[0].isupper() else "" for w in words]
    found: list[str] = []
    for first in range(len(words)):
        for last in range(first + 2, len(words) + 1):
            initials = capitals[first:last]
            if all(initials):
                found.append("".join(initials))
    return found


def named_titles(query: str, titles: Iterable[str]) -> set[str]:
    """The titles (case-folded) that ``query`` names: by an acronym, or by a word no other title has.

    A title carrying a number ("... License v3") is named only when the question names that number
    too or none at all ("GPLv2" names v2, not v3; "the GPL" names both).
    """
    distinct = {title.casefold(): title for title in titles}
    words = {key: {t for t in sparse_terms.terms(title) if len(t) >= 4} for key, title in distinct.items()}
    split = _split_versions(query)
    asked = set(sparse_terms.terms(split))
    tokens = {token.casefold() for token in re.findall(r"[A-Za-z]+", split)}
    numbers = set(re.findall(r"\d+(?:\.\d+)*", split))
    named: set[str] = set()
    for key, title in distinct.items():
        others = set().union(*(w for k, w in words.items() if k != key))
        by_acronym = any(a.casefold() in tokens for a in acronyms(title) if len(a) >= 3)
        by_word = bool((words[key] - others) & asked)
        own_numbers = set(re.findall(r"\d+(?:\.\d+)*", title))
        if (by_acronym or by_word) and (not own_numbers or not numbers or own_numbers & numbers):
            named.add(key)
    return named


def _split_versions(query: str) -> str:
    # "GPLv3" and "GPL-2" are the acronym and the version: read them as two words.
    return re.sub(r"\b([A-Za-z]{2,}?)-?v?(\d)", r"\1 \2", query)
