"""Scoring an audit answer against the gold: which planted clauses its findings hit, and where.

Reads the answer only through the public contract: ``ActionAnswer.result`` (an ``AuditResult`` as a
dict) and ``ActionAnswer.citations``. A finding's target page is its ``target_page`` when the result
carries one, else the page of the citation whose marker is its ``target_marker``. For a target
without pages (the GPL-3 text) the place is the section that holds the finding's target quote (or
its cited quote), else the number that starts its ``target_section``.

- A planted violation is FOUND when a finding's source quote overlaps the clause (after
  ``normalise``: one contains the other, or they share a common substring of at least 60% of the
  shorter one), its target is a gold rule's target and its page (section) is one of that rule's.
  FOUND, ANY PAGE drops the page condition; HIT drops the target condition too.
- A compliant clause is FLAGGED when any finding's source quote overlaps it.
- A finding is BOILERPLATE when its target page (section) is a boilerplate page of its target, and
  OTHER when its source quote overlaps no planted clause (noise on filler text).
"""

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from difflib import SequenceMatcher
from typing import Any

from bench.audit_corpus.corpus import Clause, Source, Target, normalise, section_of

#: A common substring this share of the shorter text makes two quotes overlap.
MIN_SHARED = 0.6
#: A quote shorter than this (normalised) overlaps a clause only when it is the whole clause.
MIN_QUOTE_CHARS = 25


def overlaps(quote: str, clause: str) -> bool:
    """Whether a finding's ``quote`` and a planted ``clause`` are the same text (see module doc)."""
    a, b = normalise(quote), normalise(clause)
    if not a or not b:
        return False
    if a == b:
        return True
    if min(len(a), len(b)) < MIN_QUOTE_CHARS:
        return False
    if a in b or b in a:
        return True
    match = SequenceMatcher(None, a, b, autojunk=False).find_longest_match(0, len(a), 0, len(b))
    return match.size >= MIN_SHARED * min(len(a), len(b))


@dataclass(frozen=True)
class Finding:
    """What the bench reads of one finding: the source quote, and where in which target it points."""

    source_quote: str
    target: str
    page: int | None
    section: str | None


def read_findings(
    result: dict[str, Any] | None,
    citations: Sequence[Any],
    sections: dict[str, list[tuple[str, str]]],
) -> list[Finding]:
    """The findings of an ``AuditResult`` dict; ``sections`` are those of the page-less targets."""
    pages = {c.marker: (c.page, c.quote) for c in citations}
    findings = []
    for f in (result or {}).get("findings", []):
        target = str(f.get("target_doc_id", ""))
        cited_page, cited_quote = pages.get(f.get("target_marker"), (None, ""))
        page = f.get("target_page") or cited_page
        section = None
        if target in sections:
            section = section_of(str(f.get("target_quote") or ""), sections[target]) or section_of(
                cited_quote or "", sections[target]
            )
            if section is None and f.get("target_section"):
                section = str(f["target_section"]).split(".")[0].strip() or None
        findings.append(Finding(str(f.get("source_quote") or ""), target, page, section))
    return findings


@dataclass
class ClauseScore:
    """How the findings met one planted clause."""

    clause: Clause
    hit: bool = False
    found_any_page: bool = False
    found: bool = False


@dataclass
class SourceScore:
    """One source's audit scored against its gold."""

    source: Source
    seconds: float
    clauses: list[ClauseScore] = field(default_factory=list)
    findings: int = 0
    boilerplate: int = 0
    other: int = 0
    unlocated: int = 0
    error: str | None = None
    #: each finding, with the ids of the planted clauses its source quote overlaps
    matched: list[tuple[Finding, list[str]]] = field(default_factory=list)

    @property
    def violations(self) -> list[ClauseScore]:
        """The scores of the planted violations."""
        return [c for c in self.clauses if c.clause.label == "violation"]

    @property
    def compliant(self) -> list[ClauseScore]:
        """The scores of the compliant clauses."""
        return [c for c in self.clauses if c.clause.label == "compliant"]


def score_source(
    source: Source, findings: Sequence[Finding], targets: dict[str, Target], seconds: float
) -> SourceScore:
    """Score ``findings`` of one audit of ``source``."""
    score = SourceScore(source, seconds, findings=len(findings))
    for clause in source.clauses:
        entry = ClauseScore(clause)
        for finding in findings:
            if not overlaps(finding.source_quote, clause.text):
                continue
            entry.hit = True
            for rule in clause.rules:
                if finding.target != rule.target:
                    continue
                entry.found_any_page = True
                if finding.page in rule.pages or (
                    finding.section is not None and finding.section in rule.sections
                ):
                    entry.found = True
        score.clauses.append(entry)
    for finding in findings:
        target = targets.get(finding.target)
        if target is not None and (
            finding.page in target.boilerplate_pages or finding.section in target.boilerplate_sections
        ):
            score.boilerplate += 1
        if target is not None and not target.paged and finding.section is None:
            score.unlocated += 1
        clause_ids = [c.id for c in source.clauses if overlaps(finding.source_quote, c.text)]
        score.matched.append((finding, clause_ids))
        if not clause_ids:
            score.other += 1
    return score


def summarise(scores: Iterable[SourceScore]) -> dict[str, Any]:
    """Totals and rates over ``scores`` (a split, or all)."""
    scores = list(scores)
    violations = [c for s in scores for c in s.violations]
    compliant = [c for s in scores for c in s.compliant]
    summary: dict[str, Any] = {
        "sources": len(scores),
        "violations": len(violations),
        "found": sum(c.found for c in violations),
        "found_any_page": sum(c.found_any_page for c in violations),
        "hit": sum(c.hit for c in violations),
        "compliant": len(compliant),
        "flagged": sum(c.hit for c in compliant),
        "findings": sum(s.findings for s in scores),
        "boilerplate": sum(s.boilerplate for s in scores),
        "other": sum(s.other for s in scores),
        "unlocated": sum(s.unlocated for s in scores),
        "errors": sum(s.error is not None for s in scores),
        "audit_seconds": round(sum(s.seconds for s in scores), 2),
    }
    for key, total in (("found", "violations"), ("found_any_page", "violations"), ("hit", "violations")):
        summary[f"{key}_rate"] = _rate(summary[key], summary[total])
    summary["flagged_rate"] = _rate(summary["flagged"], summary["compliant"])
    kinds: dict[str, dict[str, int]] = {}
    for c in violations:
        kind = kinds.setdefault(c.clause.kind or "unspecified", {"violations": 0, "found": 0})
        kind["violations"] += 1
        kind["found"] += c.found
    summary["by_kind"] = kinds
    return summary


def source_record(score: SourceScore) -> dict[str, Any]:
    """One source's score as JSON: its summary and each clause's outcome by id (no clause text)."""
    return {
        "split": score.source.split,
        "mode": score.source.mode,
        "targets": list(score.source.targets),
        "error": score.error,
        **summarise([score]),
        "clauses": {
            c.clause.id: {
                "label": c.clause.label,
                "hit": c.hit,
                "found_any_page": c.found_any_page,
                "found": c.found,
            }
            for c in score.clauses
        },
    }


def _rate(part: int, whole: int) -> float | None:
    return round(part / whole, 4) if whole else None
