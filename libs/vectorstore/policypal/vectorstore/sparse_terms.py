"""BM25 term weights for the sparse (keyword) vector of a chunk, and the matching query vector.

Qdrant multiplies each query term by its inverse document frequency (``Modifier.IDF``, computed by the
server, local mode and Edge alike, over the corpus a search names), so a chunk only carries the BM25
term-frequency part: ``tf * (k1 + 1) / (tf + k1 * (1 - b + b * length / AVERAGE_LENGTH))``. A query
carries 1.0 per distinct term. Terms are lower-cased words, English stop words dropped, reduced to
their Snowball stem ("encrypted", "encryption" → "encrypt"), and hashed to a 32-bit index.
"""

import hashlib
import re
from collections import Counter
from functools import lru_cache

import snowballstemmer  # type: ignore[import-untyped]  # ships no type hints
from qdrant_client import models

K1 = 1.2
B = 0.75
#: Terms in a typical chunk (about 1000 characters): the length BM25 normalises against.
AVERAGE_LENGTH = 150.0

# Letters and digits, with inner dots, hyphens or apostrophes kept ("3.1.4", "debian-policy").
_WORD = re.compile(r"\w+(?:[.'’-]\w+)*")
_STEMMER = snowballstemmer.stemmer("english")
_STOP_WORD_LIST = """a about above after again against all am an and any are as at be because been before being below
    between both but by can could did do does doing down during each few for from further had has have
    having he her here hers herself him himself his how i if in into is it its itself just me more most my
    myself no nor not now of off on once only or other our ours ourselves out over own same she should so
    some such than that the their theirs them themselves then there these they this those through to too
    under until up very was we were what when where which while who whom why will with would you your
    yours yourself yourselves aren't can't couldn't didn't doesn't don't hadn't hasn't haven't isn't mustn't
    shan't shouldn't wasn't weren't won't wouldn't"""
_STOP_WORDS = frozenset(_STOP_WORD_LIST.split())


def terms(text: str) -> list[str]:
    """The index terms of ``text`` in order: stemmed, lower-case, without stop words."""
    # Typeset apostrophes ("program’s", "don’t") read as plain ones, so the stemmer sees a possessive.
    words = _WORD.findall(text.lower().replace("’", "'"))
    return [_stem(word) for word in words if word not in _STOP_WORDS]


def document_vector(text: str) -> models.SparseVector:
    """The BM25 term-frequency weights of a chunk's ``text`` (IDF is applied at search time)."""
    counts = Counter(_index(term) for term in terms(text))
    length = sum(counts.values())
    norm = K1 * (1 - B + B * length / AVERAGE_LENGTH)
    indices = sorted(counts)
    return models.SparseVector(
        indices=indices, values=[counts[i] * (K1 + 1) / (counts[i] + norm) for i in indices]
    )


def query_vector(text: str) -> models.SparseVector:
    """One unit weight per distinct term of the query: its score is the sum of BM25 weights it hits."""
    indices = sorted({_index(term) for term in terms(text)})
    return models.SparseVector(indices=indices, values=[1.0] * len(indices))


@lru_cache(maxsize=65536)
def _stem(word: str) -> str:
    stem: str = _STEMMER.stemWord(word)
    return stem


@lru_cache(maxsize=65536)
def _index(term: str) -> int:
    # A stable hash (not Python's salted hash()): the index written today must match tomorrow's query.
    return int.from_bytes(hashlib.blake2b(term.encode(), digest_size=4).digest(), "little")
