"""The reviewers' inbox (docs/product.md, Website widget): customer conversations handed to a person.

A reviewer (role ``reviewer``, or an administrator: scope ``review``) lists the tenant's tickets,
reads a ticket's conversation so far and the passages retrieval found, and replies: the reply is
stored in the customer's conversation and published at once, so the widget shows it live. Closing a
ticket without an answer tells the customer so. Either way the ticket is resolved, and the assistant
answers the customer's next question again. ``GET /v1/inbox/stream`` sends each ticket as it opens or
is answered, so an open inbox needs no polling (the console still polls while the stream is down).
"""

import asyncio
from collections.abc import AsyncIterator
from datetime import datetime
from typing import Annotated, Literal

from fastapi import APIRouter, Depends, HTTPException, Path, Query, status
from fastapi.responses import StreamingResponse
from pydantic import BaseModel

from gateway.escalations import EscalationAnswer, EscalationView, answer_ticket
from gateway.inbox_feed import TicketFeed, tenant_ticket_feed
from gateway.models import ErrorBody
from gateway.resources import ResourcesDep
from policypal.auth import Principal
from policypal.auth.http import require_scope
from policypal.contracts import Citation, EscalationStatus
from policypal.state import EscalationStore, EscalationTicket

router = APIRouter(prefix="/v1/inbox", tags=["inbox"])

ReviewerPrincipal = Annotated[Principal, Depends(require_scope("review"))]
TicketId = Annotated[str, Path(pattern=r"^[A-Za-z0-9_-]{1,64}$")]
#: Told to the customer when a reviewer closes the ticket without an answer of their own.
CLOSING_SENTENCE = (
    "Our team has closed this question. If you still need help, ask again here and I will do my best."
)
_ERRORS: dict[int | str, dict[str, object]] = {
    401: {"model": ErrorBody},
    403: {"model": ErrorBody},
    429: {"model": ErrorBody},
}
_TICKET_ERRORS: dict[int | str, dict[str, object]] = {
    **_ERRORS,
    404: {"model": ErrorBody},
    409: {"model": ErrorBody},
    503: {"model": ErrorBody},
}


class InboxTicket(EscalationView):
    """A ticket with the passages retrieval found for its question."""

    sources: list[Citation]


class InboxList(BaseModel):
    """The tenant's tickets, oldest first."""

    tickets: list[InboxTicket]


class ConversationLine(BaseModel):
    """One message of the customer's conversation as the reviewer reads it."""

    role: Literal["user", "assistant", "system"]
    content: str
    created_at: datetime


class InboxTicketDetail(BaseModel):
    """A ticket, its conversation so far and the retrieved sources."""

    ticket: InboxTicket
    conversation: list[ConversationLine]


def _ticket(ticket: EscalationTicket) -> InboxTicket:
    return InboxTicket.model_validate({**ticket.model_dump(), "sources": ticket.sources or []})


@router.get("/tickets", response_model=InboxList, responses=_ERRORS)
async def list_tickets(
    principal: ReviewerPrincipal,
    resources: ResourcesDep,
    status_filter: Annotated[
        EscalationStatus | None, Query(alias="status", description="Only tickets with this status.")
    ] = "pending_human",
) -> InboxList:
    """The tenant's tickets (by default those waiting for a person), oldest first."""
    tickets = await EscalationStore(resources.redis).list(principal.tenant_id, status_filter, limit=200)
    return InboxList(tickets=[_ticket(t) for t in tickets])


class TicketStreamResponse(StreamingResponse):
    """A ``text/event-stream`` response (the route's ``response_class``, for OpenAPI)."""

    media_type = "text/event-stream"


#: Seconds the inbox stream may stay silent before a keep-alive comment, so proxies keep it open.
PING_SECONDS = 15.0
_STREAM_RESPONSES: dict[int | str, dict[str, object]] = {
    **_ERRORS,
    200: {
        "description": "Server-Sent Events: `ready` once listening, then `ticket` (an InboxTicket as JSON).",
        "content": {"text/event-stream": {"schema": {"type": "string"}}},
    },
}


def _frame(event: str, data: str) -> bytes:
    return f"event: {event}\ndata: {data}\n\n".encode()


async def _ticket_frames(feed: TicketFeed, store: EscalationStore, tenant_id: str) -> AsyncIterator[bytes]:
    yield _frame("ready", "{}")
    while True:
        try:
            escalation_id = await asyncio.wait_for(feed.next_change(), PING_SECONDS)
        except TimeoutError:
            yield b": ping\n\n"
            continue
        if escalation_id is None:
            return
        ticket = await store.get(tenant_id, escalation_id)
        if ticket is not None:
            yield _frame("ticket", _ticket(ticket).model_dump_json())


@router.get("/stream", response_class=TicketStreamResponse, responses=_STREAM_RESPONSES)
async def ticket_stream(principal: ReviewerPrincipal, resources: ResourcesDep) -> TicketStreamResponse:
    """Each of the tenant's tickets as it opens or is answered, as Server-Sent Events. The stream ends
    when its reader falls far behind: reload the list and open it again. When the reader goes, its
    consumers are removed."""
    store = EscalationStore(resources.redis)
    js = resources.broker.connection.jetstream()

    async def frames() -> AsyncIterator[bytes]:
        async with tenant_ticket_feed(js, principal.tenant_id) as feed:
            async for frame in _ticket_frames(feed, store, principal.tenant_id):
                yield frame

    return TicketStreamResponse(frames(), headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})


@router.get(
    "/tickets/{ticket_id}", response_model=InboxTicketDetail, responses={**_ERRORS, 404: {"model": ErrorBody}}
)
async def get_ticket(
    ticket_id: TicketId, principal: ReviewerPrincipal, resources: ResourcesDep
) -> InboxTicketDetail:
    """One ticket with the customer's conversation so far."""
    ticket = await EscalationStore(resources.redis).get(principal.tenant_id, ticket_id)
    if ticket is None:
        raise HTTPException(status.HTTP_404_NOT_FOUND, "No such ticket.")
    messages = await resources.conversations.messages(principal.tenant_id, ticket.thread_id)
    return InboxTicketDetail(
        ticket=_ticket(ticket),
        conversation=[
            ConversationLine(role=m.role, content=m.content, created_at=m.created_at) for m in messages
        ],
    )


@router.post("/tickets/{ticket_id}/reply", response_model=InboxTicket, responses=_TICKET_ERRORS)
async def reply_to_ticket(
    ticket_id: TicketId, body: EscalationAnswer, principal: ReviewerPrincipal, resources: ResourcesDep
) -> InboxTicket:
    """Answer the customer: the reply appears in their widget at once and resolves the ticket."""
    return _ticket(await answer_ticket(resources, principal, ticket_id, body.answer))


@router.post("/tickets/{ticket_id}/close", response_model=InboxTicket, responses=_TICKET_ERRORS)
async def close_ticket(
    ticket_id: TicketId, principal: ReviewerPrincipal, resources: ResourcesDep
) -> InboxTicket:
    """Resolve the ticket without an answer of one's own; the customer is told it was closed."""
    return _ticket(await answer_ticket(resources, principal, ticket_id, CLOSING_SENTENCE))
