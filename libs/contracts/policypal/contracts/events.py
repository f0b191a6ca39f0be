"""The events of PolicyPal, version 1.

Each model's ``type`` is a fixed literal so any payload can be parsed by ``parse_event``.
"""

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from policypal.contracts.action_options import AuditOptions, InquireOptions
from policypal.contracts.action_results import ActionResult, UnrecognisedResult
from policypal.contracts.codes import AnyDocumentFailureCode, AnyErrorCode, AnyStatusStage
from policypal.contracts.company import CompanyContext
from policypal.contracts.envelope import Envelope, HasRequestEnvelope, SafeId, answering
from policypal.contracts.limits import MAX_QUOTE_CHARS, MAX_SOURCE_TEXT

DocType = Literal["regulatory", "policy"]
ActionName = Literal["summarize", "inquire", "compare", "audit"]
IngestStage = Literal["stored", "parsing", "parsed", "chunked", "embedding", "embedded", "indexed"]
InterruptKind = Literal["action_choice", "doc_choice", "text_input", "retrieval_low"]
ResumeKind = Literal["action_choice", "doc_choice", "text_input", "retrieval_low", "cancel"]
ConfidenceTier = Literal["high", "medium", "low"]


class _Part(BaseModel):
    model_config = ConfigDict(extra="ignore", frozen=True)


# --- documents -------------------------------------------------------------------------------


class DocumentUploaded(Envelope):
    """The gateway stored a file's bytes; the ingestor should index it."""

    type: Literal["document.uploaded"] = "document.uploaded"
    document_id: SafeId
    object_name: str = Field(description="Key of the bytes in the NATS Object Store bucket.")
    filename: str
    content_type: str
    size_bytes: int = Field(ge=0)
    sha256: str
    title: str
    version: str
    doc_type: DocType
    set_name: str | None = None


class IngestProgress(Envelope):
    """A stage of ingestion reached; ``done``/``total`` count pages or chunks where that applies."""

    type: Literal["ingest.progress"] = "ingest.progress"
    document_id: SafeId
    stage: IngestStage
    done: int | None = None
    total: int | None = None
    message: str


class DocumentReady(Envelope):
    """The document is searchable."""

    type: Literal["document.ready"] = "document.ready"
    document_id: SafeId
    pages: int
    chunks: int
    parser: str = Field(description="Which extractor produced the text, e.g. 'pypdf' or 'pdfminer'.")


class DocumentFailed(Envelope):
    """Ingestion gave up; ``reason`` is a sentence a person understands."""

    type: Literal["document.failed"] = "document.failed"
    document_id: SafeId
    reason_code: AnyDocumentFailureCode = Field(
        description="Stable machine code (DocumentFailureCode), e.g. 'no_text_layer', 'corrupt'."
    )
    reason: str


class DocumentDeleted(Envelope):
    """The owner deleted a document: its catalog entry and bytes are gone; its chunks must go too."""

    type: Literal["document.deleted"] = "document.deleted"
    document_id: SafeId
    object_name: str = Field(description="Key of the document's bytes in the Object Store, to remove.")


# --- chat ------------------------------------------------------------------------------------


class ChatMentions(_Part):
    """What the user tagged explicitly in the composer."""

    action: ActionName | None = None
    documents: list[SafeId] = Field(default_factory=list, description="Document ids.")
    web: bool = Field(default=False, description="@Web: also search the web for this message.")


class HistoryTurn(_Part):
    """One earlier message of the conversation, as context for a worker."""

    role: Literal["user", "assistant", "system"]
    content: str


class ChatRequested(Envelope):
    """A user message posted to a conversation (``thread_id``)."""

    type: Literal["chat.requested"] = "chat.requested"
    message_id: str
    text: str
    mentions: ChatMentions = Field(default_factory=ChatMentions)


class ResolvedDocument(_Part):
    """A document the resolver found for a request, with what a worker needs to cite it."""

    document_id: SafeId
    title: str
    version: str
    doc_type: DocType


class UserContext(_Part):
    """What the user told us about themselves, for tone and relevance (docs/product.md, User context)."""

    industry: str | None = None
    location: str | None = None


