"""The offline summary: per document, the most central sentences of its sample, in reading order.

Centrality is the cosine similarity of a sentence to the centre of all sampled sentences of its
document: the sentences most typical of what the document says. Near-duplicates are skipped so the
summary does not repeat itself. No language model: every sentence is quoted as written and cited.
"""

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from actions.citation_markers import CitationMarkers, shown
from actions.extracts import Extract
from actions.request_lifecycle import ActionAnswer
from actions.stratified_sampling import DocumentSample
from actions.themes import centrality
from policypal.contracts import ResolvedDocument

#: Sentences in the summary of a single document, and of each document when there are several.
SENTENCES_SINGLE = 6
SENTENCES_EACH = 4
#: A sentence this similar to one already chosen adds nothing new.
NEAR_DUPLICATE = 0.9

OFFLINE_NOTE = (
    "Offline mode: this summary was composed from passages sampled across each document without a "
    "language model. The sentences are quoted as written; read the cited pages for their full context."
)


@dataclass(frozen=True)
class DocumentDigest:
    """One document's sample and the sentences chosen to summarise it."""

    document: ResolvedDocument
    sample: DocumentSample
    sentences: list[Extract]


def central_sentences(
    extracts: Sequence[Extract], vectors: npt.NDArray[np.float32], count: int
) -> list[Extract]:
    """The ``count`` most central, mutually distinct ``extracts``, in reading order."""
    scores = centrality(vectors)
    chosen: list[int] = []
    for i in sorted(range(len(extracts)), key=lambda i: (-float(scores[i]), extracts[i].reading_position)):
        if len(chosen) == count:
            break
        if chosen and float(np.max(vectors[chosen] @ vectors[i])) >= NEAR_DUPLICATE:
            continue
        chosen.append(i)
    return sorted((extracts[i] for i in chosen), key=lambda e: e.reading_position)


def compose_summary(digests: Sequence[DocumentDigest]) -> ActionAnswer:
    """The summary answer: one section per document, with attribution when there are several."""
    markers = CitationMarkers()
    several = len(digests) > 1
    lines: list[str] = []
    for digest in digests:
        doc = digest.document
        heading = f"“{doc.title}” (version {doc.version})"
        if several:
            lines.append(f"### {heading}")
        cited = [(sentence, markers.mark(sentence)) for sentence in digest.sentences]
        bullets = [f"- {shown(sentence)} [{marker}]" for sentence, marker in cited if marker is not None]
        if not bullets:
            lines.append(
                f"No indexed text was found in {heading}; it may still be processing or have failed."
            )
        else:
            sample = digest.sample
            lines.append(
                f"{'Key points' if several else f'Key points of {heading}'}, from {len(sample.chunks)} of "
                f"{sample.total_chunks} passages sampled from beginning to end:"
            )
            lines.extend(bullets)
        lines.append("")
    lines.append(OFFLINE_NOTE)
    return ActionAnswer(
        answer="\n".join(lines),
        citations=markers.citations,
        result={"documents": [sample_coverage(digest.sample) for digest in digests]},
    )


def sample_coverage(sample: DocumentSample) -> dict[str, object]:
    """What was read of a document, so a reader (and a test) can see the sample spans it."""
    return {
        "document_id": sample.document_id,
        "chunks_total": sample.total_chunks,
        "chunks_sampled": len(sample.chunks),
        "sampled_chunk_indexes": [chunk.chunk_index for chunk in sample.chunks],
        "sampled_pages": sorted({chunk.page for chunk in sample.chunks if chunk.page is not None}),
    }
