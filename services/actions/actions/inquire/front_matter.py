"""Questions about a document itself: when it was published, dated, adopted; answered from its opening.

"When was FHS 3.0 published?", "what's the date of GPL version 3?": a regulation or a licence states
its own date on its title page or in its first lines ("Publication date: March 19, 2015", "Version 3,
29 June 2007"). Hybrid search seldom returns those chunks (the words differ: "published" and
"Publication date"; a title page says little else), and the ranking marks title pages as boilerplate.
So when a question asks for a date, names a document and asks nothing else about it, that
document's opening chunks join the candidates, and one that states a date goes first
(``FRONT_MATTER``): the answer is where the document speaks of itself, not a date in its history
appendix ("Subsequent revisions were released on October 9, 1994").
"""

import re
from collections.abc import Iterable
from typing import Final

from actions.inquire.lexical import acronyms, has_quantity
from policypal.vectorstore import ChunkHit, sparse_terms

#: Chunks of a document's opening read for its own date (a title page, a licence's first lines).
OPENING_CHUNKS: Final = 2
#: Bonus of a named document's opening chunk that states a date, for such a question (stage 1 and final
#: score): more than any passage's lead over another, so the document's own statement comes first.
FRONT_MATTER: Final = 0.5
#: Words besides the document's name a question about its date may use ("published", "come into force").
MAX_OTHER_TERMS: Final = 2

_DATE_QUESTION: Final = re.compile(r"\b(?:when|date[ds]?|(?:what|which) year)\b", re.IGNORECASE)
# Words that ask for the date itself, and "version", which names the document's edition.
_ASKING: Final = frozenset(sparse_terms.terms("when date dated dates year version edition"))


def asks_for_document_date(query: str, named_titles: Iterable[str]) -> bool:
    """Whether ``query`` asks for the date of a document it names (``named_titles``, case-folded)."""
    titles = list(named_titles)
    if not titles or _DATE_QUESTION.search(query) is None:
        return False
    naming = set(_ASKING)
    for title in titles:
        naming |= set(sparse_terms.terms(title))
        naming |= {a.casefold() for a in acronyms(title)}
    # "GPLv3" and "FHS 3.0": the acronym and the number name the document, not a subject.
    words = re.sub(r"\b([A-Za-z]{2,}?)-?v?(\d)", r"\1 \2", query)
    other = {t for t in sparse_terms.terms(words) if t not in naming and not t[:1].isdigit()}
    return len(other) <= MAX_OTHER_TERMS


def is_opening(hit: ChunkHit) -> bool:
    """Whether ``hit`` is among its document's opening chunks."""
    return hit.chunk_index < OPENING_CHUNKS


def states_own_date(hit: ChunkHit) -> bool:
    """Whether ``hit`` is an opening chunk that states a date (or a year, a number)."""
    return is_opening(hit) and has_quantity(hit.text)
