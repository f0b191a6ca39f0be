"""The audit result of seed 000 and the answer that presents it, grouped by target then severity."""

from collections.abc import Sequence
from dataclasses import dataclass

from actions.audit.findings import CONSEQUENCE_OFFLINE, Tally, suggestion, target_quote
from actions.citation_markers import CitationMarkers, shown
from actions.request_lifecycle import ActionAnswer
from policypal.contracts import ResolvedDocument
from policypal.contracts.audit import SEVERITY_ORDER, AuditFinding, AuditMode, AuditResult

OFFLINE_NOTE = (
    "Offline mode: this audit was composed without a language model. Each statement was matched to the "
    "closest passages of each target; severities rank what to review first from differing numbers, "
    "negations and obligations, and are not legal verdicts. Every finding needs review."
)


@dataclass(frozen=True)
class AuditScope:
    """What was audited against what."""

    mode: AuditMode
    source_title: str
    source_document_id: str | None
    targets: list[ResolvedDocument]
    statements: int
    themes: int | None


def compose_audit(scope: AuditScope, tallies: Sequence[Tally]) -> ActionAnswer:
    """The answer and its structured ``AuditResult`` (in ``result``), findings by target then severity."""
    markers = CitationMarkers()
    findings: list[AuditFinding] = []
    lines = [f"Audit of {scope.source_title} against {_titles(scope.targets)}.", ""]
    for target, target_tally in zip(scope.targets, tallies, strict=True):
        lines.append(f"### {_name(target)}")
        if not target_tally.findings:
            lines.append("- Nothing to flag: no statement differs in wording from a related passage here.")
        for severity in SEVERITY_ORDER:
            group = [m for m in target_tally.findings if m.severity == severity]
            if group:
                lines.append(f"**{severity}** (needs review)")
            for match in group:
                target_marker = markers.mark(match.passage)
                if target_marker is None:
                    continue
                source_marker = markers.mark(match.statement.extract) if match.statement.extract else None
                source_cite = f" [{source_marker}]" if source_marker is not None else ""
                theme = f" Theme: {match.statement.theme}." if match.statement.theme else ""
                lines.append(
                    f"- Source: “{' '.join(match.statement.quote.split())}”{source_cite}\n"
                    f"  Target: “{shown(match.passage)}” [{target_marker}]\n"
                    f"  {suggestion(match)}{theme} Similarity {match.similarity:.2f}."
                )
                findings.append(
                    AuditFinding(
                        target_doc_id=target.document_id,
                        target_doc_title=target.title,
                        theme=match.statement.theme,
                        severity=match.severity,
                        consequence=CONSEQUENCE_OFFLINE,
                        source_quote=match.statement.quote,
                        target_quote=target_quote(match),
                        suggestion=suggestion(match),
                        confidence_score=round(min(1.0, max(0.0, match.similarity)), 4),
                        needs_review=True,
                        source_marker=source_marker,
                        target_marker=target_marker,
                    )
                )
        lines.append("")
    summary = _summary(scope, tallies, findings)
    lines[2:2] = [f"Overall status: Needs Review. {summary}", ""]
    lines.append(OFFLINE_NOTE)
    result = AuditResult(
        overall_status="Needs Review",
        findings=findings,
        summary=summary,
        targets_checked=len(scope.targets),
        themes_analyzed=scope.themes,
        mode=scope.mode,
        source_document_id=scope.source_document_id,
        statements_checked=scope.statements,
    )
    return ActionAnswer(
        answer="\n".join(lines), citations=markers.citations, result=result.model_dump(mode="json")
    )


def _summary(scope: AuditScope, tallies: Sequence[Tally], findings: Sequence[AuditFinding]) -> str:
    by_severity = {s: sum(1 for f in findings if f.severity == s) for s in SEVERITY_ORDER}
    counts = ", ".join(f"{n} {s}" for s, n in by_severity.items() if n) or "none"
    consistent = sum(t.consistent for t in tallies)
    unrelated = sum(t.unrelated for t in tallies)
    themes = f" across {scope.themes} themes" if scope.themes else ""
    return (
        f"{scope.statements} statements{themes} checked against {len(scope.targets)} target document(s): "
        f"{len(findings)} findings to review ({counts}); {consistent} statement-target pairs agree in wording; "
        f"{unrelated} have no related passage in the target."
    )


def _name(document: ResolvedDocument) -> str:
    return f"“{document.title}” ({document.version})"


def _titles(documents: Sequence[ResolvedDocument]) -> str:
    return ", ".join(_name(d) for d in documents)
