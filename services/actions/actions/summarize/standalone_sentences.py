"""Whether a statement reads alone: a whole sentence a summary can quote without its neighbours.

A summary bullet is read out of context, so it must be a complete sentence: it opens with a capital
(not mid-sentence, not inside a parenthesis), closes with a full stop, question or exclamation mark,
has a finite verb, balanced brackets and quotes, and is prose rather than a field list, a command or
a table row. Sentences that lean on the previous one ("It also …", "However, …") read alone
grammatically but poorly: ``leans_on_context`` tells them apart so they can be ranked down.
"""

import re
from typing import Final

from policypal.contracts.limits import MAX_QUOTE_CHARS
from policypal.rules.statements import heading_text, is_contents_line

#: Fewer words rarely make a point; more run past what a bullet should hold.
MIN_WORDS: Final = 6
MAX_WORDS: Final = 60
#: Prose is mostly letters: a line of fields, paths, versions or code is not.
MIN_LETTER_SHARE: Final = 0.75

_OPENS: Final = re.compile(r"^[\"“‘']?[A-Z]")
_CLOSES: Final = re.compile(r"[.!?][\"”’')\]]*$")
_TOKEN: Final = re.compile(r"[A-Za-z][A-Za-z'’-]*")
_FINITE: Final = frozenset(
    [
        "is",
        "are",
        "was",
        "were",
        "be",
        "been",
        "am",
        "has",
        "have",
        "had",
        "do",
        "does",
        "did",
        "can",
        "cannot",
        "could",
        "may",
        "might",
        "must",
        "shall",
        "should",
        "will",
        "would",
        "need",
        "needs",
        "ought",
        "isn't",
        "aren't",
        "wasn't",
        "doesn't",
        "don't",
        "didn't",
        "can't",
        "won't",
        "shouldn't",
        "mustn't",
    ]
)
# A verb after its subject: "this manual describes", "it contains", "the board approved".
_SUBJECT_VERB: Final = re.compile(
    r"\b(?:(?:the|this|that|each|every|a|an|its|their|our|your|no|any|such)\s+(?:[\w-]+\s+){1,2}"
    r"|(?:it|this|that|which|who|he|she|one|everyone|nobody|none|someone|something)\s+"
    r"(?:also\s+|only\s+|usually\s+|always\s+|often\s+|never\s+)?)"
    r"(?!(?:is|was|has|does|this|its|his|us)\b)(?:[a-z]{2,}(?<![su])s|[a-z]{3,}ed)\b(?!\s*[,.;:])",
    re.IGNORECASE,
)
# A verb before its object: "says the", "adds a file", "adopted the" ("last updated May 5" has none).
_VERB_OBJECT: Final = re.compile(
    r"\b(?:[a-z]{2,}(?<![su])s|[a-z]{3,}ed)\s+(?:the|a|an|that|its|their|his|her|all|any|each|every|no|this|these|"
    r"those|whether|how|what|which|if|only|both)\b"
)
_LEANING: Final = re.compile(
    r"^(?:it|they|them|these|those|such|however|also|thus|then|otherwise|instead|hence|therefore|so|"
    r"but|and|or|nor|yet|still|besides|rather|similarly|likewise|furthermore|moreover|additionally|again|"
    r"here|there|nevertheless|nonetheless|accordingly|consequently|conversely|alternatively|finally|"
    r"as\s+a\s+result|in\s+other\s+words|that\s+is|"
    r"in\s+(?:this|that|these|such|either|both|addition|particular)\b|for\s+(?:example|instance)|"
    r"e\.g\.|i\.e\.|this\s+(?:is|was|will|would|can|may|must|should|also|does|has|(?![a-z]+ss\b)[a-z]+s)\b)\b",
    re.IGNORECASE,
)
# A footnote number left inside the sentence where the page's footnote was read into it: "may 1 The …".
_INLINE_FOOTNOTE: Final = re.compile(r"\b[a-z]+\s+\d{1,2}\s+[A-Z][a-z]")
_PAIRS: Final = (("(", ")"), ("[", "]"), ("“", "”"))


def reads_alone(sentence: str) -> bool:
    """True when ``sentence`` (on one line) is a complete sentence a summary can quote by itself."""
    words = _TOKEN.findall(sentence)
    return (
        MIN_WORDS <= len(words) <= MAX_WORDS
        # Longer sentences could not be quoted whole.
        and len(sentence) <= MAX_QUOTE_CHARS
        and bool(_OPENS.match(sentence))
        and bool(_CLOSES.search(sentence))
        and _balanced(sentence)
        and _letter_share(sentence) >= MIN_LETTER_SHARE
        and heading_text(sentence) is None
        and not is_contents_line(sentence)
        and not _INLINE_FOOTNOTE.search(sentence)
        and has_finite_verb(sentence)
    )


def has_finite_verb(sentence: str) -> bool:
    """True when ``sentence`` has a finite verb: an auxiliary or modal, or a verb after its subject or
    before its object.

    A heuristic without a tagger: a heading, a label or a noun phrase has none of these. It misses a
    plural verb with no auxiliary ("files reside in /etc"): such a sentence is left out, never a
    fragment let in.
    """
    lowered = sentence.lower()
    if any(word in _FINITE for word in _TOKEN.findall(lowered)):
        return True
    return bool(_SUBJECT_VERB.search(sentence) or _VERB_OBJECT.search(lowered))


def leans_on_context(sentence: str) -> bool:
    """True when ``sentence`` opens by pointing back at what came before ("It …", "However, …")."""
    return bool(_LEANING.match(sentence.lstrip("\"“‘'")))


def _balanced(sentence: str) -> bool:
    if any(sentence.count(opening) != sentence.count(closing) for opening, closing in _PAIRS):
        return False
    return sentence.count('"') % 2 == 0


def _letter_share(sentence: str) -> float:
    visible = [c for c in sentence if not c.isspace()]
    return sum(c.isalpha() for c in visible) / len(visible) if visible else 0.0
