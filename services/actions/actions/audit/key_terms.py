"""Key terms: the stemmed content words a clause and a rule are matched and judged on.

Modal and generic words ("must", "use", "include") say how binding a sentence is, not what it is
about, and are left out; a name in snake case is its words; British spellings read as American ones
(``spelling``). One module for the audit's vocabulary, so every reading stems alike.
"""

import re
from functools import lru_cache
from typing import Final

from actions.audit.spelling import american_spelling
from policypal.vectorstore.sparse_terms import terms

# Modal and generic words say how binding a sentence is, not what it is about.
_GENERIC: Final = frozenset(
    terms(
        "must shall should may might can could will would need needs required require requires requirement "
        "allowed allow permitted permit prohibited prohibit forbidden forbid recommended recommend "
        "mandatory optional always never also every each any all following use used using make made "
        "ensure include includes including provide provided case cases way ways one"
    )
)
_WORD: Final = re.compile(r"\w+(?:[.'’-]\w+)*")


@lru_cache(maxsize=65536)
def key_terms(text: str) -> frozenset[str]:
    """The stemmed content terms of ``text``, without modal and generic words."""
    return frozenset(key_terms_in_order(text))


def key_terms_in_order(text: str) -> list[str]:
    """The stemmed content terms of ``text`` in reading order, each once; a name written with
    underscores is its words ("upstream_version" is what "the upstream version" names), and British
    spellings are read as American ones ("licence" is "license": ``spelling``), and a prefix the same
    with a hyphen or without ("pre-formatted" is "preformatted")."""
    words = _SNAKE_CASE.sub(" ", text)
    words = american_spelling(_PREFIXED.sub(r"\1", words) if "-" in words else words)
    return list(dict.fromkeys(t for t in terms(words) if t not in _GENERIC and not t.isdigit()))


_SNAKE_CASE: Final = re.compile(r"(?<=[a-z])_(?=[a-z])")
# A prefix is written with a hyphen or without: "pre-formatted" is "preformatted", "non-interactive"
# "noninteractive".
_PREFIXED: Final = re.compile(
    r"(?<![\w-])(pre|non|re|co|un|sub|post|multi|semi|anti)-(?=[a-z])", re.IGNORECASE
)


def split_compounds(text: str, other: str) -> str:
    """``text`` with each word that is two words of ``other`` written together set apart ("logrotate"
    is "log rotate" beside "Log files must be rotated"): a closed compound names what its parts do.
    Only the words of ``other`` are read as parts, so no dictionary is needed, and no word is split
    that ``other`` itself uses."""
    words, stems = _parts_of(other)

    def apart(found: re.Match[str]) -> str:
        word = found.group(0)
        low = word.lower()
        if low in words:
            return word
        for cut in range(_PART, len(low) - _PART + 1):
            if low[:cut] in words and key_terms(low[cut:]) & stems:
                return f"{word[:cut]} {word[cut:]}"
        return word

    return _CLOSED_COMPOUND.sub(apart, text)


@lru_cache(maxsize=8192)
def _parts_of(other: str) -> tuple[frozenset[str], frozenset[str]]:
    """The words of ``other`` (lower case) and its key terms: what a compound's parts are read against,
    read once per rule, as every clause is judged against it."""
    return frozenset(w.lower() for w in _WORD.findall(other)), key_terms(other)


#: The shortest part of a closed compound ("log" of "logrotate").
_PART: Final = 3
_CLOSED_COMPOUND: Final = re.compile(rf"\b[A-Za-z]{{{2 * _PART},}}\b")


def shared_words(clause: str, rule: str) -> list[str]:
    """The clause's own words whose terms the rule shares (for showing why they were matched)."""
    return words_for_terms(clause, key_terms(rule))


def words_for_terms(text: str, wanted: frozenset[str]) -> list[str]:
    """The words of ``text`` whose key terms are among ``wanted`` (a stem is not stemmed again:
    "sublicens" would become "sublicen"), each once, at most 8."""
    words: list[str] = []
    for word in _WORD.findall(text):
        stems = key_terms(word)
        if stems and stems <= wanted and word.lower() not in (w.lower() for w in words):
            words.append(word)
    return words[:8]
