"""The widget handshake: an allowed Origin gets a short-lived session bound to one conversation.

Anyone can ask for a session, so it is cheap and bounded (docs/adr/0009-widget-budget-and-event-tickets.md):
sessions spend their own budget (per tenant and per client address), never the tenant's users'; a
refused request spends nothing; and a session stores nothing. Its conversation id is only reserved
in the visitor's token, and the conversation is stored when the visitor sends a first message, so a
flood of sessions leaves no conversations behind, only tokens that expire on their own.
"""

import uuid
from datetime import UTC, datetime, timedelta
from typing import Annotated

from fastapi import APIRouter, Header, HTTPException, Request, Response, status
from pydantic import BaseModel, Field

from gateway.models import ErrorBody
from gateway.rate_limits import Counter, address_key, count_if_room, too_many
from gateway.resources import Resources, ResourcesDep
from policypal.auth import MalformedOrigin, Principal, TenantStore, issue_token, origin_allowed, parse_origin
from policypal.auth.tenants import WidgetSettings
from policypal.contracts.envelope import SafeId, new_event_id
from policypal.state import ConversationRecord

router = APIRouter(prefix="/v1/widget", tags=["widget"])

_FORBIDDEN = "This page's origin is not allowed to open a chat for this organisation."
WIDGET_CONVERSATION_TITLE = "Website chat"


class WidgetSessionCreate(BaseModel):
    """The widget names the tenant it is embedded for."""

    tenant_id: SafeId = Field(examples=["acme"])


class WidgetAppearance(BaseModel):
    """How the widget looks and greets, from the tenant's widget settings."""

    title: str = WidgetSettings().title
    greeting: str = WidgetSettings().greeting
    accent_colour: str = WidgetSettings().accent_colour
    text_colour: str = WidgetSettings().text_colour


class WidgetSession(BaseModel):
    """A visitor's session: a customer token for one conversation, stored on its first message."""

    token: str = Field(
        description="Send as 'Authorization: Bearer <token>'; for the event stream, trade it for a ticket "
        "(POST /v1/conversations/{id}/event-tickets)."
    )
    conversation_id: str
    expires_at: datetime
    events_url: str
    event_tickets_url: str = Field(description="Where the widget gets a ticket to open events_url.")
    messages_url: str = Field(default="", description="Where the widget posts the visitor's messages.")
    appearance: WidgetAppearance = Field(
        default_factory=WidgetAppearance, description="The tenant's title, greeting and colours."
    )


def _cors(response: Response, origin: str) -> None:
    # Only ever the origin that was just checked, so the browser lets the widget read the answer.
    response.headers["Access-Control-Allow-Origin"] = origin
    response.headers["Vary"] = "Origin"


def reserved_conversation(principal: Principal, conversation_id: str) -> ConversationRecord | None:
    """The not-yet-stored conversation a widget token is bound to, when it is ``conversation_id``."""
    if principal.role != "customer" or principal.conversation_id != conversation_id:
        return None
    return ConversationRecord(
        conversation_id=conversation_id,
        tenant_id=principal.tenant_id,
        user_id=principal.user_id,
        title=WIDGET_CONVERSATION_TITLE,
        widget=True,
    )


def _checked_origin(origin: str | None) -> str:
    # "null" is how a browser names an opaque origin (a sandboxed frame, a file): valid, never allowed.
    if origin is None or origin.strip() == "null":
        raise HTTPException(status.HTTP_403_FORBIDDEN, _FORBIDDEN)
    try:
        parse_origin(origin)
    except MalformedOrigin as exc:
        raise HTTPException(
            status.HTTP_400_BAD_REQUEST,
            "The Origin header is not a web origin (http(s)://host[:port], the port a number up to 65535).",
        ) from exc
    return origin


async def _spend_session_budget(resources: Resources, request: Request, tenant_id: str) -> None:
    settings = resources.settings
    limits = (await TenantStore(resources.redis).get(tenant_id)).limits
    address = address_key(request.client.host if request.client else None)
    per_tenant = limits.widget_sessions_per_window or settings.widget_sessions_per_tenant
    per_address = limits.widget_sessions_per_address or settings.widget_sessions_per_address
    counters = [
        Counter("tenant", f"pp:{tenant_id}:rl:widget_sessions", per_tenant),
        Counter("address", f"pp:{tenant_id}:rl:widget_sessions:addr:{address}", per_address),
    ]
    decision = await count_if_room(
        resources.redis, counters, window_seconds=settings.rate_limit_window_seconds
    )
    if not decision.allowed:
        who = "This site's visitors have" if decision.limit == "tenant" else "This address has"
        raise too_many(f"{who} opened too many chat sessions", decision)


@router.post(
    "/sessions",
    status_code=status.HTTP_201_CREATED,
    response_model=WidgetSession,
    responses={400: {"model": ErrorBody}, 403: {"model": ErrorBody}, 429: {"model": ErrorBody}},
)
async def create_widget_session(
    body: WidgetSessionCreate,
    request: Request,
    resources: ResourcesDep,
    response: Response,
    origin: Annotated[
        str | None, Header(description="Set by the browser; must be an allowed domain.")
    ] = None,
) -> WidgetSession:
    """Open a widget session when the browser's Origin is one of the tenant's allowed domains (403 otherwise)."""
    settings = resources.settings
    checked = _checked_origin(origin)
    profile = await TenantStore(resources.redis).get(body.tenant_id)
    # An unknown tenant looks like a forbidden origin: the answer reveals nothing about tenants.
    if not origin_allowed(checked, profile.allowed_domains):
        raise HTTPException(status.HTTP_403_FORBIDDEN, _FORBIDDEN)
    await _spend_session_budget(resources, request, body.tenant_id)
    visitor = f"anon_{uuid.uuid4().hex}"
    conversation_id = uuid.UUID(new_event_id()).hex
    ttl = settings.widget_session_ttl_seconds
    token = issue_token(
        settings, body.tenant_id, visitor, ttl, role="customer", conversation_id=conversation_id
    )
    _cors(response, checked)
    conversation_path = f"/v1/conversations/{conversation_id}"
    return WidgetSession(
        token=token,
        conversation_id=conversation_id,
        expires_at=datetime.now(UTC) + timedelta(seconds=ttl),
        events_url=f"{settings.events_base_url}{conversation_path}/events",
        event_tickets_url=f"{settings.api_base_url}{conversation_path}/event-tickets",
        messages_url=f"{settings.api_base_url}{conversation_path}/messages",
        appearance=WidgetAppearance.model_validate(profile.widget.model_dump()),
    )
