"""The audit drafted by a language model (seed 000): a structured ``AuditResult``, its quotes verified.

The model gets the source (the text, or passages sampled across the policy) and each target's
retrieved passages, and replies with an ``AuditResult`` (JSON schema; one corrective retry). Every
finding is then checked: its target must be one of the request's, its quotes verbatim in the source
and in that target's passages (repaired to the passage's characters, or dropped and the finding
flagged for review). Findings are grouped by target, then by severity; each kept quote is cited.
"""

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from opentelemetry import trace
from pydantic import BaseModel, Field

from actions.audit.quote_check import locate_quote
from actions.drafting import document_name, documents_section, numbered_passages
from actions.inquire.citations import cite
from actions.request_lifecycle import ActionAnswer
from policypal.contracts import ActionRequested, Citation, ResolvedDocument, Usage
from policypal.contracts.audit import SEVERITY_ORDER, AuditFinding, AuditMode, AuditResult
from policypal.llm import LLM, Prompt, add_usage
from policypal.vectorstore import ChunkHit, ChunkPoint

logger = logging.getLogger(__name__)

THEMES_INSTRUCTIONS = (
    "Identify the 3 to 5 key themes of the policy from the numbered passages sampled across it (e.g. "
    "'Capital allocation', 'Reporting', 'Dividends'). Name each theme in 2 to 5 words. Reply in the "
    "JSON field themes."
)
AUDIT_INSTRUCTIONS = (
    "Audit the source against each target document: find where the source fails to meet, contradicts "
    "or omits what a target requires. Reply with a JSON object of the required schema. For each "
    "finding give the target's target_doc_id and title exactly as listed, the severity (Critical, "
    "High, Medium or Low), the consequence for the business (e.g. penalties under the cited clause), a "
    "suggestion to fix the source, and a confidence_score from 0 to 1. source_quote and target_quote "
    "must be copied character for character from the source and from that target's passages, at most "
    "300 characters each. In policy mode set theme to the source theme the finding concerns; in text "
    "mode set it to null. overall_status is Compliant when there is no finding, Minor Issues when only "
    "Medium or Low ones, Major Violations when any is Critical or High. summary gives the cross-document "
    "insights in two or three sentences. Report nothing the passages do not support."
)
#: Told to the user when a quote of the model's could not be found in its document.
QUOTE_DROPPED_NOTICE = (
    "Some quotes proposed by the language model were not found in the documents and were removed; "
    "the findings concerned are marked for review."
)


class AuditThemes(BaseModel):
    """The structured reply of the policy-mode theme extraction."""

    themes: list[str] = Field(min_length=1, max_length=5)


@dataclass(frozen=True)
class AuditEvidence:
    """What the model audits: the source (a text, or a policy's sampled passages) and each target's passages."""

    mode: AuditMode
    source_title: str
    source_document_id: str | None
    source_text: str | None
    source_chunks: list[ChunkPoint]
    targets: list[ResolvedDocument]
    target_passages: list[list[ChunkHit]]
    themes: list[str] | None
    statements: int


#: Hands out the [N] citing a verbatim quote of a chunk (the same quote keeps its marker).
_Marker = Callable[[ChunkPoint, str], int]


async def extract_themes(
    event: ActionRequested, chunks: Sequence[ChunkPoint], llm: LLM
) -> tuple[list[str], Usage]:
    """Policy mode: the policy's 3-5 themes from its sampled passages (one light call, the small model)."""
    prompt = Prompt(
        instructions=THEMES_INSTRUCTIONS, user=numbered_passages(chunks), context=event.user_context
    )
    found = await llm.structured("themes", prompt, AuditThemes)
    themes = [" ".join(theme.split()) for theme in found.value.themes if theme.strip()]
    return themes, found.usage


def audit_prompt(event: ActionRequested, evidence: AuditEvidence) -> Prompt:
    """The request: the source, the themes (policy mode), then each target's id and passages."""
    if evidence.source_text is not None:
        source = f"## Source: {evidence.source_title} (text mode)\n{evidence.source_text.strip()}"
    else:
        passages = numbered_passages(evidence.source_chunks)
        source = f"## Source: {evidence.source_title} (policy mode)\n\n{passages}"
    themes = "".join(f"- {theme}\n" for theme in evidence.themes or [])
    ids = "\n".join(f"- target_doc_id {t.document_id}: {document_name(t)}" for t in evidence.targets)
    targets = documents_section(
        list(zip(evidence.targets, evidence.target_passages, strict=True)),
        start=len(evidence.source_chunks) + 1,
    )
    request = event.query.strip() or "Audit the source against the targets."
    return Prompt(
        instructions=AUDIT_INSTRUCTIONS,
        user=(
            f"{source}\n\n"
            + (f"## Source themes\n{themes}\n" if themes else "")
            + f"## Targets\n{ids}\n\n{targets}\n\n## Request\n{request}"
        ),
        context=event.user_context,
    )


