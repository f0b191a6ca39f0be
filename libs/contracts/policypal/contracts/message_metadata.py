"""What a stored conversation message says about itself besides its text: one model per kind of turn.

The gateway, the resolver and the action workers write turns into the same history, and the gateway
serves it to clients (the web console reads ``metadata.error_code``, ``metadata.citations``,
``metadata.interrupt``…), so the shapes are a contract. Every model names its ``kind``; records
written before ``kind`` existed carry none, and ``metadata_kind`` recognises them by their fields, so
they still load as the same models (ADR 0002: the wire values never change, fields are only added).
A kind this code does not know (written by a newer service) loads as ``UnrecognisedMetadata``.
"""

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Discriminator, Field, Tag

from policypal.contracts.codes import AnyErrorCode
from policypal.contracts.events import (
    ActionName,
    ChatMentions,
    Citation,
    EscalationStatus,
    InterruptKind,
    InterruptOption,
    ResumeValue,
    Usage,
    WebCitation,
)


class _Metadata(BaseModel):
    model_config = ConfigDict(extra="ignore", frozen=True)


class MessageMentions(_Metadata):
    """A user's chat message: what they tagged in the composer."""

    kind: Literal["user_message"] = "user_message"
    mentions: ChatMentions = Field(default_factory=ChatMentions)


class ApiRequestOrigin(_Metadata):
    """A user turn written for a request another system made over the API (``POST /v1/audits``)."""

    kind: Literal["api_request"] = "api_request"
    via: Literal["api"] = "api"
    requested_by: str = Field(
        description="The caller (a user or an API key's principal) that made the request."
    )


class AnsweredInterrupt(_Metadata):
    """Which PalAssist question a user's answer answers, and how."""

    interrupt_id: str
    resumes_request_id: str = Field(description="The request the question interrupted.")
    resume_value: ResumeValue


class InterruptAnswer(_Metadata):
    """A user's answer to a PalAssist question; the gateway re-reads it when a retry repeats the answer."""

    kind: Literal["interrupt_answer"] = "interrupt_answer"
    resume: AnsweredInterrupt


class AnswerDetails(_Metadata):
    """An action worker's answer: the action, its sources, the model and what it cost."""

    kind: Literal["answer"] = "answer"
    action: ActionName
    citations: list[Citation] = Field(default_factory=list)
    web_citations: list[WebCitation] = Field(default_factory=list)
    model: str
    usage: Usage = Field(default_factory=Usage)


class ReviewerAnswer(_Metadata):
    """A reviewer's answer to an escalated question."""

    kind: Literal["reviewer_answer"] = "reviewer_answer"
    answered_by: Literal["reviewer"] = "reviewer"
    escalation_id: str
    action: ActionName
    model: str


class ErrorNotice(_Metadata):
    """A request that ended with an error (a cancellation too); ``error_code`` is the event's ``code``."""

    kind: Literal["error"] = "error"
    error_code: AnyErrorCode


class AskedQuestion(_Metadata):
    """The PalAssist question as clients render it again from history."""

    interrupt_id: str
    interrupt_type: InterruptKind
    message: str
    options: list[InterruptOption] | None = None


class PalAssistPrompt(_Metadata):
    """The system notice of a PalAssist question."""

    kind: Literal["pal_assist_prompt"] = "pal_assist_prompt"
    interrupt: AskedQuestion


class EscalationNotice(_Metadata):
    """The bridge message telling the user their question waits for a reviewer."""

    kind: Literal["escalation"] = "escalation"
    escalation_id: str
    status: EscalationStatus


class UnrecognisedMetadata(_Metadata):
    """Metadata of a kind a newer service wrote: kept as it is, so history still loads and round-trips."""

    model_config = ConfigDict(extra="allow", frozen=True)

    kind: str = "unrecognised"


_KNOWN_KINDS = frozenset(
    {
        "user_message",
        "api_request",
        "interrupt_answer",
        "answer",
        "reviewer_answer",
        "error",
        "pal_assist_prompt",
        "escalation",
    }
)


def metadata_kind(value: Any) -> str:
    """The kind of a metadata record: its ``kind``, or for a record written before ``kind`` existed,
    the kind its fields show (each older writer wrote one recognisable field)."""
    if isinstance(value, BaseModel):
        known = getattr(value, "kind", None)
        return str(known) if known in _KNOWN_KINDS else "unrecognised"
    if not isinstance(value, dict):
        return "unrecognised"
    kind = value.get("kind")
    if kind is not None:
        return str(kind) if kind in _KNOWN_KINDS else "unrecognised"
    if "error_code" in value:
        return "error"
    if "resume" in value:
        return "interrupt_answer"
    if value.get("answered_by") == "reviewer":
        return "reviewer_answer"
    if value.get("via") == "api":
        return "api_request"
    if "mentions" in value:
        return "user_message"
    if "model" in value and "action" in value:
        return "answer"
    return "unrecognised"


MessageMetadata = Annotated[
    Annotated[MessageMentions, Tag("user_message")]
    | Annotated[ApiRequestOrigin, Tag("api_request")]
    | Annotated[InterruptAnswer, Tag("interrupt_answer")]
    | Annotated[AnswerDetails, Tag("answer")]
    | Annotated[ReviewerAnswer, Tag("reviewer_answer")]
    | Annotated[ErrorNotice, Tag("error")]
    | Annotated[PalAssistPrompt, Tag("pal_assist_prompt")]
    | Annotated[EscalationNotice, Tag("escalation")]
    | Annotated[UnrecognisedMetadata, Tag("unrecognised")],
    Discriminator(metadata_kind),
]
