"""Request and response bodies of the gateway's HTTP API."""

from datetime import datetime
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, field_validator

from gateway.display_text import VisibleText
from policypal.contracts import ChatMentions, DocType, InterruptEvent, ResumeValue
from policypal.contracts.limits import MAX_MESSAGE_TEXT, MAX_SOURCE_TEXT
from policypal.state import DocumentStatus, StoredMessage


class ErrorBody(BaseModel):
    """Every error answer: one sentence a person can act on."""

    detail: str


class DocumentView(BaseModel):
    """A document as its owner sees it."""

    document_id: str
    title: str
    version: str
    doc_type: DocType
    set_name: str | None
    filename: str
    content_type: str
    size_bytes: int
    sha256: str
    status: DocumentStatus
    pages: int | None
    chunks: int | None
    parser: str | None
    reason_code: str | None
    reason: str | None
    request_id: str
    previous_version_id: str | None = None
    created_at: datetime
    updated_at: datetime
    events_url: str


class UploadResult(BaseModel):
    """Answer to an upload: 202 for a new document, 200 (``duplicate``) for bytes already uploaded."""

    document_id: str
    request_id: str
    status: DocumentStatus
    events_url: str
    duplicate: bool = False
    document: DocumentView


class DocumentGroup(BaseModel):
    """The caller's documents in one set (``set_name`` None: documents in no set), newest first."""

    set_name: str | None = Field(examples=["HR policies"])
    colour: str | None = Field(description="The set's palette colour.", examples=["teal"])
    documents: list[DocumentView]


class DocumentList(BaseModel):
    """The caller's documents, newest first; with ``?group_by=set`` also grouped by set."""

    documents: list[DocumentView]
    groups: list[DocumentGroup] | None = Field(
        default=None,
        description="With ?group_by=set: the same documents by set, sets by name, documents in no set last.",
    )


Title = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=200), VisibleText]


class ConversationCreate(BaseModel):
    """Body of ``POST /v1/conversations``; the title is optional."""

    model_config = ConfigDict(extra="forbid")

    title: Title | None = None


class ConversationView(BaseModel):
    """A conversation without its messages."""

    conversation_id: str
    title: str = Field(examples=["GDPR retention review"])
    created_at: datetime
    last_message_at: datetime | None
    events_url: str


class ConversationSummaryView(ConversationView):
    """A conversation as the list shows it: with a short preview of its newest message."""

    last_message_preview: str | None = Field(
        description="The newest message, on one line, cut to 120 characters; None before the first message.",
        examples=["Customer records are kept for six years after the account closes…"],
    )
    last_message_role: Literal["user", "assistant", "system"] | None = Field(examples=["assistant"])


class ConversationRename(BaseModel):
    """Body of ``PATCH /v1/conversations/{id}``: the new title."""

    model_config = ConfigDict(extra="forbid")

    title: Title = Field(examples=["GDPR retention review"])


class ConversationList(BaseModel):
    """The caller's conversations, most recently active first."""

    conversations: list[ConversationSummaryView]


class ConversationDetail(ConversationView):
    """A conversation with its history, oldest message first."""

    messages: list[StoredMessage]
    pending_interrupt: InterruptEvent | None = Field(
        default=None, description="The PalAssist question the conversation waits on, if any."
    )


class MessageCreate(BaseModel):
    """A user message with what was tagged in the composer."""

    model_config = ConfigDict(extra="forbid")

    text: str = Field(min_length=1, max_length=MAX_MESSAGE_TEXT)
    mentions: ChatMentions = Field(default_factory=ChatMentions)


class ResumeCreate(BaseModel):
    """The user's answer to the pending PalAssist question (``interrupt_id``)."""

    model_config = ConfigDict(extra="forbid")

    interrupt_id: str = Field(min_length=1, max_length=200)
    resume_value: ResumeValue

    @field_validator("resume_value")
    @classmethod
    def _bounded_answer(cls, answer: ResumeValue) -> ResumeValue:
        # A typed answer may be the text to audit: the same bound as a pasted audit text, which the
        # action request carries on the bus.
        if answer.value is not None and len(answer.value) > MAX_SOURCE_TEXT:
            raise ValueError(
                f"the answer has {len(answer.value):,} characters; at most {MAX_SOURCE_TEXT:,} are accepted "
                "(upload a longer text as a document and audit the document)"
            )
        return answer


class CancelCreate(BaseModel):
    """Cancels the pending PalAssist question (``interrupt_id``)."""

    model_config = ConfigDict(extra="forbid")

    interrupt_id: str = Field(min_length=1, max_length=200)


class MessageAccepted(BaseModel):
    """The message is stored and queued; follow ``events_url`` for progress and the answer."""

    request_id: str
    message_id: str
    events_url: str


class Health(BaseModel):
    """Liveness or readiness, with the result of each check."""

    status: Literal["ok", "unavailable"]
    checks: dict[str, Literal["ok", "unavailable", "embedded"]] = Field(
        default_factory=dict,
        description="Each dependency: ok, unavailable, or embedded (local Qdrant owned by the worker).",
        examples=[{"nats": "ok", "redis": "ok", "qdrant": "embedded"}],
    )
