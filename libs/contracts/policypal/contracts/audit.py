"""The structured result of an audit (seed 000), carried in ``ResponseEvent.result`` of an @Audit answer.

Other systems read it without our Python models through its JSON Schema (``audit.result.v1.json``).
Findings come grouped by target document (in the order the targets were given), then by severity.
"""

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from policypal.contracts.envelope import SafeId

AuditStatus = Literal["Compliant", "Minor Issues", "Major Violations", "Needs Review"]
Severity = Literal["Critical", "High", "Medium", "Low"]
AuditMode = Literal["text", "policy"]

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
    source_quote: str = Field(max_length=300, description="Verbatim from the audited text or document.")
    target_quote: str = Field(max_length=300, description="Verbatim from the target document.")
    suggestion: str
    confidence_score: float = Field(ge=0.0, le=1.0, description="Retrieval similarity of the two quotes.")
    needs_review: bool = Field(default=False, description="A person must judge it (always so offline).")
    source_marker: int | None = Field(
        default=None, ge=1, description="The answer's [N] citing the source quote, when it is a document."
    )
    target_marker: int | None = Field(
        default=None, ge=1, description="The answer's [N] citing the target quote."
    )


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
