"""The widget handshake (seed 003): an allowed Origin gets a short-lived session bound to one conversation."""

import uuid
from datetime import UTC, datetime, timedelta
from typing import Annotated

from fastapi import APIRouter, Header, HTTPException, Response, status
from pydantic import BaseModel, Field

from gateway.models import ErrorBody
from gateway.rate_limits import check_rate
from gateway.resources import ResourcesDep
from policypal.auth import TenantStore, issue_token, origin_allowed
from policypal.contracts.envelope import SafeId, new_event_id
from policypal.state import ConversationRecord

router = APIRouter(prefix="/v1/widget", tags=["widget"])

_FORBIDDEN = "This page's origin is not allowed to open a chat for this organisation."


class WidgetSessionCreate(BaseModel):
    """The widget names the tenant it is embedded for."""

    tenant_id: SafeId = Field(examples=["acme"])


class WidgetSession(BaseModel):
    """A visitor's session: a customer token for one new conversation."""

    token: str = Field(description="Send as 'Authorization: Bearer <token>' or ?token= on the events URL.")
    conversation_id: str
    expires_at: datetime
    events_url: str


def _cors(response: Response, origin: str) -> None:
    # Only ever the origin that was just checked, so the browser lets the widget read the answer.
    response.headers["Access-Control-Allow-Origin"] = origin
    response.headers["Vary"] = "Origin"


@router.post(
    "/sessions",
    status_code=status.HTTP_201_CREATED,
    response_model=WidgetSession,
    responses={403: {"model": ErrorBody}, 429: {"model": ErrorBody}},
)
async def create_widget_session(
    body: WidgetSessionCreate,
    resources: ResourcesDep,
    response: Response,
    origin: Annotated[
        str | None, Header(description="Set by the browser; must be an allowed domain.")
    ] = None,
) -> WidgetSession:
    """Open a widget session when the browser's Origin is one of the tenant's allowed domains (403 otherwise)."""
    settings = resources.settings
    profile = await TenantStore(resources.redis).get(body.tenant_id)
    # An unknown tenant looks like a forbidden origin: the answer reveals nothing about tenants.
    if origin is None or not origin_allowed(origin, profile.allowed_domains):
        raise HTTPException(status.HTTP_403_FORBIDDEN, _FORBIDDEN)
    decision = await check_rate(
        resources.redis,
        body.tenant_id,
        "widget-sessions",
        tenant_limit=profile.limits.requests_per_window or settings.rate_limit_tenant_requests,
        caller_limit=profile.limits.principal_requests_per_window or settings.rate_limit_principal_requests,
        window_seconds=settings.rate_limit_window_seconds,
    )
    if not decision.allowed:
        raise HTTPException(
            status.HTTP_429_TOO_MANY_REQUESTS,
            f"Too many chat sessions were opened; retry in {decision.retry_after_seconds} seconds.",
            headers={"Retry-After": str(decision.retry_after_seconds)},
        )
    visitor = f"anon_{uuid.uuid4().hex}"
    conversation = ConversationRecord(
        conversation_id=uuid.UUID(new_event_id()).hex,
        tenant_id=body.tenant_id,
        user_id=visitor,
        title="Website chat",
    )
    await resources.conversations.create(conversation)
    ttl = settings.widget_session_ttl_seconds
    token = issue_token(
        settings,
        body.tenant_id,
        visitor,
        ttl,
        role="customer",
        conversation_id=conversation.conversation_id,
    )
    _cors(response, origin)
    return WidgetSession(
        token=token,
        conversation_id=conversation.conversation_id,
        expires_at=datetime.now(UTC) + timedelta(seconds=ttl),
        events_url=f"{settings.events_base_url}/v1/conversations/{conversation.conversation_id}/events",
    )
