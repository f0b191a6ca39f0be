"""The event-stream routes and the health probes of the notifier."""

import asyncio
from typing import Annotated, Literal

from fastapi import APIRouter, Depends, Header, HTTPException, Path, Query, Response, status
from pydantic import BaseModel, Field

from notifier.resources import ResourcesDep
from notifier.streaming import StreamPlan, already_ended, thread_events
from notifier.wire import SSE_OPENAPI_CONTENT, EventStreamResponse, event_stream_response
from policypal.auth.http import StreamAccess, require_stream_scope
from policypal.contracts import CHAT_TERMINAL_TYPES, DOCUMENT_TERMINAL_TYPES

router = APIRouter()

# Thread ids become NATS subject tokens: '.', '*' and '>' must never reach a subject.
ThreadId = Annotated[str, Path(pattern=r"^[A-Za-z0-9_-]{1,64}$")]
RequestIdQuery = Annotated[
    str | None,
    Query(
        max_length=100,
        description="Only this request's events, ending after its terminal event (earlier requests' are left out).",
    ),
]
LastEventIdQuery = Annotated[
    int | None, Query(ge=0, description="Resume after this event id (when the header cannot be set).")
]
LastEventIdHeader = Annotated[str | None, Header(alias="last-event-id")]
#: Streams need the scope of the routes that start what they stream.
ChatAccess = Annotated[StreamAccess, Depends(require_stream_scope("chat"))]
IngestAccess = Annotated[StreamAccess, Depends(require_stream_scope("ingest"))]


class ErrorBody(BaseModel):
    """Every error answer: one sentence a person can act on."""

    detail: str


class Health(BaseModel):
    """Liveness or readiness, with the result of each check."""

    status: Literal["ok", "unavailable"]
    checks: dict[str, bool] = Field(default_factory=dict)


class StreamAlreadyEnded(Exception):  # noqa: N818 - a condition, answered with 204
    """The client has seen its request's terminal event: there is nothing more to stream."""


def _resume_point(header: str | None, query: int | None) -> int | None:
    # The header wins: a browser sends it on automatic reconnect, with the original (older) URL.
    if header is None or not header.strip():
        return query
    if not header.strip().isdigit():
        raise HTTPException(
            status.HTTP_400_BAD_REQUEST, "Last-Event-ID must be an event id from this stream."
        )
    return int(header.strip())


async def _plan(
    resources: ResourcesDep,
    tenant_id: str,
    thread_id: str,
    terminal_types: frozenset[str],
    request_id: str | None,
    last_event_id: int | None,
    last_event_header: str | None,
) -> StreamPlan:
    """The plan of an owned thread, or StreamAlreadyEnded (204) when the client saw its request's end."""
    plan = StreamPlan(
        tenant_id=tenant_id,
        thread_id=thread_id,
        last_event_id=_resume_point(last_event_header, last_event_id),
        request_id=request_id,
        terminal_types=terminal_types,
    )
    if await already_ended(resources.js, plan):
        raise StreamAlreadyEnded
    return plan


async def conversation_plan(
    conversation_id: ThreadId,
    access: ChatAccess,
    resources: ResourcesDep,
    request_id: RequestIdQuery = None,
    last_event_id: LastEventIdQuery = None,
    last_event_header: LastEventIdHeader = None,
) -> StreamPlan:
    """What to stream for a conversation the caller owns (404 otherwise).

    A widget visitor's conversation is stored on its first message; before that, the visitor may
    already follow the one conversation its session is bound to.
    """
    principal = access.principal
    store = resources.conversations
    record = await store.get(principal.tenant_id, principal.user_id, conversation_id)
    reserved = (
        record is None
        and principal.conversation_id == conversation_id
        and not await store.exists(principal.tenant_id, conversation_id)
    )
    if (record is None and not reserved) or not access.permits("conversation", conversation_id):
        raise HTTPException(status.HTTP_404_NOT_FOUND, "No such conversation.")
    return await _plan(
        resources,
        principal.tenant_id,
        conversation_id,
        CHAT_TERMINAL_TYPES,
        request_id,
        last_event_id,
        last_event_header,
    )


async def document_plan(
    document_id: ThreadId,
    access: IngestAccess,
    resources: ResourcesDep,
    request_id: RequestIdQuery = None,
    last_event_id: LastEventIdQuery = None,
    last_event_header: LastEventIdHeader = None,
) -> StreamPlan:
    """What to stream for a document the caller owns (404 otherwise)."""
    principal = access.principal
    record = await resources.catalog.get(principal.tenant_id, principal.user_id, document_id)
    if record is None or not access.permits("document", document_id):
        raise HTTPException(status.HTTP_404_NOT_FOUND, "No such document.")
    return await _plan(
        resources,
        principal.tenant_id,
        document_id,
        DOCUMENT_TERMINAL_TYPES,
        request_id,
        last_event_id,
        last_event_header,
    )


_STREAM_RESPONSES: dict[int | str, dict[str, object]] = {
    200: {
        "description": "Server-Sent Events, each with its stream sequence as id.",
        "content": SSE_OPENAPI_CONTENT,
    },
    204: {"description": "The request already ended before the given Last-Event-ID; do not reconnect."},
    400: {"model": ErrorBody},
    401: {"model": ErrorBody},
    403: {"model": ErrorBody},
    404: {"model": ErrorBody},
}


@router.get(
    "/v1/conversations/{conversation_id}/events",
    response_class=EventStreamResponse,
    responses=_STREAM_RESPONSES,
    tags=["events"],
)
async def conversation_events(
    plan: Annotated[StreamPlan, Depends(conversation_plan)], resources: ResourcesDep
) -> EventStreamResponse:
    """A conversation's events (status, tokens, interrupt, response, error) as Server-Sent Events."""
    return event_stream_response(thread_events(resources.js, resources.fanout, plan))


@router.get(
    "/v1/documents/{document_id}/events",
    response_class=EventStreamResponse,
    responses=_STREAM_RESPONSES,
    tags=["events"],
)
async def document_events(
    plan: Annotated[StreamPlan, Depends(document_plan)], resources: ResourcesDep
) -> EventStreamResponse:
    """A document's ingestion events (progress, ready, failed) as Server-Sent Events."""
    return event_stream_response(thread_events(resources.js, resources.fanout, plan))


@router.get("/healthz", response_model=Health, tags=["health"])
async def healthz() -> Health:
    """The process is up and serving HTTP."""
    return Health(status="ok")


@router.get("/readyz", response_model=Health, responses={503: {"model": Health}}, tags=["health"])
async def readyz(resources: ResourcesDep, response: Response) -> Health:
    """NATS is connected and Redis answers a ping; 503 otherwise."""
    checks = {"nats": resources.nats.is_connected, "redis": await _redis_ok(resources)}
    ready = all(checks.values())
    if not ready:
        response.status_code = status.HTTP_503_SERVICE_UNAVAILABLE
    return Health(status="ok" if ready else "unavailable", checks=checks)


async def _redis_ok(resources: ResourcesDep) -> bool:
    try:
        async with asyncio.timeout(1.0):
            return bool(await resources.redis.ping())
    except Exception:  # any failure means "not ready"; the probe must answer, not raise
        return False
