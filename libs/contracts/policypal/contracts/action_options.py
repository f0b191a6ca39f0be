"""What one action needs of an ``ActionRequested`` besides the query and documents: its typed options.

``ActionRequested`` first carried every action's fields flat (``source_document_id``, ``web``…); each
action now has an optional sub-model beside them (``audit``, ``inquire``). Producers may send either or
both; a worker reads its options through one function here, which takes the sub-model when present
and the flat fields otherwise, so events from older producers keep working (ADR 0002). The flat
fields stay: nothing is removed or given a new meaning.
"""

from typing import TYPE_CHECKING

from pydantic import BaseModel, ConfigDict, Field

from policypal.contracts.envelope import SafeId
from policypal.contracts.limits import MAX_SOURCE_TEXT

if TYPE_CHECKING:
    from policypal.contracts.events import ActionRequested


class _Options(BaseModel):
    model_config = ConfigDict(extra="ignore", frozen=True)


class AuditOptions(_Options):
    """What to audit (a document among the request's, or pasted text) and the regulations to audit it against."""

    source_document_id: SafeId | None = None
    source_text: str | None = Field(
        default=None,
        max_length=MAX_SOURCE_TEXT,
        description="Pasted text to audit (at most 50,000 characters).",
    )
    target_document_ids: list[SafeId] = Field(
        default_factory=list, description="The regulations; empty means every document but the source."
    )


class InquireOptions(_Options):
    """How a question is answered: also from the web, and whether weak retrieval may still be answered."""

    web: bool = Field(default=False, description="@Web: also search the web for this question.")
    accept_low_confidence: bool = Field(
        default=False, description="The user chose to continue despite weak retrieval: answer with a caution."
    )


def audit_options(event: "ActionRequested") -> AuditOptions:
    """The audit's options of ``event``: its ``audit`` sub-model, else its flat fields."""
    if event.audit is not None:
        return event.audit
    return AuditOptions(
        source_document_id=event.source_document_id,
        source_text=event.source_text,
        target_document_ids=event.target_document_ids,
    )


def inquire_options(event: "ActionRequested") -> InquireOptions:
    """The inquiry's options of ``event``: its ``inquire`` sub-model, else its flat fields."""
    if event.inquire is not None:
        return event.inquire
    return InquireOptions(web=event.web, accept_low_confidence=event.accept_low_confidence)
