"""Event tickets: what a browser puts in an EventSource URL instead of its access token.

The caller proves who they are with a header here; the ticket it gets opens that one thread's event
stream on the notifier, once, within ``event_ticket_ttl_seconds`` (``policypal.auth.event_tickets``).
"""

from datetime import datetime
from urllib.parse import quote

from fastapi import APIRouter, Depends, HTTPException, status
from pydantic import BaseModel, Field

from gateway.conversations import conversation_events_url, reachable_conversation
from gateway.documents import document_events_url
from gateway.models import ErrorBody
from gateway.resources import Resources, ResourcesDep
from policypal.auth import EventTicketStore, IssuedTicket, Principal, ThreadKind
from policypal.auth.http import BearerPrincipal, require_scope

router = APIRouter(tags=["events"])

_RESPONSES: dict[int | str, dict[str, object]] = {
    401: {"model": ErrorBody},
    403: {"model": ErrorBody},
    404: {"model": ErrorBody},
}


class EventTicketView(BaseModel):
    """A ticket and the stream URL that carries it."""

    ticket: str = Field(description="Single use: opens events_url once; reconnecting needs a new ticket.")
    expires_at: datetime
    events_url: str = Field(description="The event stream with the ticket; add request_id or last_event_id.")


def _view(issued: IssuedTicket, events_url: str) -> EventTicketView:
    return EventTicketView(
        ticket=issued.ticket,
        expires_at=issued.expires_at,
        events_url=f"{events_url}?ticket={quote(issued.ticket, safe='')}",
    )


async def issue_ticket(
    resources: Resources, principal: Principal, kind: ThreadKind, thread_id: str
) -> IssuedTicket:
    """A ticket for ``principal`` to open the events of ``thread_id``."""
    store = EventTicketStore(resources.redis, resources.settings.event_ticket_ttl_seconds)
    return await store.issue(principal, kind, thread_id)


@router.post(
    "/v1/conversations/{conversation_id}/event-tickets",
    status_code=status.HTTP_201_CREATED,
    response_model=EventTicketView,
    responses=_RESPONSES,
    dependencies=[Depends(require_scope("chat"))],
)
async def conversation_event_ticket(
    conversation_id: str, principal: BearerPrincipal, resources: ResourcesDep
) -> EventTicketView:
    """A single-use ticket that opens this conversation's event stream (404 unless it is the caller's)."""
    record = await reachable_conversation(resources, principal, conversation_id)
    issued = await issue_ticket(resources, principal, "conversation", record.conversation_id)
    return _view(issued, conversation_events_url(resources, record.conversation_id))


@router.post(
    "/v1/documents/{document_id}/event-tickets",
    status_code=status.HTTP_201_CREATED,
    response_model=EventTicketView,
    responses=_RESPONSES,
    dependencies=[Depends(require_scope("ingest"))],
)
async def document_event_ticket(
    document_id: str, principal: BearerPrincipal, resources: ResourcesDep
) -> EventTicketView:
    """A single-use ticket that opens this document's ingestion event stream (404 unless it is the caller's)."""
    record = await resources.catalog.get(principal.tenant_id, principal.user_id, document_id)
    if record is None:
        raise HTTPException(status.HTTP_404_NOT_FOUND, "No such document.")
    issued = await issue_ticket(resources, principal, "document", document_id)
    return _view(issued, document_events_url(resources, document_id))
