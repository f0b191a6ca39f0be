"""Audits for other systems: ``POST /v1/audits`` publishes ``actions.audit.requested``; read the outcome
with ``GET /v1/requests/{id}``.

The request is the same ``ActionRequested`` the resolver hands to the @Audit worker, so a system may
also publish it on NATS itself (docs/publishing-audits.md). A system (API key or service token) acts
for the owner of the documents, since a user's chunks are searched under that user; a person audits
their own documents. The audit runs in a conversation of that owner, where its answer also appears.
"""

import uuid
from datetime import datetime
from typing import Annotated, Literal, Self

from fastapi import APIRouter, Depends, Header, HTTPException, status
from pydantic import BaseModel, Field, StringConstraints, model_validator

from gateway.conversations import conversation_events_url, request_id_for
from gateway.deadlines import register_deadline
from gateway.models import ErrorBody
from gateway.publishing import publish_or_503
from gateway.resources import Resources, ResourcesDep
from policypal.auth import Principal, TenantStore
from policypal.auth.http import require_scope
from policypal.contracts import (
    ActionRequested,
    ApiRequestOrigin,
    ErrorEvent,
    ResolvedDocument,
    ResponseEvent,
    UserContext,
)
from policypal.contracts.audit import AuditResult
from policypal.contracts.dedup_ids import action_handoff_id
from policypal.contracts.envelope import SafeId
from policypal.contracts.limits import MAX_DOCUMENTS, MAX_SOURCE_TEXT
from policypal.state import (
    ConversationRecord,
    DocumentRecord,
    ProfileStore,
    RequestLedger,
    RequestRecord,
    RequestTracker,
    StoredMessage,
    company_context,
    user_message_id,
)

router = APIRouter(tags=["audits"])

AuditPrincipal = Annotated[Principal, Depends(require_scope("audit"))]
_NO_DOCUMENT = "No such document: {}."
_ERRORS: dict[int | str, dict[str, object]] = {
    401: {"model": ErrorBody},
    403: {"model": ErrorBody},
    404: {"model": ErrorBody},
    429: {"model": ErrorBody},
}


class AuditCreate(BaseModel):
    """What to audit (a text, or a document) against 1-5 (``MAX_DOCUMENTS``) regulation documents."""

    source_text: (
        Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=MAX_SOURCE_TEXT)]
        | None
    ) = Field(default=None, examples=["Customer records are kept for 2 years and then deleted."])
    source_document_id: SafeId | None = Field(default=None, description="A policy document to audit.")
    target_document_ids: list[SafeId] = Field(min_length=1, max_length=MAX_DOCUMENTS, examples=[["gdpr2016"]])
    thread_id: SafeId | None = Field(
        default=None, description="A conversation of the documents' owner to answer in; a new one if omitted."
    )

    @model_validator(mode="after")
    def _one_source(self) -> Self:
        if (self.source_text is None) == (self.source_document_id is None):
            raise ValueError("Give exactly one of source_text or source_document_id.")
        if self.source_document_id in self.target_document_ids:
            raise ValueError("The audited document cannot also be a target.")
        if len(set(self.target_document_ids)) != len(self.target_document_ids):
            raise ValueError("target_document_ids lists a document twice.")
        return self


class AuditAccepted(BaseModel):
    """The audit is queued; follow it at ``status_url`` or on ``events_url``."""

    request_id: str
    thread_id: str
    status_url: str
    events_url: str


RequestState = Literal["queued", "running", "completed", "failed"]


class RequestFailure(BaseModel):
    """Why a request failed: ``code`` for programs, ``message`` for people."""

    code: str
    message: str
    retryable: bool


class RequestStatusView(BaseModel):
    """Where a request stands and, once completed, its result."""

    request_id: str
    kind: Literal["audit"]
    status: RequestState
    thread_id: str
    created_at: datetime
    started_at: datetime | None = None
    finished_at: datetime | None = None
    answer: str | None = Field(default=None, description="The audit report as text, with [N] citations.")
    result: AuditResult | None = Field(default=None, description="The structured audit (when completed).")
    error: RequestFailure | None = None


@router.post(
    "/v1/audits",
    status_code=status.HTTP_202_ACCEPTED,
    response_model=AuditAccepted,
    responses={**_ERRORS, 409: {"model": ErrorBody}, 422: {"model": ErrorBody}, 503: {"model": ErrorBody}},
)
async def create_audit(
    body: AuditCreate,
    principal: AuditPrincipal,
    resources: ResourcesDep,
    idempotency_key: Annotated[
        str | None,
        Header(min_length=1, max_length=200, description="Makes a retry return the same request id."),
    ] = None,
) -> AuditAccepted:
    """Queue an audit; 404 for a document or thread not in the caller's reach, 409 if one is not ready."""
    wanted = [*([body.source_document_id] if body.source_document_id else []), *body.target_document_ids]
    documents = [await _ready_document(resources, principal, document_id) for document_id in wanted]
    owners = {d.user_id for d in documents}
    if len(owners) > 1:
        raise HTTPException(
            status.HTTP_422_UNPROCESSABLE_CONTENT, "All documents of one audit must belong to the same user."
        )
    owner = owners.pop()
    conversation = await _conversation(resources, principal, owner, body.thread_id)
    request_id = request_id_for(principal, f"audit:{conversation.conversation_id}", idempotency_key)
    record = await RequestTracker(resources.redis).accept(
        RequestRecord(
            request_id=request_id,
            tenant_id=principal.tenant_id,
            requested_by=principal.user_id,
            user_id=owner,
            thread_id=conversation.conversation_id,
        )
    )
    event = await _audit_request(resources, principal, body, documents, record)
    await resources.conversations.append(
        conversation,
        StoredMessage(
            message_id=user_message_id(request_id),
            role="user",
            content=event.query,
            request_id=request_id,
            metadata=ApiRequestOrigin(requested_by=principal.user_id),
        ),
    )
    await register_deadline(resources, conversation, request_id)
    # The resolver's Nats-Msg-Id for a hand-off: a retried POST publishes nothing new.
    await publish_or_503(
        resources,
        event,
        msg_id=action_handoff_id(request_id),
        refusal="The audit could not be queued; send it again with the same Idempotency-Key.",
    )
    return AuditAccepted(
        request_id=request_id,
        thread_id=conversation.conversation_id,
        status_url=f"/v1/requests/{request_id}",
        events_url=f"{conversation_events_url(resources, conversation.conversation_id)}?request_id={request_id}",
    )


