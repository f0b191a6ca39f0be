"""Gap analysis: which binding rules of a target the audited policy addresses, contradicts, or never mentions.

A regulation has far more rules than any one policy is about, so coverage is measured over the
sections the policy touches: every section where some clause met its governing rule. Within them,
each binding rule (must, must not, should, should not) is contradicted (a clause breaks it),
addressed (a clause governed by it keeps it), or not addressed (no clause is governed by it).
"""

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from actions.audit.checking import TargetCheck
from actions.audit.clauses import Clause
from policypal.contracts.audit import CoverageStatus
from policypal.rules import is_binding
from policypal.vectorstore import RulePoint

#: Rules listed per target (contradicted ones always); the counts cover every rule of the sections.
MAX_LISTED: Final = 60


@dataclass(frozen=True)
class CoveredRule:
    """One binding rule of a section the policy touches, and the clause that addresses it, if any."""

    rule: RulePoint
    status: CoverageStatus
    clause: Clause | None


@dataclass(frozen=True)
class TargetCoverage:
    """Coverage of one target: counts over the touched sections, and the rules listed."""

    target_id: str
    sections: int
    counts: dict[CoverageStatus, int]
    listed: list[CoveredRule]


def target_coverage(check: TargetCheck, rules: Sequence[RulePoint]) -> TargetCoverage:
    """The coverage of ``check``'s target by the clauses that were checked against it."""
    governed: dict[str, tuple[Clause, bool]] = {}
    for clause, candidate, broken in check.governing:
        seen = governed.get(candidate.rule.rule_id)
        if seen is None or (broken and not seen[1]):
            governed[candidate.rule.rule_id] = (clause, broken)
    touched = {_section_key(c.rule) for _, c, _ in check.governing}
    covered: list[CoveredRule] = []
    for rule in rules:
        if not is_binding(rule.modality) or _section_key(rule) not in touched:
            continue
        found = governed.get(rule.rule_id)
        if found is None:
            covered.append(CoveredRule(rule, "not_addressed", None))
        else:
            covered.append(CoveredRule(rule, "contradicted" if found[1] else "addressed", found[0]))
    counts: dict[CoverageStatus, int] = {"addressed": 0, "contradicted": 0, "not_addressed": 0}
    for item in covered:
        counts[item.status] += 1
    contradicted = [c for c in covered if c.status == "contradicted"]
    others = [c for c in covered if c.status != "contradicted"][: max(0, MAX_LISTED - len(contradicted))]
    listed = sorted(contradicted + others, key=lambda c: c.rule.rule_index)
    return TargetCoverage(check.target.document_id, len(touched), counts, listed)


def _section_key(rule: RulePoint) -> str:
    """The section a rule belongs to: its heading, else its page (documents without headings)."""
    return rule.section or f"page {rule.page}"
