"""The offline summary: each document part by part, its key statements quoted in reading order.

A long document opens with an overview (its statement of purpose and its most central rules, and
what its parts are); then every top-level part with material gets its key statements, each quoted
as written and cited; parts that are only contents, indexes, change logs or notices are named at the
end as not summarised. No language model: nothing is paraphrased.
"""

from collections.abc import Sequence
from dataclasses import dataclass

from actions.citing.markers import CitationMarkers, shown
from actions.lifecycle.request import ActionAnswer
from actions.summarize.key_statements import KeyStatement, StructuredDigest
from policypal.contracts import DocumentCoverage, PartCoverage, ResolvedDocument, SummaryResult

#: Parts named in the overview's list, at most (the rest are counted).
LISTED_PARTS = 30

OFFLINE_NOTE = (
    "Offline mode: this summary was composed without a language model from the key statements of "
    "each part of the document, in its order. The sentences are quoted as written; read the cited "
    "pages for their full context."
)


@dataclass(frozen=True)
class DocumentSummary:
    """One document and its digest."""

    document: ResolvedDocument
    digest: StructuredDigest


def compose_summary(summaries: Sequence[DocumentSummary]) -> ActionAnswer:
    """The summary answer: one section per document (headed when there are several), part by part."""
    markers = CitationMarkers()
    several = len(summaries) > 1
    lines: list[str] = []
    for summary in summaries:
        heading = f"“{summary.document.title}” (version {summary.document.version})"
        if several:
            lines.append(f"### {heading}")
        lines.extend(_document_lines(summary.digest, heading, markers))
        lines.append("")
    lines.append(OFFLINE_NOTE)
    return ActionAnswer(
        answer="\n".join(lines),
        citations=markers.citations,
        result=SummaryResult(documents=[structure_coverage(s) for s in summaries]),
    )


def _document_lines(digest: StructuredDigest, heading: str, markers: CitationMarkers) -> list[str]:
    summarised = [p for p in digest.parts if p.chosen]
    if not summarised:
        return [f"No indexed text was found in {heading}; it may still be processing or have failed."]
    size = f"{digest.pages} pages" if digest.pages else f"{digest.total_chunks} passages"
    titles = [p.part.title for p in digest.parts if not p.part.lead]
    lines = [f"Summary of {heading}, {size} in {len(titles)} parts, each from its key statements in order."]
    if digest.overview:
        listed = ", ".join(titles[:LISTED_PARTS]) + (
            f" and {len(titles) - LISTED_PARTS} more" if len(titles) > LISTED_PARTS else ""
        )
        lines += [
            "",
            "**Overview**",
            *_bullets(digest.overview, markers),
            f"It is organised in {len(titles)} parts: {listed}.",
        ]
    for part in summarised:
        pages = f" ({part.part.pages})" if part.part.pages else ""
        lines += ["", f"**{part.part.title}**{pages}", *_bullets(part.chosen, markers)]
    skipped = [p.part.title for p in digest.parts if not p.chosen and not p.part.lead]
    if skipped:
        lines += [
            "",
            f"Not summarised, as no sentence there reads alone (contents, indexes, change logs, notices, figures "
            f"or tables): {'; '.join(skipped)}.",
        ]
    return lines


def _bullets(statements: Sequence[KeyStatement], markers: CitationMarkers) -> list[str]:
    cited = [(s, markers.mark(s.extract)) for s in statements]
    return [f"- {shown(s.extract)} [{marker}]" for s, marker in cited if marker is not None]


def structure_coverage(summary: DocumentSummary) -> DocumentCoverage:
    """What the summary covers of a document, part by part, so a reader (and a test) can check it."""
    digest = summary.digest
    return DocumentCoverage(
        document_id=summary.document.document_id,
        chunks_total=digest.total_chunks,
        pages=digest.pages,
        parts=[
            PartCoverage(
                title=p.part.title,
                first_page=p.part.first_page,
                last_page=p.part.last_page,
                chunks=len(p.part.chunks),
                statements=len(p.ranked),
                points=len(p.chosen),
            )
            for p in digest.parts
        ],
        overview_points=len(digest.overview),
    )
