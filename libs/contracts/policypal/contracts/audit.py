"""The structured result of an audit (docs/adr/0006), carried in ``ResponseEvent.result`` of an @Audit answer.

Other systems read it without our Python models through its JSON Schema (``audit.result.v1.json``).
Findings come grouped by target document (in the order the targets were given), then by severity.
"""

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from policypal.contracts.envelope import SafeId
from policypal.contracts.limits import MAX_QUOTE_CHARS

AuditStatus = Literal["Compliant", "Minor Issues", "Major Violations", "Needs Review"]
Severity = Literal["Critical", "High", "Medium", "Low"]
AuditMode = Literal["text", "policy"]
#: What a rule does to what it names: RFC 2119's MUST, MUST NOT, SHOULD, SHOULD NOT and MAY.
Modality = Literal["obligation", "prohibition", "recommendation", "recommendation_against", "permission"]
#: Whether a source addresses one of a target's rules: agrees with it, contradicts it, or never mentions it.
CoverageStatus = Literal["addressed", "contradicted", "not_addressed"]
#: Who judged a finding: the offline rules (modality, polarity, numbers, paths) or the language model.
AssessedBy = Literal["offline-rules", "model"]

#: Severities from the most to the least urgent: the order of findings within a target.
SEVERITY_ORDER: tuple[Severity, ...] = ("Critical", "High", "Medium", "Low")


class AuditFinding(BaseModel):
    """One place where the audited text and a target document need attention."""

    model_config = ConfigDict(extra="ignore", frozen=True)

    target_doc_id: SafeId
    target_doc_title: str
    theme: str | None = Field(default=None, description="The source's theme (policy mode only).")
    severity: Severity
    consequence: str
    source_quote: str = Field(
        max_length=MAX_QUOTE_CHARS, description="Verbatim from the audited text or document."
    )
    target_quote: str = Field(max_length=MAX_QUOTE_CHARS, description="Verbatim from the target document.")
    suggestion: str
    confidence_score: float = Field(ge=0.0, le=1.0, description="Retrieval similarity of the two quotes.")
    needs_review: bool = Field(default=False, description="A person must judge it (always so offline).")
    source_marker: int | None = Field(
        default=None, ge=1, description="The answer's [N] citing the source quote, when it is a document."
    )
    target_marker: int | None = Field(
        default=None, ge=1, description="The answer's [N] citing the target quote."
    )
    # Added in v1 by the clause-level audit (all optional: older results stay valid).
    source_page: int | None = Field(default=None, ge=1, description="Page of the source quote, when paged.")
    target_page: int | None = Field(default=None, ge=1, description="Page of the target quote, when paged.")
    target_section: str | None = Field(
        default=None, description="Section of the target rule (number and title)."
    )
    rule_modality: Modality | None = Field(
        default=None, description="What the target rule does (must, must not…)."
    )
    rationale: str | None = Field(
        default=None,
        description="Why this is a finding: what the rule says and what the source says or omits.",
    )
    shared_terms: list[str] = Field(default_factory=list, description="Key terms the two quotes share.")
    assessed_by: AssessedBy | None = Field(default=None, description="Who judged the finding.")


class RuleCoverage(BaseModel):
    """One binding rule of a target and whether the audited policy addresses it (gap analysis)."""

    model_config = ConfigDict(extra="ignore", frozen=True)

    target_doc_id: SafeId
    rule_quote: str = Field(max_length=MAX_QUOTE_CHARS, description="Verbatim from the target document.")
    rule_page: int | None = Field(default=None, ge=1)
    rule_section: str | None = None
    rule_modality: Modality
    status: CoverageStatus
    source_quote: str | None = Field(
        default=None,
        max_length=MAX_QUOTE_CHARS,
        description="The clause that addresses or contradicts the rule.",
    )
    source_page: int | None = Field(default=None, ge=1)
    target_marker: int | None = Field(default=None, ge=1)
    source_marker: int | None = Field(default=None, ge=1)


class AuditResult(BaseModel):
    """A whole audit: the overall status, the findings, and what was covered."""

    model_config = ConfigDict(extra="ignore", frozen=True)

    overall_status: AuditStatus
    findings: list[AuditFinding] = Field(default_factory=list)
    summary: str
    targets_checked: int = Field(ge=0)
    themes_analyzed: int | None = Field(default=None, ge=0, description="Policy mode only.")
    mode: AuditMode
    source_document_id: SafeId | None = None
    statements_checked: int = Field(default=0, ge=0, description="Source statements matched to the targets.")
    # Added in v1 by the clause-level audit (all optional: older results stay valid).
    rules_checked: int = Field(default=0, ge=0, description="Binding rules of the targets the clauses met.")
    targets_without_rules: list[SafeId] = Field(
        default_factory=list,
        description="Targets in which no binding rule (must, must not, should…) was found.",
    )
    coverage: list[RuleCoverage] = Field(
        default_factory=list,
        description="Policy mode: the binding rules of the sections the policy touches, and how it covers each.",
    )