class ActionRequested(Envelope):
    """The resolver's hand-off to one action worker (subject ``actions.<action>.requested``).

    For audit, ``source_document_id`` or ``source_text`` is what is audited and ``target_document_ids``
    the regulations it is audited against; all of them are among ``documents``.
    """

    type: Literal["action.requested"] = "action.requested"
    action: ActionName
    query: str = Field(description="The user's question, cleaned of mentions.")
    documents: list[ResolvedDocument]
    history: list[HistoryTurn] = Field(default_factory=list)
    # Added after v1's first release: optional, so v1 samples still parse (ADR 0002).
    message_id: str | None = Field(default=None, description="The user message that started the request.")
    source_document_id: SafeId | None = None
    source_text: str | None = Field(
        default=None,
        max_length=MAX_SOURCE_TEXT,
        description="Pasted text to audit (at most 50,000 characters).",
    )
    target_document_ids: list[SafeId] = Field(default_factory=list)
    web: bool = False
    user_context: UserContext = Field(default_factory=UserContext)
    inference_confidence: ConfidenceTier | None = None
    notices: list[str] = Field(default_factory=list, description="Said to the user with the answer.")
    accept_low_confidence: bool = Field(
        default=False, description="The user chose to continue despite weak retrieval: answer with a caution."
    )
    # Per-action options beside the flat fields above (which stay); workers read them through
    # ``policypal.contracts.action_options`` (sub-model first, else the flat fields).
    audit: AuditOptions | None = Field(default=None, description="An audit's options (else the flat fields).")
    inquire: InquireOptions | None = Field(
        default=None, description="An inquiry's options (else the flat fields)."
    )
    published_scope: bool = Field(
        default=False,
        description="A widget customer's request: ``documents`` are the tenant's published documents, "
        "searched whoever owns them, never the customer's own library.",
    )
    escalate_below: float | None = Field(
        default=None,
        ge=0.0,
        le=1.0,
        description="The tenant's confidence threshold for widget answers: a weaker one goes to a person.",
    )
    company: CompanyContext | None = Field(
        default=None, description="The requesting user's company profile, as context for the prompts."
    )


class InterruptOption(_Part):
    """A choice PalAssist offers: an action, a document, "all", or a retrieval_low remedy."""

    id: str
    label: str


class InterruptEvent(Envelope):
    """The request pauses for the user (PalAssist); terminal for this request until it is resumed."""

    type: Literal["interrupt"] = "interrupt"
    interrupt_id: str
    interrupt_type: InterruptKind
    message: str
    options: list[InterruptOption] | None = None


class ResumeValue(_Part):
    """The user's answer to an interrupt; ``value`` is an option id, free text, or None for cancel."""

    type: ResumeKind
    value: str | None = None


class ChatResumed(Envelope):
    """A user's answer to the pending interrupt of a conversation (``thread_id``).

    ``request_id`` is a new request; ``resumes_request_id`` is the one that was interrupted.
    """

    type: Literal["chat.resumed"] = "chat.resumed"
    interrupt_id: str
    resumes_request_id: str
    resume_value: ResumeValue


class TokenEvent(Envelope):
    """A piece of the answer being generated, in order by ``index``; the response event follows."""

    type: Literal["token"] = "token"
    message_id: str
    index: int = Field(ge=0)
    text: str


# --- progress and results (events.<tenant>.<thread>.<kind>) ----------------------------------


class StatusEvent(Envelope):
    """A step of a chat request, for the progress line in the UI."""

    type: Literal["status"] = "status"
    stage: AnyStatusStage = Field(description="Machine name of the step (StatusStage), e.g. 'retrieving'.")
    message: str


class Citation(_Part):
    """Source of an ``[N]`` marker: a chunk of a document, with a verbatim quote from it."""

    marker: int = Field(ge=1)
    document_id: SafeId
    title: str
    version: str
    page: int | None = None
    chunk_id: str
    quote: str = Field(max_length=MAX_QUOTE_CHARS)


class WebCitation(_Part):
    """Source of an ``[N]`` marker found on the web, with a verbatim quote from the search result."""

    marker: int = Field(ge=1)
    url: str
    title: str
    quote: str = Field(max_length=MAX_QUOTE_CHARS)


class Usage(_Part):
    """Tokens and cost of generating one answer."""

    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost_usd: float = 0.0
    estimated: bool = Field(
        default=False,
        description="True when the server reported no token counts: tokens and cost are estimates.",
    )


