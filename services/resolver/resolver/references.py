"""Reference words ("those", "that regulation", "the policy above", "both") resolved against the registry.

The registry lists the documents a conversation has used with the turn that last used them; a
reference picks among them by recency and document type. A reference that fits several documents
equally is ambiguous: the caller asks the user (doc_choice) instead of guessing.
"""

import re
from collections.abc import Sequence
from dataclasses import dataclass

from policypal.contracts import ConfidenceTier, DocType
from policypal.state import RegistryEntry

_COUNTS = {"two": 2, "three": 3, "four": 4, "five": 5, "2": 2, "3": 3, "4": 4, "5": 5, "both": 2}
_REGULATORY = r"regulations?|regulatory (?:docs?|documents?|sources?)|guidelines?|rules|rulebook|standards?|acts?|laws?|frameworks?|circulars?|directives?"
_POLICY = r"polic(?:y|ies)|procedures?|handbooks?|manuals?"
_ANY = r"docs?|documents?|files?|ones?|versions?|texts?|licen[cs]es?|guides?"
#: Plural nouns that name a group of the conversation's documents: "the regulations we discussed".
_GROUP_KINDS = r"regulations|polic(?:ies)|documents|docs|files|licen[cs]es|guidelines|manuals|texts"
_KINDS = rf"(?P<kind>{_REGULATORY}|{_POLICY}|{_ANY})"
_DEMONSTRATIVE = {"that", "this", "these", "those", "said", "same", "latter", "last", "previous", "above"}
_MODIFIERS = r"(?:previous|earlier|above|same|other|last|latter|former|mentioned|regulatory|company|internal|two|three|four|five|[2-5])"

_COUNTED = re.compile(
    rf"\b(?P<det>those|these|the|both|all)\s+(?P<count>two|three|four|five|[2-5])\s+(?:{_MODIFIERS}\s+)?{_KINDS}\b",
    re.IGNORECASE,
)
_BOTH = re.compile(rf"\bboth(?:\s+(?:of\s+)?(?:them|these|those|(?:the\s+)?{_KINDS}))?\b", re.IGNORECASE)
_PLURAL = re.compile(
    rf"\b(?P<det>those|these|them|the above)(?:\s+(?:{_MODIFIERS}\s+)?(?P<kind>{_REGULATORY}|{_POLICY}|{_ANY}))?\b",
    re.IGNORECASE,
)
_GROUP = re.compile(
    rf"\b(?P<all>all\s+of\s+(?:them|these|those))\b"
    rf"|\b(?P<det>all\s+(?:of\s+)?the|all|the|our)\s+(?:{_MODIFIERS}\s+)?(?P<kind>{_GROUP_KINDS})\b",
    re.IGNORECASE,
)
_SINGULAR = re.compile(
    rf"\b(?P<det>that|this|the|our|said|same)\s+(?:(?P<mod>{_MODIFIERS})\s+)?{_KINDS}"
    r"(?P<after>\s+(?:above|earlier|before|mentioned|we discussed|from before))?\b",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Reference:
    """One reference phrase: how many documents, of which type, how pointed ("that" vs "the")."""

    phrase: str
    position: int
    count: int | None  # None: "those"/"them" = the documents of the last turn
    doc_type: DocType | None
    pointed: bool


@dataclass(frozen=True)
class ReferenceResolution:
    """What a reference resolves to: documents, or the candidates to ask about."""

    reference: Reference
    confidence: ConfidenceTier
    document_ids: tuple[str, ...] = ()
    candidates: tuple[str, ...] = ()


def _doc_type(kind: str | None) -> DocType | None:
    if kind is None:
        return None
    if re.fullmatch(_REGULATORY, kind, re.IGNORECASE):
        return "regulatory"
    if re.fullmatch(_POLICY, kind, re.IGNORECASE):
        return "policy"
    return None


def find_references(text: str) -> list[Reference]:
    """The reference phrases in ``text``, in order, none overlapping another."""
    found: list[Reference] = []
    taken: list[range] = []

    def add(match: re.Match[str], reference: Reference) -> None:
        span = range(match.start(), match.end())
        if not any(span.start < t.stop and t.start < span.stop for t in taken):
            taken.append(span)
            found.append(reference)

    for m in _COUNTED.finditer(text):
        add(m, Reference(m.group(0), m.start(), _COUNTS[m["count"].lower()], _doc_type(m["kind"]), True))
    for m in _BOTH.finditer(text):
        add(m, Reference(m.group(0), m.start(), 2, _doc_type(m["kind"]), True))
    for m in _SINGULAR.finditer(text):
        kind = m["kind"].lower()
        if kind.endswith("s") and kind != "guidelines":
            continue  # "the documents" is plural: left to _PLURAL
        pointed = (
            m["det"].lower() in _DEMONSTRATIVE
            or bool(m["after"])
            or (m["mod"] or "").lower() in _DEMONSTRATIVE
        )
        add(m, Reference(m.group(0), m.start(), 1, _doc_type(kind), pointed))
    for m in _PLURAL.finditer(text):
        add(m, Reference(m.group(0), m.start(), None, _doc_type(m["kind"]), True))
    for m in _GROUP.finditer(text):
        # "all of them" points at what was just discussed; "the regulations" may name a kind to search.
        add(m, Reference(m.group(0), m.start(), None, _doc_type(m["kind"]), bool(m["all"])))
    return sorted(found, key=lambda r: r.position)


def resolve_reference(
    reference: Reference, registry: Sequence[RegistryEntry], exclude: set[str]
) -> ReferenceResolution:
    """Resolve one reference against the registry (most recent first), leaving out ``exclude``."""
    pool = [
        e
        for e in registry
        if e.document_id not in exclude and (reference.doc_type is None or e.doc_type == reference.doc_type)
    ]
    if not pool:
        return ReferenceResolution(reference, "low")
    if reference.count is None:
        return ReferenceResolution(reference, "high", document_ids=_recent_group(pool))
    if len(pool) == reference.count:
        return ReferenceResolution(reference, "high", document_ids=tuple(e.document_id for e in pool))
    if len(pool) < reference.count:
        return ReferenceResolution(reference, "medium", candidates=tuple(e.document_id for e in pool))
    ordered = sorted(pool, key=lambda e: -e.last_used_turn)
    cut = ordered[reference.count - 1].last_used_turn
    if reference.pointed and ordered[reference.count].last_used_turn < cut:
        # "those two", "that regulation": the most recent ones, and recency tells them apart.
        return ReferenceResolution(
            reference, "high", document_ids=tuple(e.document_id for e in ordered[: reference.count])
        )
    if reference.pointed:
        tied = tuple(e.document_id for e in ordered if e.last_used_turn >= cut)
        return ReferenceResolution(reference, "medium", candidates=tied)
    return ReferenceResolution(reference, "medium", candidates=tuple(e.document_id for e in ordered))


def _recent_group(pool: Sequence[RegistryEntry]) -> tuple[str, ...]:
    """What a plural reference ("those", "them", "the regulations") means: the documents of the most
    recent turns, turn by turn, until there are two (two summaries in a row are "those").
    """
    turns = sorted({e.last_used_turn for e in pool}, reverse=True)
    group: list[str] = []
    for turn in turns:
        group.extend(e.document_id for e in pool if e.last_used_turn == turn)
        if len(group) >= 2:  # a plural is at least two
            break
    return tuple(group)
