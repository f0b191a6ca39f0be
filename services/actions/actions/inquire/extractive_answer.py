"""The offline answer: the sentences of the tagged documents that best match the question, cited.

No language model is involved. The answer says so, quotes the documents as written, and never fills a
gap from general knowledge: when nothing matches, it says that nothing was found (seed 002, mode C).
"""

from dataclasses import dataclass

from actions.inquire.citations import cite, quote_from, verify_citations
from actions.inquire.passages import Passage
from policypal.contracts import Citation, ResolvedDocument

MODEL = "offline-extractive"
#: Below this cosine similarity (all-MiniLM-L6-v2) a sentence is about something else: measured
#: ~0.6-0.85 for sentences that answer a question, under ~0.25 for unrelated ones of the same domain.
RELEVANCE_FLOOR = 0.35
#: Sentences much weaker than the best one add noise rather than support.
RELATIVE_MARGIN = 0.3
MAX_PASSAGES = 4

OFFLINE_NOTE = (
    "Offline mode: this answer was composed from the passages of your documents without a language "
    "model. The sentences are quoted as written; read the cited pages for their full context."
)


@dataclass(frozen=True)
class ExtractiveAnswer:
    """The answer text with its ``[N]`` markers, and one citation per marker."""

    answer: str
    citations: list[Citation]


def select_passages(
    passages: list[Passage],
    scores: list[float],
    documents: list[ResolvedDocument],
    *,
    floor: float = RELEVANCE_FLOOR,
    limit: int = MAX_PASSAGES,
) -> list[Passage]:
    """The best ``limit`` passages above ``floor`` (and near the best one), in reading order."""
    ranked = sorted(zip(scores, passages, strict=True), key=lambda pair: pair[0], reverse=True)
    if not ranked or ranked[0][0] < floor:
        return []
    cutoff = max(floor, ranked[0][0] - RELATIVE_MARGIN)
    chosen = [passage for score, passage in ranked if score >= cutoff][:limit]
    order = {doc.document_id: i for i, doc in enumerate(documents)}
    # Reading order: the documents as tagged, then page, chunk and position within the chunk.
    return sorted(
        chosen,
        key=lambda p: (order.get(p.hit.document_id, len(order)), p.hit.page or 0, p.hit.chunk_index, p.start),
    )


def compose_answer(
    documents: list[ResolvedDocument], passages: list[Passage], scores: list[float]
) -> ExtractiveAnswer:
    """The extractive answer over scored ``passages``; the not-found answer when none is relevant."""
    chosen = select_passages(passages, scores, documents)
    drafts = [cite(p.hit, quote_from(p.text), marker) for marker, p in enumerate(chosen, start=1)]
    verified = {c.marker for c in verify_citations(drafts, {p.hit.chunk_id: p.hit.text for p in chosen})}
    # A quote that failed verification takes its sentence with it; the markers are renumbered 1..N.
    cited = [(p, c) for p, c in zip(chosen, drafts, strict=True) if c.marker in verified]
    if not cited:
        return ExtractiveAnswer(answer=not_found_answer(documents), citations=[])

    citations: list[Citation] = []
    lines = ["These passages of your documents match your question best:"]
    current_document = None
    for marker, (passage, draft) in enumerate(cited, start=1):
        citation = draft.model_copy(update={"marker": marker})
        citations.append(citation)
        if passage.hit.document_id != current_document:
            current_document = passage.hit.document_id
            lines.append(f"\nFrom “{passage.hit.title}” (version {passage.hit.version}):")
        lines.append(f"- {_shown(passage, citation)} [{marker}]")
    lines.append(f"\n{OFFLINE_NOTE}")
    return ExtractiveAnswer(answer="\n".join(lines), citations=citations)


def not_found_answer(documents: list[ResolvedDocument]) -> str:
    """Mode C: the documents exist but say nothing about the question; no general-knowledge answer.

    With no document tagged the whole library was searched: offline mode has no general knowledge.
    """
    if not documents:
        return (
            "Nothing in your library matches this question. Offline mode answers only from your documents "
            "and cannot answer from general knowledge, so try rephrasing your question or uploading a "
            "document that covers it.\n\nOffline mode: this answer was composed without a language model."
        )
    titles = ", ".join(f"“{doc.title}”" for doc in documents) or "the tagged documents"
    return (
        f"I couldn't find a passage about this in {titles}. I answer only from the documents you tag, "
        "not from general knowledge, so try rephrasing your question or tagging another document.\n\n"
        "Offline mode: this answer was composed without a language model."
    )


def _shown(passage: Passage, citation: Citation) -> str:
    shown = " ".join(citation.quote.split())
    # A quote cut at the 300-character limit is shown as cut, so the reader knows there is more.
    return f"{shown} …" if len(citation.quote) < len(passage.text) else shown