@router.get("/v1/requests/{request_id}", response_model=RequestStatusView, responses=_ERRORS)
async def get_request(
    request_id: str, principal: AuditPrincipal, resources: ResourcesDep
) -> RequestStatusView:
    """Status of a request made through the API (queued, running, completed, failed) and its result."""
    record = await RequestTracker(resources.redis).get(principal.tenant_id, request_id)
    if record is None or not _may_read(principal, record):
        raise HTTPException(status.HTTP_404_NOT_FOUND, "No such request.")
    view = RequestStatusView(
        request_id=record.request_id,
        kind=record.kind,
        status=record.phase,
        thread_id=record.thread_id,
        created_at=record.created_at,
        started_at=record.started_at,
    )
    terminal = await RequestLedger(resources.redis).terminal(principal.tenant_id, request_id)
    if isinstance(terminal, ResponseEvent):
        result = terminal.result if isinstance(terminal.result, AuditResult) else None
        return view.model_copy(
            update={
                "status": "completed",
                "finished_at": terminal.occurred_at,
                "answer": terminal.answer,
                "result": result,
            }
        )
    if isinstance(terminal, ErrorEvent):
        failure = RequestFailure(code=terminal.code, message=terminal.message, retryable=terminal.retryable)
        return view.model_copy(
            update={"status": "failed", "finished_at": terminal.occurred_at, "error": failure}
        )
    return view


def _may_read(principal: Principal, record: RequestRecord) -> bool:
    """Systems and administrators read every API request of their tenant; a person only their own."""
    if principal.role in {"service", "admin"}:
        return True
    return principal.user_id in {record.requested_by, record.user_id}


async def _ready_document(resources: Resources, principal: Principal, document_id: str) -> DocumentRecord:
    """A document the caller may audit with (404 otherwise, even for another tenant's), ready (409)."""
    if principal.role == "service":
        record = await resources.catalog.get_in_tenant(principal.tenant_id, document_id)
    else:
        record = await resources.catalog.get(principal.tenant_id, principal.user_id, document_id)
    if record is None:
        raise HTTPException(status.HTTP_404_NOT_FOUND, _NO_DOCUMENT.format(document_id))
    if record.status != "ready":
        state = "is still being processed" if record.status == "processing" else "could not be indexed"
        raise HTTPException(
            status.HTTP_409_CONFLICT,
            f"Document {document_id} ({record.title}) {state}; it cannot be audited yet.",
        )
    return record


async def _conversation(
    resources: Resources, principal: Principal, owner: str, conversation_id: str | None
) -> ConversationRecord:
    """The owner's conversation ``conversation_id`` (404 if not theirs), or a new one for this audit."""
    if conversation_id is not None:
        record = await resources.conversations.get(principal.tenant_id, owner, conversation_id)
        if record is None:
            raise HTTPException(status.HTTP_404_NOT_FOUND, "No such conversation.")
        return record
    record = ConversationRecord(
        conversation_id=uuid.uuid4().hex,
        tenant_id=principal.tenant_id,
        user_id=owner,
        title="Audit requested through the API",
    )
    await resources.conversations.create(record)
    return record


async def _audit_request(
    resources: Resources,
    principal: Principal,
    body: AuditCreate,
    documents: list[DocumentRecord],
    record: RequestRecord,
) -> ActionRequested:
    """The ``actions.audit.requested`` event, as the resolver builds it for an @Audit turn."""
    profile = await TenantStore(resources.redis).get(principal.tenant_id)
    resolved = [
        ResolvedDocument(document_id=d.document_id, title=d.title, version=d.version, doc_type=d.doc_type)
        for d in documents
    ]
    by_id = {d.document_id: d for d in resolved}
    titles = ", ".join(by_id[i].title for i in body.target_document_ids)
    source = by_id[body.source_document_id].title if body.source_document_id else "the provided text"
    return ActionRequested(
        tenant_id=principal.tenant_id,
        user_id=record.user_id,
        request_id=record.request_id,
        thread_id=record.thread_id,
        action="audit",
        query=f"Audit {source} against {titles}.",
        documents=resolved,
        message_id=user_message_id(record.request_id),
        source_document_id=body.source_document_id,
        source_text=body.source_text,
        target_document_ids=list(body.target_document_ids),
        user_context=UserContext(industry=profile.industry, location=profile.location),
        company=company_context(await ProfileStore(resources.redis).get(principal.tenant_id, record.user_id)),
        inference_confidence="high",
    )
