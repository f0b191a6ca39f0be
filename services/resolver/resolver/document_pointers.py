"""Phrases that only point at a document ("according to our policy", "in the Debian Policy Manual").

Once the resolver knows the documents, naming them again in the search text adds nothing: retrieval
is already scoped to them, and a title matches every chunk's heading equally. A generic pointer
("in the manual", "per the document above") names no document at all, so it is dropped whether or
not a document was resolved; a specific name (a title) is dropped only when it names a resolved
document, because otherwise it is what steers the search towards that document.

Only pointing phrases go: a preposition with the document ("in", "according to", "as per"), a title
opening the message ("Debian Policy Manual: ..."), and "what does <document> say about".
A document word that is part of the subject ("the file system", "under the policy of least
privilege") stays, because a pointer must end the clause.
"""

import re
from collections.abc import Callable, Iterable, Sequence

from policypal.contracts import ResolvedDocument
from resolver.conversational_filler import safe_cleaning, without_filler

_DETERMINER = r"(?:the|our|this|that|your|my|these|those)"
_GENERIC = (
    r"(?:(?:attached|uploaded|tagged|shared|above|same|current)\s+)?(?:(?:policy|reference)\s+)?"
    r"(?:documents?|docs?|polic(?:y|ies)|manuals?|handbooks?|guides?|guidelines|pdfs?|rulebooks?"
    r"|standards?|specs?|specifications?|frameworks?|regulations?)"
)
_TRAILER = (
    r"(?:\s+(?:above|attached|here|(?:that\s+)?(?:i|we)\s+(?:just\s+)?"
    r"(?:tagged|uploaded|shared|sent|attached|mentioned)|you\s+have))?"
)
_PREPOSITION = (
    r"(?:according\s+to|as\s+per|per|in|from|under|within|based\s+on"
    r"|as\s+(?:stated|described|defined|written|set\s+out|specified|explained)\s+in)"
)
#: What may follow a pointer: the end of a clause, or the word that starts the question.
_CLAUSE_END = (
    r"(?=\s*(?:[,.;:?!)]|$)|\s+(?:what|how|when|where|which|who|whom|whose|why|is|are|was|were|do|does"
    r"|did|can|could|should|must|may|might|will|would|shall|has|have|if|whether|there|it|we|i|you)\b)"
)


def without_document_pointers(text: str, names: Iterable[str] = ()) -> str:
    """``text`` without phrases that point at a document; ``names`` are the resolved documents' names.

    Returns ``text`` when the result would have no content word or lose a number, identifier,
    negation or quoted term (what is inside a dropped pointer, such as a title's version, may go).
    """
    named = sorted({n.strip() for n in names if n.strip()}, key=len, reverse=True)
    references = [rf"(?:{_DETERMINER}\s+)?{_flexible(n)}" for n in named] + [rf"{_DETERMINER}\s+{_GENERIC}"]
    reference = f"(?:{'|'.join(references)})"
    dropped: list[str] = list(named)

    def drop(replacement: str) -> Callable[[re.Match[str]], str]:
        def replace(match: re.Match[str]) -> str:
            dropped.append(match.group(0))
            return replacement

        return replace

    cleaned = re.sub(
        rf"\bwhat\s+(?:does|do|did)\s+{reference}{_TRAILER}\s+(?:say|state|mention|specify|stipulate)"
        r"\s+(?:about|on|regarding|concerning|re)\b",
        drop("what about"),
        text,
        flags=re.IGNORECASE,
    )
    # Between two commas the pointer takes both with it: "How long, per the policy, are ...".
    cleaned = re.sub(
        rf",\s*{_PREPOSITION}\s+{reference}{_TRAILER}\s*,", drop(" "), cleaned, flags=re.IGNORECASE
    )
    cleaned = re.sub(
        rf"(?:^|(?<=[\s,;:(]))\s*{_PREPOSITION}\s+{reference}{_TRAILER}{_CLAUSE_END}",
        drop(" "),
        cleaned,
        flags=re.IGNORECASE,
    )
    if named:
        opening = "|".join(_flexible(n) for n in named)
        cleaned = re.sub(rf"^\s*(?:{opening})\s*[:,\u2013\u2014-]\s*", "", cleaned, flags=re.IGNORECASE)
    cleaned = re.sub(r"\s+", " ", cleaned)
    cleaned = re.sub(r" ([,;:.?!)])(?!\w)", r"\1", cleaned)
    cleaned = re.sub(r",(?:\s*,)+", ",", cleaned)
    cleaned = re.sub(r"^(?:\s|[,;:.\u2013\u2014-](?![\w/.-]))+", "", cleaned).strip()
    return safe_cleaning(text, cleaned, allowed_to_drop=dropped)


def document_names(documents: Sequence[ResolvedDocument], extra: Iterable[str] = ()) -> list[str]:
    """Every way the message may name ``documents``: title with version, title, and ``extra`` names."""
    names = [f"{d.title} {d.version}" for d in documents if d.version] + [d.title for d in documents]
    return [*names, *extra]


def plain_question(text: str, names: Iterable[str] = ()) -> str:
    """The search text of a chat message: without filler, then without pointers at documents."""
    return without_document_pointers(without_filler(text), names)


def _flexible(name: str) -> str:
    """``name`` as a pattern that allows any run of spaces between its words."""
    return r"\s+".join(re.escape(word) for word in name.split())
