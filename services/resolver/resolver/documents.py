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
from dataclasses import dataclass, field
from typing import Literal, Protocol

from policypal.contracts import ActionName, ConfidenceTier, ResolvedDocument
from policypal.state import DocumentRecord, RegistryEntry
from resolver.document_pointers import document_names, plain_question
from resolver.matching import Named, fuzzy_matches, loose_names, title_hits
from resolver.mentions import mask_spans, mention_names, mention_spans, strip_mentions
from resolver.name_roles import refers_to_a_document
from resolver.references import find_references, resolve_reference
from resolver.versions import VersionMatch, find_version_references, resolve_versions

_RANK: dict[ConfidenceTier, int] = {"low": 0, "medium": 1, "high": 2}
#: Actions that cannot run without documents: with no reference at all they continue with the last turn's.
_NEEDS_DOCUMENTS: frozenset[ActionName] = frozenset({"summarize", "compare", "audit"})


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


class RegistryDocumentMatcher:
    """Offline stage 2: titles in the message, reference words by recency and type, loose names."""

    async def match(self, request: MatchRequest) -> RegistryMatch:
        """Match the message against the registry; every rule is deterministic."""
        text = mask_spans(request.message, request.mention_spans)
        explicit = {d.document_id for d in request.explicit}
        pool = [e for e in request.registry if e.document_id not in explicit]
        ids: list[str] = []
        positions: dict[str, int] = {}
        confidence: ConfidenceTier = "high"
        candidates: tuple[str, ...] = ()
        spans: list[tuple[int, int]] = []

        versions = resolve_versions(
            find_version_references(text),
            text,
            explicit=request.explicit,
            registry=pool,
            catalog=request.catalog,
        )
        if versions is not None:
            ids = _version_ids(versions, request.action, explicit)
            positions.update(versions.positions)
            candidates = tuple(c for c in versions.candidates if c not in explicit)
            confidence = "medium" if candidates else "high"
            spans.extend(versions.spans)
            text = mask_spans(text, versions.spans)

        hits = title_hits(text, pool)
        by_title: dict[str, list[str]] = {}
        for hit in hits:
            if hit.document_id in ids:
                continue
            title = next(e.title.lower() for e in pool if e.document_id == hit.document_id)
            by_title.setdefault(title, []).append(hit.document_id)
            positions[hit.document_id] = hit.position
            spans.append((hit.position, hit.position + len(title)))
        for same_title in by_title.values():
            if len(same_title) == 1:
                ids.append(same_title[0])
            elif not candidates:
                confidence, candidates = "medium", tuple(same_title)

        text = mask_spans(text, spans)
        references = find_references(text)
        for reference in references:
            answer = resolve_reference(reference, pool, exclude={*ids})
            spans.append((reference.position, reference.position + len(reference.phrase)))
            if answer.confidence == "low" and not reference.pointed:
                # "What does our policy say about PEP screening?" in a fresh conversation names the
                # kind of document to search, not one to pick: the search runs over the catalog.
                continue
            if answer.confidence == "medium" and not candidates:
                candidates = answer.candidates
                for candidate in candidates:
                    positions.setdefault(candidate, reference.position)
            if _RANK[answer.confidence] < _RANK[confidence]:
                confidence = answer.confidence
            for document_id in answer.document_ids:
                positions.setdefault(document_id, reference.position)
                if document_id not in ids:
                    ids.append(document_id)

        free_text = mask_spans(text, spans)
        known: list[Named] = [*request.catalog, *request.registry]
        names = tuple(
            name
            for name, start in loose_names(free_text)
            if refers_to_a_document(name, start, free_text, known)
        )
        implicit = bool(ids or candidates or references or versions)
        if not implicit and not names and not explicit and request.action in _NEEDS_DOCUMENTS and pool:
            # "What are the key differences in capital requirements?" after a compare: the same documents.
            newest = max(e.last_used_turn for e in pool)
            ids = [e.document_id for e in pool if e.last_used_turn == newest]
            implicit = True
        return RegistryMatch(
            document_ids=tuple(ids),
            unresolved_names=names,
            confidence=confidence,
            candidates=candidates,
            has_implicit_refs=implicit,
            positions=positions,
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
    clean_query = strip_mentions(message, names)
    explicit_docs = [resolved(d) for d in explicit]
    positions = _explicit_positions(explicit, spans, len(message))
    if explicit_docs and not strip_mentions(message, names).strip(" ,;:.?!"):
        # The pure-mention shortcut: everything was tagged, nothing to infer.
        return DocumentResolution(explicit_docs, "high", "explicit", clean_query, positions=positions)

    match = await matcher.match(
        MatchRequest(message, action, explicit_docs, registry, recent, [(s, e) for _, s, e in spans], catalog)
    )
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
    question = plain_question(clean_query, document_names(documents, placed))
    return DocumentResolution(
        documents, confidence, source, question, candidates, unresolved, positions, match.notice
    )


def _explicit_positions(
    explicit: Sequence[DocumentRecord], spans: Sequence[tuple[str, int, int]], end: int
) -> dict[str, int]:
    positions: dict[str, int] = {}
    for doc in explicit:
        keys = {doc.title.lower(), doc.document_id.lower()}
        positions[doc.document_id] = next((s for name, s, _ in spans if name.lower() in keys), end)
    return positions
