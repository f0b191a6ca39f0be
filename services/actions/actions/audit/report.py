"""The audit's answer and its structured ``AuditResult``: breaches by target then severity, and coverage.

Every quote is cited: the rule's (a verbatim slice of its chunk, with page and section) and, for a
document, the clause's. The overall status follows the breaches: Major Violations when one is High
or Critical, Minor Issues when all are Medium or Low, Compliant when clauses met their rules and
broke none, Needs Review when nothing could be checked.
"""

from collections.abc import Sequence
from dataclasses import dataclass

from actions.audit.checking import Breach, TargetCheck
from actions.audit.clauses import Clause
from actions.audit.coverage import TargetCoverage
from actions.audit.key_terms import shared_words
from actions.citing.citations import cite
from actions.drafting import document_name
from actions.lifecycle.request import ActionAnswer
from policypal.contracts import Citation, ResolvedDocument
from policypal.contracts.audit import (
    SEVERITY_ORDER,
    AuditFinding,
    AuditMode,
    AuditResult,
    AuditStatus,
    RuleCoverage,
)
from policypal.vectorstore import ChunkPlace, RulePoint

OFFLINE_METHOD = (
    "How this audit was made (offline, without a language model): every clause of the source was matched "
    "to the rules (must, must not, should, should not) of each target by meaning and shared key terms, "
    "and each pair was judged from the words themselves: figures against limits, paths against required "
    "locations, and what the rule requires or forbids against what the clause does, denies or allows. "
    "Severity follows the rule's force (must or must not: High; should or should not: Medium). Business "
    "impact was not assessed: confirm each finding before acting on it."
)
IMPACT_NOT_ASSESSED = "Impact not assessed offline: a breach of {where} if confirmed."
#: Rules not addressed shown in the answer per target (all of them are in the result).
GAPS_SHOWN = 5


@dataclass(frozen=True)
class AuditScope:
    """What was audited against what, and how much of it."""

    mode: AuditMode
    source_title: str
    source_document_id: str | None
    targets: list[ResolvedDocument]
    clauses: int
    targets_without_rules: list[str]


class _Citations:
    """Numbers each distinct quote of a chunk once, in the order they are cited."""

    def __init__(self) -> None:
        self.citations: list[Citation] = []
        self._markers: dict[tuple[str, str], int] = {}

    def rule(self, rule: RulePoint) -> int:
        return self._mark(rule, rule.quote)

    def clause(self, clause: Clause) -> int | None:
        return self._mark(clause.chunk, clause.quote) if clause.chunk is not None else None

    def cited(self, rule: RulePoint) -> int | None:
        """The marker of ``rule`` when the answer already cites it (the result cites nothing more)."""
        return self._markers.get((rule.chunk_id, rule.quote))

    def cited_clause(self, clause: Clause) -> int | None:
        """The marker of ``clause`` when the answer already cites it."""
        return self._markers.get((clause.chunk.chunk_id, clause.quote)) if clause.chunk else None

    def _mark(self, place: ChunkPlace, quote: str) -> int:
        key = (place.chunk_id, quote)
        if key not in self._markers:
            self._markers[key] = len(self.citations) + 1
            self.citations.append(cite(place, quote, self._markers[key]))
        return self._markers[key]


def compose_audit(
    scope: AuditScope, checks: Sequence[TargetCheck], coverage: Sequence[TargetCoverage]
) -> ActionAnswer:
    """The answer and its ``AuditResult`` (in ``result``) from the checks of every target."""
    marks = _Citations()
    findings: list[AuditFinding] = []
    body: list[str] = []
    covered = {c.target_id: c for c in coverage}
    for check in checks:
        body.append(f"### {document_name(check.target)}")
        body.extend(_target_lines(scope, check, marks, findings))
        if check.target.document_id in covered:
            body.extend(_coverage_lines(covered[check.target.document_id], marks))
        body.append("")
    status = overall_status(checks, findings)
    summary = _summary(scope, checks, findings)
    offline = all(f.assessed_by != "model" for f in findings)
    lines = [
        f"Audit of {scope.source_title} against {', '.join(document_name(t) for t in scope.targets)}.",
        "",
        f"Overall status: {status}. {summary}",
        "",
        *body,
    ]
    if offline:
        lines.append(OFFLINE_METHOD)
    result = AuditResult(
        overall_status=status,
        findings=findings,
        summary=summary,
        targets_checked=len(scope.targets),
        themes_analyzed=None,
        mode=scope.mode,
        source_document_id=scope.source_document_id,
        statements_checked=scope.clauses,
        rules_checked=sum(c.rules for c in checks),
        targets_without_rules=scope.targets_without_rules,
        coverage=[item for c in coverage for item in _coverage_items(c, marks)],
    )
    return ActionAnswer(answer="\n".join(lines).rstrip(), citations=marks.citations, result=result)


def overall_status(checks: Sequence[TargetCheck], findings: Sequence[AuditFinding]) -> AuditStatus:
    """Major Violations, Minor Issues, Compliant, or Needs Review when no clause met a rule."""
    if any(f.severity in ("Critical", "High") for f in findings):
        return "Major Violations"
    if findings:
        return "Minor Issues"
    if any(c.consistent for c in checks):
        return "Compliant"
    return "Needs Review"


