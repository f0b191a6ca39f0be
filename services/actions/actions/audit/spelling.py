"""One spelling per word: British forms read as American ones before stemming.

A company writes "licence", "organisation", "behaviour"; the GPL says "License", the Debian Policy
"organization", "behavior". The stemmer keeps them apart ("licenc" / "licens"), so a clause would
not share the rule's words it plainly uses. The forms are listed rather than derived: "-ise" is also
"otherwise", "advertise", "exercise", and "-our" also "four", "hour", "your".
"""

import re
from typing import Final

_STEMS: Final[dict[str, str]] = {
    "licenc": "licens",
    "defenc": "defens",
    "offenc": "offens",
    "behaviour": "behavior",
    "colour": "color",
    "favour": "favor",
    "honour": "honor",
    "labour": "labor",
    "neighbour": "neighbor",
    "catalogue": "catalog",
    "dialogue": "dialog",
    "analogue": "analog",
    "centre": "center",
    "programme": "program",
    "practis": "practic",
    "analys": "analyz",
    "organis": "organiz",
    "authoris": "authoriz",
    "recognis": "recogniz",
    "realis": "realiz",
    "minimis": "minimiz",
    "maximis": "maximiz",
    "optimis": "optimiz",
    "prioritis": "prioritiz",
    "standardis": "standardiz",
    "normalis": "normaliz",
    "summaris": "summariz",
    "categoris": "categoriz",
    "customis": "customiz",
    "initialis": "initializ",
    "serialis": "serializ",
    "synchronis": "synchroniz",
    "utilis": "utiliz",
    "localis": "localiz",
    "internationalis": "internationaliz",
    "characteris": "characteriz",
    "specialis": "specializ",
    "centralis": "centraliz",
    "finalis": "finaliz",
}
# The British stem, then the rest of the word ("licences", "behavioural"); a verb in -ise or -yse only
# with a verb's or its noun's ending ("organisations", not "organism"; "analysed", not "analysis").
_VERB_STEM: Final = re.compile(r"(?:is|ys)$")
_BRITISH: Final = re.compile(
    r"\b(?:("
    + "|".join(sorted((s for s in _STEMS if not _VERB_STEM.search(s)), key=len, reverse=True))
    + r")(?=[a-z]*\b)|("
    + "|".join(sorted((s for s in _STEMS if _VERB_STEM.search(s)), key=len, reverse=True))
    + r")(?=(?:e|ed|es|er|ers|ing|ation|ations|ational|able)\b))",
    re.IGNORECASE,
)


def american_spelling(text: str) -> str:
    """``text`` with the British forms of ``_STEMS`` written the American way ("licence" → "license")."""
    return _BRITISH.sub(lambda m: _cased(_STEMS[m.group(0).lower()], m.group(0)), text)


def _cased(word: str, like: str) -> str:
    return word.capitalize() if like[:1].isupper() else word