class ResponseEvent(Envelope):
    """The terminal answer to a chat request."""

    type: Literal["response"] = "response"
    message_id: str = Field(description="Id of the assistant message stored in the conversation.")
    action: ActionName
    answer: str
    citations: list[Citation] = Field(default_factory=list)
    model: str
    usage: Usage = Field(default_factory=Usage)
    # Added after v1's first release: optional (ADR 0002).
    inference_confidence: ConfidenceTier | None = None
    retrieval_confidence: ConfidenceTier | None = None
    caution: str | None = Field(default=None, description="Shown with a medium-confidence answer.")
    notices: list[str] = Field(default_factory=list)
    cached: bool = False
    # Left to right: each action's model first, the catch-all last (contracts/action_results.py).
    result: Annotated[ActionResult | UnrecognisedResult | None, Field(union_mode="left_to_right")] = Field(
        default=None, description="Structured result of the action (e.g. the audit report), when it has one."
    )
    web_citations: list[WebCitation] = Field(
        default_factory=list,
        description="Markers cited from web search results (after the documents' markers).",
    )
    answered_by: Literal["assistant", "reviewer"] | None = Field(
        default=None,
        description="'reviewer' when a person answered an escalated question; else the assistant.",
    )
    escalation_id: str | None = Field(default=None, description="The ticket a reviewer's answer resolves.")


EscalationStatus = Literal["pending_human", "resolved"]


class EscalationEvent(Envelope):
    """The user asked for a reviewer: a ticket waits for a person; terminal for this request.

    The reviewer's answer arrives later in the same thread as a ``response`` event with
    ``answered_by="reviewer"`` and this ``escalation_id``.
    """

    type: Literal["escalation"] = "escalation"
    escalation_id: str = Field(description="The ticket id, shown to the user and to administrators.")
    status: EscalationStatus = "pending_human"
    message: str = Field(description="What the user is told, naming the ticket.")
    question: str = Field(description="The question the reviewer is asked to answer.")
    escalated_request_id: str | None = Field(
        default=None, description="The request whose weak answer the user escalated."
    )


class ErrorEvent(Envelope):
    """The terminal failure of a request; ``message`` is for people, ``code`` for programs."""

    type: Literal["error"] = "error"
    code: AnyErrorCode = Field(description="Stable machine code (ErrorCode), e.g. 'document_not_found'.")
    message: str
    retryable: bool = False

    @classmethod
    def ending(
        cls, request: HasRequestEnvelope, code: AnyErrorCode, message: str, *, retryable: bool = False
    ) -> "ErrorEvent":
        """The terminal error of ``request``'s request, on its thread."""
        return cls(**answering(request), code=code, message=message, retryable=retryable)


AnyEvent = Annotated[
    DocumentUploaded
    | IngestProgress
    | DocumentReady
    | DocumentFailed
    | DocumentDeleted
    | ChatRequested
    | ChatResumed
    | ActionRequested
    | StatusEvent
    | TokenEvent
    | InterruptEvent
    | ResponseEvent
    | ErrorEvent
    | EscalationEvent,
    Field(discriminator="type"),
]

EVENT_TYPES: dict[str, type[Envelope]] = {
    model.model_fields["type"].default: model
    for model in (
        DocumentUploaded,
        IngestProgress,
        DocumentReady,
        DocumentFailed,
        DocumentDeleted,
        ChatRequested,
        ChatResumed,
        ActionRequested,
        StatusEvent,
        TokenEvent,
        InterruptEvent,
        ResponseEvent,
        ErrorEvent,
        EscalationEvent,
    )
}

#: Event types that end a chat request (exactly one per request) and an upload request.
CHAT_TERMINAL_TYPES = frozenset({"response", "interrupt", "error", "escalation"})
DOCUMENT_TERMINAL_TYPES = frozenset({"document.ready", "document.failed"})

_any_event: TypeAdapter[AnyEvent] = TypeAdapter(AnyEvent)


def parse_event(payload: bytes | str) -> Envelope:
    """Parse any PolicyPal event from its JSON form, choosing the model by ``type``."""
    event: Envelope = _any_event.validate_json(payload)
    return event
