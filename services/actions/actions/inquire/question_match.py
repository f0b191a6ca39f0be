"""Whether two questions are the same question, for the semantic answer cache (docs/product.md,
Semantic answer cache; calibrated in docs/benchmarks.md).

With MiniLM the cosine alone cannot decide: "How long are invoices kept?" / "... contracts kept?" or
"... grade 2 ..." / "... grade 3 ..." can score as high as, or higher than, a true paraphrase. So a hit
needs a moderate cosine **and** the same content terms: each question is reduced to its stemmed
words without the ones that do not change what is asked (articles, pronouns, auxiliaries, "possible",
"please"), after folding inflections ("kept" → "keep") and a short list of synonyms ("retain" →
"keep", "price" → "cost", "ship" → "deliver"). An entity, action or recipient swapped for another is
then a term that differs, and never a hit. Numbers and negations must match too.

Deliberately not stop words: question words other than what/which ("when" is not "where"),
prepositions such as before/after/without, quantifiers (any, all, only), and obligation ("must",
"have to", "required"), so "Must I keep invoices?" is not "May I keep invoices?".
"""

import re
from functools import lru_cache

import snowballstemmer  # type: ignore[import-untyped]  # ships no type hints

#: Cosine similarity of two questions with the same content terms above which they are the same
#: question: under every paraphrase of the calibration set that hits (lowest 0.84), above what two
#: unrelated questions with the same terms would score.
SAME_QUESTION_SIMILARITY = 0.75

_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")
_NEGATION = re.compile(r"\b(?:not|no|never|none|without|cannot|can't|mustn't|shouldn't|isn't|aren't)\b")
_WORD = re.compile(r"\w+(?:['’]\w+)*")
_STEMMER = snowballstemmer.stemmer("english")

# Phrases first (before the words are split): the wording of a duration, an obligation, a return.
_PHRASES = [
    (re.compile(r"\bhow (?:long|quickly|soon|fast)\b"), " duration "),
    (re.compile(r"\b(?:have|has|need|needs) to\b"), " must "),
    (
        re.compile(r"\b(?:send|sent|give|gave|given|bring|brought|take|took|taken) (?:\w+ )?back\b"),
        " return ",
    ),
    # "How much does it cost?" and "What is the price?" both ask the cost.
    (re.compile(r"\bhow much\b(?=.*\b(?:cost|costs|price|fee|fees|charge|charges|pay)\b)"), " "),
    (
        re.compile(r"\bwhat(?= (?:is|are) (?:the )?(?:cost|costs|price|prices|fee|fees|charge|charges)\b)"),
        " ",
    ),
]
_STOP_WORD_LIST = """a an the and or of to for on in at by with from into about as is are was were be been being am
    do does did doing done have has had having can could may might shall will would i me my mine we us
    our ours you your yours it its they them their theirs he she his her this that these those there
    here please possible possibly able allowed allow permitted anyone anybody someone somebody within
    also just really actually ever hi hello thanks thank kindly tell know"""
_STOP_WORDS = frozenset(_STOP_WORD_LIST.split())
# Past forms the stemmer leaves alone.
_IRREGULAR = {
    "kept": "keep",
    "sold": "sell",
    "sent": "send",
    "paid": "pay",
    "bought": "buy",
    "made": "make",
    "given": "give",
    "gave": "give",
    "held": "hold",
    "written": "write",
    "wrote": "write",
    "chosen": "choose",
    "chose": "choose",
    "required": "must",
    "require": "must",
    "requires": "must",
    "obliged": "must",
    "obligated": "must",
    "which": "what",
}
# Stems that ask the same thing; each maps to the group's first stem.
_SYNONYMS = [
    ("keep", "retain", "store"),
    ("delet", "remov", "eras"),
    ("deliv", "deliveri", "ship", "shipment"),
    ("cost", "price", "fee", "charg"),
    ("buy", "purchas"),
    ("larg", "big"),
    ("custom", "client"),
    ("employe", "staff"),
]
_CANONICAL = {stem: group[0] for group in _SYNONYMS for stem in group}


@lru_cache(maxsize=65536)
def _stem(word: str) -> str:
    word = _IRREGULAR.get(word, word)
    stem: str = _STEMMER.stemWord(word)
    return _CANONICAL.get(stem, stem)


@lru_cache(maxsize=4096)
def content_terms(question: str) -> frozenset[str]:
    """The terms that say what ``question`` asks: stemmed, synonyms folded, function words dropped."""
    text = question.lower().replace("’", "'")
    for pattern, replacement in _PHRASES:
        text = pattern.sub(replacement, text)
    return frozenset(_stem(word) for word in _WORD.findall(text) if word not in _STOP_WORDS)


def same_question(first: str, second: str, similarity: float) -> bool:
    """Whether two questions whose embeddings have cosine ``similarity`` ask the same thing."""
    return (
        similarity >= SAME_QUESTION_SIMILARITY
        and content_terms(first) == content_terms(second)
        and _NUMBER.findall(first) == _NUMBER.findall(second)
        and bool(_NEGATION.search(first.lower())) == bool(_NEGATION.search(second.lower()))
    )
