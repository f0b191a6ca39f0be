"""Admin endpoints for escalation tickets (docs/product.md, Escalation to a reviewer): list them, and answer one as a human reviewer.

The reviewer's answer lands in the ticket's conversation as an assistant message marked as answered
by a reviewer, and is published as a ``response`` event so open SSE clients see it at once.
"""

from datetime import datetime
from typing import Annotated

from fastapi import APIRouter, HTTPException, Path, Query, status
from pydantic import BaseModel, Field, StringConstraints

from gateway.models import ErrorBody
from gateway.publishing import publish_or_503
from gateway.resources import Resources, ResourcesDep
from policypal.auth import Principal
from policypal.auth.http import AdminPrincipal
from policypal.contracts import ActionName, EscalationStatus, ResponseEvent, ReviewerAnswer, answering
from policypal.contracts.dedup_ids import reviewer_answer_id
from policypal.contracts.limits import MAX_MESSAGE_TEXT
from policypal.state import AlreadyResolved, EscalationStore, EscalationTicket, StoredMessage

router = APIRouter(prefix="/v1/admin/escalations", tags=["admin"])

EscalationId = Annotated[str, Path(pattern=r"^[A-Za-z0-9_-]{1,64}$")]
#: The ``model`` of a reviewer's answer: no language model wrote it.
REVIEWER_MODEL = "human-reviewer"
_ERRORS: dict[int | str, dict[str, object]] = {
    401: {"model": ErrorBody},
    403: {"model": ErrorBody},
    429: {"model": ErrorBody},
}


class EscalationView(BaseModel):
    """A ticket as administrators see it."""

    escalation_id: str
    thread_id: str
    request_id: str
    user_id: str
    action: ActionName
    question: str
    status: EscalationStatus
    created_at: datetime
    answer: str | None
    resolved_by: str | None
    resolved_at: datetime | None


class EscalationList(BaseModel):
    """The tenant's tickets, oldest first."""

    escalations: list[EscalationView]


class EscalationAnswer(BaseModel):
    """The reviewer's answer, shown to the user in the conversation."""

    answer: Annotated[
        str, StringConstraints(strip_whitespace=True, min_length=1, max_length=MAX_MESSAGE_TEXT)
    ] = Field(
        examples=["Customer records must be kept for 6 years after the end of the relationship (Policy 4.2)."]
    )


def reviewer_message_id(escalation_id: str) -> str:
    """Id of the reviewer's message in the conversation: one per ticket."""
    return f"reviewer-{escalation_id}"


def reviewer_response(ticket: EscalationTicket) -> ResponseEvent:
    """The ``response`` event that carries a resolved ticket's answer to the thread."""
    assert ticket.answer is not None, "only a resolved ticket has an answer"
    return ResponseEvent(
        **answering(ticket),
        message_id=reviewer_message_id(ticket.escalation_id),
        action=ticket.action,
        answer=ticket.answer,
        model=REVIEWER_MODEL,
        answered_by="reviewer",
        escalation_id=ticket.escalation_id,
    )


def _view(ticket: EscalationTicket) -> EscalationView:
    return EscalationView.model_validate(ticket.model_dump())


@router.get("", response_model=EscalationList, responses=_ERRORS)
async def list_escalations(
    principal: AdminPrincipal,
    resources: ResourcesDep,
    status_filter: Annotated[
        EscalationStatus | None, Query(alias="status", description="Only tickets with this status.")
    ] = None,
) -> EscalationList:
    """The caller's tenant's escalation tickets, oldest first (at most 100)."""
    tickets = await EscalationStore(resources.redis).list(principal.tenant_id, status_filter)
    return EscalationList(escalations=[_view(t) for t in tickets])


@router.post(
    "/{escalation_id}/resolve",
    response_model=EscalationView,
    responses={**_ERRORS, 404: {"model": ErrorBody}, 409: {"model": ErrorBody}, 503: {"model": ErrorBody}},
)
async def resolve_escalation(
    escalation_id: EscalationId, body: EscalationAnswer, principal: AdminPrincipal, resources: ResourcesDep
) -> EscalationView:
    """Answer a ticket: the answer appears in its conversation; 409 if it was answered already."""
    return _view(await answer_ticket(resources, principal, escalation_id, body.answer))


async def answer_ticket(
    resources: Resources, principal: Principal, escalation_id: str, answer: str
) -> EscalationTicket:
    """Resolve the ticket with ``answer`` by ``principal`` and deliver it to its conversation.

    404 when the tenant has no such ticket, 409 when it was answered already.
    """
    store = EscalationStore(resources.redis)
    try:
        ticket = await store.resolve(principal.tenant_id, escalation_id, answer, principal.user_id)
    except AlreadyResolved as exc:
        raise HTTPException(status.HTTP_409_CONFLICT, "This escalation has already been resolved.") from exc
    if ticket is None:
        raise HTTPException(status.HTTP_404_NOT_FOUND, "No such escalation.")
    await _deliver(resources, ticket)
    return ticket


async def _deliver(resources: Resources, ticket: EscalationTicket) -> None:
    """Append the answer to the conversation and publish it; a deleted conversation gets nothing."""
    conversation = await resources.conversations.get(ticket.tenant_id, ticket.user_id, ticket.thread_id)
    if conversation is None:
        return
    event = reviewer_response(ticket)
    await resources.conversations.append(
        conversation,
        StoredMessage(
            message_id=event.message_id,
            role="assistant",
            content=event.answer,
            request_id=event.request_id,
            created_at=event.occurred_at,
            metadata=ReviewerAnswer(
                escalation_id=ticket.escalation_id, action=ticket.action, model=REVIEWER_MODEL
            ),
        ),
    )
    await publish_or_503(
        resources,
        event,
        msg_id=reviewer_answer_id(ticket.escalation_id),
        refusal="The answer is saved in the conversation, but open clients could not be notified; "
        "they will see it when they reload the conversation.",
    )
