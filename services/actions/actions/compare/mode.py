"""Which comparison a request asks for: a redline, a focused comparison or a holistic one, and why.

Decided from the request as a whole, not from a list of trigger words. First the documents: versions
of one document (the same title once version marks are set aside, or the user speaks of versions)
are compared as a redline. Then the query: what refers to the documents themselves (their titles,
versions, numbers such as "2 and 3" or "(2)", "the previous version") and the wording of a comparison
request are set aside; if a word with content remains, that is a topic and the comparison is focused
on it. Otherwise the comparison covers the documents as a whole (holistic, or the redline).
"""

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from policypal.contracts import ResolvedDocument

ModeKind = Literal["redline", "focused", "holistic"]

_WORD = re.compile(r"[^\W\d_][\w'’-]*|\d[\w.]*", re.UNICODE)
# Version marks in a title or a query: "v2", "1.7", "2024", "(3)", "rev. 4", "2nd".
_VERSION_MARK = re.compile(
    r"\(\s*\d+\s*\)|\bv(?:er(?:sion)?)?\.?\s*\d[\w.]*|\brev(?:ision)?\.?\s*\d[\w.]*|\b\d+(?:st|nd|rd|th)\b|"
    r"\b\d[\d.]*\b",
    re.IGNORECASE,
)
# The user speaks of versions of one document.
_SPEAKS_OF_VERSIONS = re.compile(
    r"\b(?:versions?|revisions?|redline|previous|prior|earlier|later|latest|amended|amendments?|"
    r"drafts?|editions?|what\s+changed|v\d)\b",
    re.IGNORECASE,
)
# Words that ask for a comparison or point at documents, without naming what to compare on.
_REQUEST_WORDS = frozenset(
    [
        "compare",
        "compared",
        "comparing",
        "comparison",
        "contrast",
        "contrasting",
        "versus",
        "vs",
        "against",
        "between",
        "among",
        "and",
        "or",
        "with",
        "to",
        "of",
        "in",
        "on",
        "for",
        "from",
        "the",
        "a",
        "an",
        "these",
        "those",
        "this",
        "that",
        "them",
        "they",
        "it",
        "its",
        "their",
        "both",
        "all",
        "each",
        "every",
        "two",
        "three",
        "four",
        "five",
        "one",
        "document",
        "documents",
        "doc",
        "docs",
        "file",
        "files",
        "text",
        "texts",
        "version",
        "versions",
        "revision",
        "revisions",
        "edition",
        "editions",
        "draft",
        "drafts",
        "redline",
        "previous",
        "prior",
        "earlier",
        "later",
        "latest",
        "last",
        "first",
        "new",
        "old",
        "older",
        "newer",
        "current",
        "amended",
        "amendment",
        "amendments",
        "policy",
        "policies",
        "regulation",
        "regulations",
        "please",
        "can",
        "could",
        "would",
        "will",
        "you",
        "me",
        "us",
        "show",
        "tell",
        "give",
        "list",
        "highlight",
        "explain",
        "summarise",
        "summarize",
        "what",
        "which",
        "how",
        "where",
        "who",
        "do",
        "does",
        "did",
        "is",
        "are",
        "was",
        "were",
        "be",
        "been",
        "has",
        "have",
        "had",
        "there",
        "differ",
        "differs",
        "differed",
        "difference",
        "differences",
        "different",
        "differently",
        "similar",
        "similarity",
        "similarities",
        "same",
        "change",
        "changes",
        "changed",
        "changing",
        "compare?",
        "diff",
        "delta",
        "key",
        "main",
        "major",
        "overall",
        "holistic",
        "whole",
        "full",
        "entire",
        "complete",
        "general",
        "summary",
        "overview",
        "side",
        "by",
        "between",
    ]
)


@dataclass(frozen=True)
class CompareMode:
    """The comparison chosen, the topic of a focused one, and the reason told to the user."""

    kind: ModeKind
    reason: str
    topic: str | None = None
    versions: bool = False


def choose_mode(query: str, documents: Sequence[ResolvedDocument]) -> CompareMode:
    """The comparison ``query`` asks for over ``documents`` (2-5), with the reason for the choice."""
    same_title = len({base_title(d.title) for d in documents}) == 1
    versions = same_title or bool(_SPEAKS_OF_VERSIONS.search(query))
    topic = focus_topic(query, documents)
    if topic is not None:
        of = "versions of one document" if versions else "documents"
        return CompareMode(
            "focused",
            f"Focused on “{topic}”, the topic your request names, across the {of}.",
            topic,
            versions,
        )
    if versions:
        why = (
            f"they are versions of “{documents[0].title}”"
            if same_title
            else "you asked about versions of one document"
        )
        return CompareMode("redline", f"A redline, because {why}.", None, True)
    return CompareMode(
        "holistic",
        "Theme by theme over the whole documents, because they are different documents and no topic was named.",
    )


def focus_topic(query: str, documents: Sequence[ResolvedDocument] = ()) -> str | None:
    """The topic the query names ("capital requirements"), or None when it names none.

    References to the documents (titles, versions, numbers) and the wording of the request itself
    are not a topic.
    """
    text = " ".join(query.split())
    remaining = _without_references(text, documents)
    ignored = _REQUEST_WORDS | _title_words(documents)
    content = [w for w in _WORD.findall(remaining) if w.casefold().strip("'’-") not in ignored]
    if not any(len(word) >= 3 and not word[0].isdigit() for word in content):
        return None
    return _trimmed(text, documents)


def base_title(title: str) -> str:
    """A title with its version marks and punctuation set aside ("GPL v3 (draft)" -> "gpl draft")."""
    return " ".join(re.findall(r"[^\W\d_]+", _VERSION_MARK.sub(" ", title).casefold()))


def _title_words(documents: Sequence[ResolvedDocument]) -> frozenset[str]:
    """The words of the documents' titles and their acronyms ("gpl" of "General Public License")."""
    found: set[str] = set()
    for document in documents:
        words = base_title(document.title).split()
        found.update(words)
        for start in range(len(words)):
            for end in range(start + 2, len(words) + 1):
                found.add("".join(word[0] for word in words[start:end]))
    return frozenset(found)


def _without_references(text: str, documents: Sequence[ResolvedDocument]) -> str:
    for document in documents:
        for name in sorted(
            {document.title, base_title(document.title), document.version}, key=len, reverse=True
        ):
            if name.strip():
                text = re.sub(rf"(?<!\w)@?{re.escape(name)}(?!\w)", " ", text, flags=re.IGNORECASE)
    return _VERSION_MARK.sub(" ", text.replace("@", " "))


def _trimmed(text: str, documents: Sequence[ResolvedDocument]) -> str:
    """The query as asked, without the titles it names (they narrow nothing within a document)."""
    trimmed = text
    for document in documents:
        trimmed = re.sub(rf"@?{re.escape(document.title)}", " ", trimmed, flags=re.IGNORECASE)
    trimmed = " ".join(trimmed.split())
    return trimmed if _WORD.search(trimmed) else text
