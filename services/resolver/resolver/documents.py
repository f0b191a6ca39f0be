"""Which documents a message means: three stages (docs/product.md, Document resolution).

1. Structured mentions: the ids the composer sent. A message that is only mentions stops here.
2. A ``DocumentMatcher`` over the FULL message, the explicit documents and the conversation's
   registry: titles written out, reference words, loose names it cannot place. The deterministic
   ``RegistryDocumentMatcher`` is the offline one; an LLM matcher satisfies the same protocol.
3. Fuzzy matching (rapidfuzz, title + version, >= 85) of the loose names over the user's catalog.

The clean query handed on is the message without mentions, chat filler and phrases that only point
at the resolved documents (``resolver.document_pointers.plain_question``).
"""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Literal, Protocol

from policypal.contracts import ActionName, ConfidenceTier, ResolvedDocument
from policypal.state import DocumentRecord, RegistryEntry
from resolver.document_pointers import document_names, plain_question
from resolver.intent import asks_about_a_topic
from resolver.matching import Named, fuzzy_matches, loose_names, title_hits
from resolver.mentions import mask_spans, mention_names, mention_spans, strip_mentions
from resolver.name_roles import refers_to_a_document
from resolver.references import Reference, find_references, resolve_reference
from resolver.tagged_references import covered_by_tagged, names_a_tagged
from resolver.typed_mentions import typed_mentions
from resolver.versions import (
    VersionMatch,
    find_version_references,
    resolve_versions,
    without_version_references,
)

_RANK: dict[ConfidenceTier, int] = {"low": 0, "medium": 1, "high": 2}
#: Actions that cannot run without documents: with no reference at all they continue with the last turn's.
_NEEDS_DOCUMENTS: frozenset[ActionName] = frozenset({"summarize", "compare", "audit"})
#: Actions over whole documents: their query is a topic only when one is named.
_WHOLE_DOCUMENTS: frozenset[ActionName] = frozenset({"summarize", "compare"})