def _target_lines(
    scope: AuditScope, check: TargetCheck, marks: _Citations, findings: list[AuditFinding]
) -> list[str]:
    if check.target.document_id in scope.targets_without_rules:
        return [
            "- No binding rules found: this document states no obligation, prohibition or recommendation (must, "
            "shall, should…), so nothing in it can be breached. Was it meant as a target?"
        ]
    if not check.breaches:
        return [
            f"- No breach found: {check.consistent} clauses agree with the rule that governs them here; "
            f"{check.ungoverned} have no governing rule in this document."
        ]
    lines: list[str] = []
    ordered = sorted(
        check.breaches, key=lambda b: (SEVERITY_ORDER.index(b.severity), -b.candidate.relatedness)
    )
    for severity in SEVERITY_ORDER:
        group = [b for b in ordered if b.severity == severity]
        if group:
            lines.append(f"**{severity}**")
        for breach in group:
            finding = _finding(breach, marks, policy=scope.mode == "policy")
            findings.append(finding)
            lines.append(_finding_lines(finding))
    return lines


def _finding(breach: Breach, marks: _Citations, *, policy: bool) -> AuditFinding:
    rule = breach.rule
    where = _where(rule)
    shared = shared_words(breach.clause.text, rule.text)
    rationale = (
        f"{breach.severity} because {breach.verdict.rationale[0].lower()}{breach.verdict.rationale[1:]}"
    )
    return AuditFinding(
        target_doc_id=breach.target.document_id,
        target_doc_title=breach.target.title,
        # A policy's section is its theme; a pasted text's "headings" are often an e-mail's header
        # lines ("From: …"), so text mode has none (as the contract says).
        theme=breach.clause.section if policy else None,
        severity=breach.severity,
        consequence=breach.consequence or IMPACT_NOT_ASSESSED.format(where=where),
        source_quote=breach.clause.quote,
        target_quote=rule.quote,
        suggestion=breach.suggestion or breach.verdict.suggestion,
        confidence_score=round(min(1.0, max(0.0, breach.candidate.relatedness)), 4),
        needs_review=breach.assessed_by != "model",
        source_marker=marks.clause(breach.clause),
        target_marker=marks.rule(rule),
        source_page=breach.clause.page,
        target_page=rule.page,
        target_section=rule.section,
        rule_modality=rule.modality,
        rationale=rationale,
        shared_terms=shared,
        assessed_by=breach.assessed_by,
    )


def _finding_lines(finding: AuditFinding) -> str:
    source = f" [{finding.source_marker}]" if finding.source_marker else ""
    source_page = f" (p. {finding.source_page})" if finding.source_page else ""
    section = f", §{finding.target_section}" if finding.target_section else ""
    page = f"p. {finding.target_page}" if finding.target_page else "no page"
    terms = f" Shared terms: {', '.join(finding.shared_terms)}." if finding.shared_terms else ""
    return (
        f"- Source: “{' '.join(finding.source_quote.split())}”{source}{source_page}\n"
        f"  Rule: “{' '.join(finding.target_quote.split())}” [{finding.target_marker}] ({page}{section})\n"
        f"  Why: {finding.rationale}{terms}\n"
        f"  Consequence: {finding.consequence}\n"
        f"  Suggestion: {finding.suggestion}"
    )


def _coverage_lines(coverage: TargetCoverage, marks: _Citations) -> list[str]:
    counts = coverage.counts
    total = sum(counts.values())
    if not total:
        return []
    lines = [
        f"Coverage of the {coverage.sections} section(s) your policy touches: {total} binding rules — "
        f"{counts['addressed']} addressed, {counts['contradicted']} contradicted, "
        f"{counts['not_addressed']} not mentioned."
    ]
    gaps = [c for c in coverage.listed if c.status == "not_addressed"][:GAPS_SHOWN]
    if gaps:
        lines.append("Not mentioned by the policy, for example:")
        lines.extend(
            f"- “{' '.join(c.rule.quote.split())}” [{marks.rule(c.rule)}] ({_where(c.rule)})" for c in gaps
        )
    return lines


def _coverage_items(coverage: TargetCoverage, marks: _Citations) -> list[RuleCoverage]:
    return [
        RuleCoverage(
            target_doc_id=coverage.target_id,
            rule_quote=item.rule.quote,
            rule_page=item.rule.page,
            rule_section=item.rule.section,
            rule_modality=item.rule.modality,
            status=item.status,
            source_quote=item.clause.quote if item.clause else None,
            source_page=item.clause.page if item.clause else None,
            target_marker=marks.cited(item.rule),
            source_marker=marks.cited_clause(item.clause) if item.clause else None,
        )
        for item in coverage.listed
    ]


def _summary(scope: AuditScope, checks: Sequence[TargetCheck], findings: Sequence[AuditFinding]) -> str:
    by_severity = {s: sum(1 for f in findings if f.severity == s) for s in SEVERITY_ORDER}
    counts = ", ".join(f"{n} {s}" for s, n in by_severity.items() if n) or "none"
    consistent = sum(c.consistent for c in checks)
    ungoverned = sum(c.ungoverned for c in checks)
    return (
        f"{scope.clauses} clauses checked against {sum(c.rules for c in checks)} rules of "
        f"{len(scope.targets)} target document(s): {len(findings)} breaches ({counts}); "
        f"{consistent} clause-target pairs agree with the rule that governs them; "
        f"{ungoverned} have no governing rule in that target."
    )


def _where(rule: RulePoint) -> str:
    section = f"§{rule.section}, " if rule.section else ""
    page = f"p. {rule.page} " if rule.page else ""
    return f"{section}{page}of “{rule.title}”".strip()