async def draft_audit(
    event: ActionRequested, evidence: AuditEvidence, *, llm: LLM, usage: Usage
) -> ActionAnswer:
    """The model's audit of ``evidence``, verified and grouped; ``usage`` is what was spent before it.

    Raises ``LLMError`` when the model fails, or still replies off-schema after one correction.
    """
    reply = await llm.structured("audit", audit_prompt(event, evidence), AuditResult)
    checked = _check_findings(reply.value.findings, evidence)
    span = trace.get_current_span()
    span.set_attribute("audit.attempts", reply.attempts)
    span.set_attribute("audit.findings", len(checked.findings))
    span.set_attribute("audit.findings_dropped", checked.dropped)
    span.set_attribute("audit.quotes_repaired", checked.repaired)
    span.set_attribute("audit.quotes_removed", checked.removed)
    result = AuditResult(
        overall_status=reply.value.overall_status,
        findings=checked.findings,
        summary=reply.value.summary,
        targets_checked=len(evidence.targets),
        themes_analyzed=len(evidence.themes) if evidence.themes is not None else None,
        mode=evidence.mode,
        source_document_id=evidence.source_document_id,
        statements_checked=evidence.statements,
    )
    return ActionAnswer(
        answer=render_audit(result, evidence),
        citations=checked.citations,
        result=result.model_dump(mode="json"),
        notices=[QUOTE_DROPPED_NOTICE] if checked.removed else [],
        model=reply.model,
        usage=add_usage(usage, reply.usage),
    )


@dataclass(frozen=True)
class _CheckedFindings:
    findings: list[AuditFinding]
    citations: list[Citation]
    dropped: int
    repaired: int
    removed: int


def _check_findings(proposed: Sequence[AuditFinding], evidence: AuditEvidence) -> _CheckedFindings:
    """Findings on a known target with verified quotes, grouped by target then severity, and cited."""
    citations: list[Citation] = []
    markers: dict[tuple[str, str], int] = {}

    def marker(chunk: ChunkPoint, quote: str) -> int:
        key = (chunk.chunk_id, quote)
        if key not in markers:
            markers[key] = len(citations) + 1
            citations.append(cite(chunk, quote, markers[key]))
        return markers[key]

    known = {t.document_id: position for position, t in enumerate(evidence.targets)}
    on_target = sorted(
        (f for f in proposed if f.target_doc_id in known),
        key=lambda f: (known[f.target_doc_id], SEVERITY_ORDER.index(f.severity)),
    )
    findings, repaired, removed = [], 0, 0
    for finding in on_target:
        target = evidence.targets[known[finding.target_doc_id]]
        passages = evidence.target_passages[known[finding.target_doc_id]]
        update: dict[str, object] = {"target_doc_title": target.title}
        found = locate_quote(finding.target_quote, [p.text for p in passages])
        if found is None:
            update |= {"target_quote": "", "target_marker": None, "needs_review": True}
            removed += 1
        else:
            hit = passages[found.position]
            repaired += found.status == "repaired"
            update |= {
                "target_quote": found.quote,
                "target_marker": marker(hit, found.quote),
                # Seed 000: the confidence shown is the retrieval similarity of the cited passage.
                "confidence_score": round(min(1.0, max(0.0, hit.score)), 4),
            }
        update |= _source_quote(finding, evidence, marker)
        repaired += update.pop("repaired", False) is True
        removed += update.pop("removed", False) is True
        if evidence.mode == "text":
            update["theme"] = None
        findings.append(finding.model_copy(update=update))
    return _CheckedFindings(findings, citations, len(proposed) - len(on_target), repaired, removed)


def _source_quote(finding: AuditFinding, evidence: AuditEvidence, marker: _Marker) -> dict[str, object]:
    if evidence.source_text is not None:
        found = locate_quote(finding.source_quote, [evidence.source_text])
        if found is None:
            return {"source_quote": "", "source_marker": None, "needs_review": True, "removed": True}
        return {"source_quote": found.quote, "source_marker": None, "repaired": found.status == "repaired"}
    found = locate_quote(finding.source_quote, [c.text for c in evidence.source_chunks])
    if found is None:
        return {"source_quote": "", "source_marker": None, "needs_review": True, "removed": True}
    chunk = evidence.source_chunks[found.position]
    return {
        "source_quote": found.quote,
        "source_marker": marker(chunk, found.quote),
        "repaired": found.status == "repaired",
    }


def render_audit(result: AuditResult, evidence: AuditEvidence) -> str:
    """The answer: status and summary, then per target its findings by severity, quotes cited."""
    lines = [
        f"Audit of {evidence.source_title} against {', '.join(document_name(t) for t in evidence.targets)}.",
        "",
        f"Overall status: {result.overall_status}. {result.summary}",
        "",
    ]
    for target in evidence.targets:
        lines.append(f"### {document_name(target)}")
        own = [f for f in result.findings if f.target_doc_id == target.document_id]
        if not own:
            lines.append("- No finding against this document.")
        for severity in SEVERITY_ORDER:
            group = [f for f in own if f.severity == severity]
            if group:
                lines.append(f"**{severity}**")
            lines.extend(_finding_lines(f) for f in group)
        lines.append("")
    return "\n".join(lines).rstrip()


def _finding_lines(finding: AuditFinding) -> str:
    source = _quoted(finding.source_quote, finding.source_marker)
    target = _quoted(finding.target_quote, finding.target_marker)
    theme = f" Theme: {finding.theme}." if finding.theme else ""
    review = " Needs review." if finding.needs_review else ""
    return (
        f"- Source: {source}\n  Target: {target}\n  Consequence: {finding.consequence}\n"
        f"  Suggestion: {finding.suggestion}{theme} Confidence {finding.confidence_score:.2f}.{review}"
    )


def _quoted(quote: str, marker: int | None) -> str:
    if not quote:
        return "(quote not found in the document; removed)"
    cited = f" [{marker}]" if marker is not None else ""
    return f"“{' '.join(quote.split())}”{cited}"