@dataclass(frozen=True)
class MatchRequest:
    """What stage 2 sees (the full message, not only the words around the mentions: docs/product.md, Document resolution)."""

    message: str
    action: ActionName
    explicit: Sequence[ResolvedDocument]
    registry: Sequence[RegistryEntry]
    recent: Sequence[str] = ()
    #: Character spans of the explicit mentions in ``message``.
    mention_spans: Sequence[tuple[int, int]] = ()
    #: The user's ready documents: other versions of a title in focus come from here.
    catalog: Sequence[DocumentRecord] = ()
    #: Where each tagged document is mentioned in ``message`` (its end when not written out).
    explicit_positions: Mapping[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class RegistryMatch:
    """Stage 2's answer: documents from the registry, names it could not place, how sure it is."""

    document_ids: tuple[str, ...] = ()
    unresolved_names: tuple[str, ...] = ()
    confidence: ConfidenceTier = "high"
    candidates: tuple[str, ...] = ()
    has_implicit_refs: bool = False
    positions: Mapping[str, int] = field(default_factory=dict)
    #: Said to the user with the answer, e.g. that the offline rules stood in for the language model.
    notice: str | None = None


class DocumentMatcher(Protocol):
    """Stage 2 of document resolution."""

    async def match(self, request: MatchRequest) -> RegistryMatch:
        """Registry documents the message refers to, and the names it mentions but the registry lacks."""
        ...


@dataclass
class DocumentResolution:
    """The documents of a turn, with the clean query and how they were found."""

    documents: list[ResolvedDocument]
    confidence: ConfidenceTier
    source: Literal["explicit", "inferred", "fuzzy_match", "none"]
    clean_query: str
    candidates: list[ResolvedDocument] = field(default_factory=list)
    unresolved_names: list[str] = field(default_factory=list)
    positions: dict[str, int] = field(default_factory=dict)
    notice: str | None = None


def resolved(doc: DocumentRecord | RegistryEntry) -> ResolvedDocument:
    """The hand-off form of a catalog record or registry entry."""
    return ResolvedDocument(
        document_id=doc.document_id, title=doc.title, version=doc.version, doc_type=doc.doc_type
    )


@dataclass
class _Matching:
    """What the passes of ``RegistryDocumentMatcher.match`` have found so far, and the text left to read
    (what they matched is masked, so a later pass never reads it again)."""

    text: str
    pool: list[RegistryEntry]
    explicit: set[str]
    ids: list[str] = field(default_factory=list)
    positions: dict[str, int] = field(default_factory=dict)
    confidence: ConfidenceTier = "high"
    candidates: tuple[str, ...] = ()
    spans: list[tuple[int, int]] = field(default_factory=list)

    def lower_confidence(self, tier: ConfidenceTier) -> None:
        """Keep the lowest confidence any pass had."""
        if _RANK[tier] < _RANK[self.confidence]:
            self.confidence = tier


class RegistryDocumentMatcher:
    """Offline stage 2: titles in the message, reference words by recency and type, loose names."""

    async def match(self, request: MatchRequest) -> RegistryMatch:
        """Match the message against the registry; every rule is deterministic.

        Passes, each reading only what the earlier ones left: version phrases, titles, reference
        words ("the policy", "both"), then names that may be documents nobody has; with none of
        these, a document action means the documents of the previous turn.
        """
        explicit = {d.document_id for d in request.explicit}
        found = _Matching(
            text=mask_spans(request.message, request.mention_spans),
            pool=[e for e in request.registry if e.document_id not in explicit],
            explicit=explicit,
        )
        versions = _match_versions(found, request)
        _match_titles(found)
        references = _match_references(found, request)
        free_text = mask_spans(found.text, found.spans)
        known: list[Named] = [*request.catalog, *request.registry]
        names = tuple(
            name
            for name, start in loose_names(free_text)
            if refers_to_a_document(name, start, free_text, known)
        )
        implicit = bool(found.ids or found.candidates or references or versions)
        if not implicit and not names and not explicit and request.action in _NEEDS_DOCUMENTS and found.pool:
            # "What are the key differences in capital requirements?" after a compare: the same documents.
            newest = max(e.last_used_turn for e in found.pool)
            found.ids = [e.document_id for e in found.pool if e.last_used_turn == newest]
            implicit = True
        return RegistryMatch(
            document_ids=tuple(found.ids),
            unresolved_names=names,
            confidence=found.confidence,
            candidates=found.candidates,
            has_implicit_refs=implicit,
            positions=found.positions,
        )


def _match_versions(found: _Matching, request: MatchRequest) -> VersionMatch | None:
    """Version phrases ("version 2", "the 2023 one"): the versions they pick, masked out of the text."""
    versions = resolve_versions(
        find_version_references(found.text),
        found.text,
        explicit=request.explicit,
        registry=found.pool,
        catalog=request.catalog,
    )
    if versions is not None:
        found.ids = _version_ids(versions, request.action, found.explicit)
        found.positions.update(versions.positions)
        found.candidates = tuple(c for c in versions.candidates if c not in found.explicit)
        found.confidence = "medium" if found.candidates else "high"
        found.spans.extend(versions.spans)
        found.text = mask_spans(found.text, versions.spans)
    return versions


def _match_titles(found: _Matching) -> None:
    """Titles written out: one document each, or a choice when several share the title."""
    by_title: dict[str, list[str]] = {}
    for hit in title_hits(found.text, found.pool):
        if hit.document_id in found.ids:
            continue
        title = next(e.title.lower() for e in found.pool if e.document_id == hit.document_id)
        by_title.setdefault(title, []).append(hit.document_id)
        found.positions[hit.document_id] = hit.position
        found.spans.append((hit.position, hit.position + len(title)))
    for same_title in by_title.values():
        if len(same_title) == 1:
            found.ids.append(same_title[0])
        elif not found.candidates:
            found.confidence, found.candidates = "medium", tuple(same_title)
    found.text = mask_spans(found.text, found.spans)


def _match_references(found: _Matching, request: MatchRequest) -> list[Reference]:
    """Reference words ("the policy", "both", "the previous version"), resolved by recency and type."""
    references = find_references(found.text)
    for reference in references:
        found.spans.append((reference.position, reference.position + len(reference.phrase)))
        if _points_at_tags(reference, request):
            continue  # "this manual", "these two versions": the tagged documents
        answer = resolve_reference(reference, found.pool, exclude={*found.ids})
        if answer.confidence == "low" and reference.doc_type is not None and request.action == "audit":
            # "Audit @ACME against the policy" after two regulations: the kind word was loose.
            answer = resolve_reference(replace(reference, doc_type=None), found.pool, exclude={*found.ids})
        if answer.confidence == "low" and not reference.pointed:
            # "What does our policy say about PEP screening?" in a fresh conversation names the
            # kind of document to search, not one to pick: the search runs over the catalog.
            continue
        if answer.confidence == "medium" and not found.candidates:
            found.candidates = answer.candidates
            for candidate in found.candidates:
                found.positions.setdefault(candidate, reference.position)
        found.lower_confidence(answer.confidence)
        for document_id in answer.document_ids:
            found.positions.setdefault(document_id, reference.position)
            if document_id not in found.ids:
                found.ids.append(document_id)
    return references


def _tags_suffice(request: MatchRequest) -> bool:
    """Whether the tagged documents are all the message refers to: every reference word points at
    them, and it writes no version phrase and no name other than theirs.
    """
    if not request.explicit:
        return False
    text = mask_spans(request.message, request.mention_spans)
    if find_version_references(text):
        return False
    references = find_references(text)
    if not all(_points_at_tags(reference, request) for reference in references):
        return False
    rest = mask_spans(text, [(r.position, r.position + len(r.phrase)) for r in references])
    return all(names_a_tagged(name, request.explicit) for name, _ in loose_names(rest))


def _points_at_tags(reference: Reference, request: MatchRequest) -> bool:
    return covered_by_tagged(
        reference,
        request.explicit,
        positions=request.explicit_positions,
        message=request.message,
        action=request.action,
    )


def _version_ids(versions: VersionMatch, action: ActionName, explicit: set[str]) -> list[str]:
    """The versions picked; a compare also takes the version they are relative to ("compare it")."""
    picked = [*versions.anchors, *versions.document_ids] if action == "compare" else versions.document_ids
    return [i for i in dict.fromkeys(picked) if i not in explicit]


async def resolve_documents(
    message: str,
    *,
    action: ActionName,
    explicit: Sequence[DocumentRecord],
    registry: Sequence[RegistryEntry],
    catalog: Sequence[DocumentRecord],
    matcher: DocumentMatcher,
    recent: Sequence[str] = (),
) -> DocumentResolution:
    """Run the three stages for ``message``; ``catalog`` holds the user's ready documents."""
    names = mention_names(explicit)
    spans = mention_spans(message, names)
    tagged_spans = [(s, e) for _, s, e in spans]
    typed = typed_mentions(message, [d for d in catalog if d not in explicit], taken=tagged_spans)
    explicit = [*explicit, *(t.document for t in typed if t.document not in explicit)]
    tagged_spans += [(t.start, t.end) for t in typed]
    clean_query = strip_mentions(mask_spans(message, [(t.start, t.end) for t in typed]), names)
    explicit_docs = [resolved(d) for d in explicit]
    positions = _explicit_positions(explicit, spans, len(message))
    positions.update({t.document.document_id: t.start for t in typed})
    if explicit_docs and not clean_query.strip(" ,;:.?!"):
        # The pure-mention shortcut: everything was tagged, nothing to infer.
        return DocumentResolution(explicit_docs, "high", "explicit", clean_query, positions=positions)

    request = MatchRequest(
        message, action, explicit_docs, registry, recent, tagged_spans, catalog, explicit_positions=positions
    )
    # "Summarize this manual." with the manual tagged: nothing left to match, so no matcher (no model call).
    match = RegistryMatch() if _tags_suffice(request) else await matcher.match(request)
    by_id: dict[str, DocumentRecord | RegistryEntry] = {
        **{e.document_id: e for e in registry},
        **{d.document_id: d for d in catalog},
    }
    documents = explicit_docs + [resolved(by_id[i]) for i in match.document_ids if i in by_id]
    positions.update(match.positions)
    confidence = match.confidence
    source: Literal["explicit", "inferred", "fuzzy_match", "none"] = (
        "inferred" if match.document_ids else "explicit" if explicit_docs else "none"
    )
    candidates = [resolved(by_id[i]) for i in match.candidates if i in by_id]

    # Stage 3: names the registry does not know, against the whole catalog.
    taken = {d.document_id for d in documents}
    unresolved: list[str] = []
    placed: list[str] = []
    for name in match.unresolved_names:
        if names_a_tagged(name, explicit_docs):
            continue  # "the GPL" with the GNU General Public License tagged
        found = [i for i in fuzzy_matches(name, [d for d in catalog if d.document_id not in taken])]
        if len(found) == 1:
            documents.append(resolved(by_id[found[0]]))
            taken.add(found[0])
            positions.setdefault(found[0], message.find(name))
            placed.append(name)
            source = "fuzzy_match"
        elif found:
            if not candidates:
                candidates = [resolved(by_id[i]) for i in found]
            confidence = "medium" if confidence == "high" else confidence
        else:
            unresolved.append(name)
    if unresolved:
        confidence = "low"
    # Offline stand-in for the model's query rewrite (docs/product.md, Query rewrite): the question without chat filler and without the
    # phrases that only point at the documents just resolved (the search is scoped to them).
    question = plain_question(
        without_version_references(clean_query, explicit=explicit_docs, registry=registry, catalog=catalog),
        document_names(documents, placed),
    )
    if action in _WHOLE_DOCUMENTS and not asks_about_a_topic(question):
        # "Compare @GPL 2 and @GPL 3" asks for no topic: what is left ("Compare and") is not one.
        question = ""
    return DocumentResolution(
        documents, confidence, source, question, candidates, unresolved, positions, match.notice
    )


def _explicit_positions(
    explicit: Sequence[DocumentRecord], spans: Sequence[tuple[str, int, int]], end: int
) -> dict[str, int]:
    positions: dict[str, int] = {}
    for doc in explicit:
        keys = {name.lower() for name in mention_names([doc])}
        positions[doc.document_id] = next((s for name, s, _ in spans if name.lower() in keys), end)
    return positions
