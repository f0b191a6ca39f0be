"""FastAPI dependencies that turn a request's credential into a Principal, or answer 401/403.

The app must keep its ``Settings`` in ``app.state.settings``; it may keep an ``Authenticator`` in
``app.state.authenticator`` (API keys need one with Redis); otherwise one for JWTs only is made. An app
that serves event streams keeps an ``EventTicketStore`` in ``app.state.event_tickets`` to accept tickets.
"""

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Annotated

from fastapi import Depends, HTTPException, Query, Request, status
from fastapi.security import APIKeyHeader, HTTPAuthorizationCredentials, HTTPBearer

from policypal.auth.authenticator import Authenticator
from policypal.auth.event_tickets import EventTicket, EventTicketStore, ThreadKind, is_event_ticket
from policypal.auth.tokens import InvalidToken, Principal, Scope

# auto_error=False: a missing credential is answered here, with a sentence and WWW-Authenticate.
_bearer = HTTPBearer(auto_error=False, description="A PolicyPal access token (JWT) or an API key (pp_...).")
_api_key = APIKeyHeader(name="X-API-Key", auto_error=False, description="A PolicyPal API key (pp_...).")

_REASONS = {
    "token expired": "The access token has expired; sign in again.",
    "invalid API key: revoked": "The API key has been revoked.",
}


def unauthorized(detail: str) -> HTTPException:
    """A 401 that tells the client how to authenticate."""
    return HTTPException(status.HTTP_401_UNAUTHORIZED, detail, headers={"WWW-Authenticate": "Bearer"})


def authenticator_of(request: Request) -> Authenticator:
    """The app's authenticator, made once (JWT only) when the app did not set one."""
    state = request.app.state
    if getattr(state, "authenticator", None) is None:
        state.authenticator = Authenticator(state.settings)
    authenticator: Authenticator = state.authenticator
    return authenticator


async def principal_from_token(request: Request, token: str | None, *, missing: str) -> Principal:
    """Verify ``token`` (a JWT or an API key); raise a 401 with the reason otherwise."""
    if not token:
        raise unauthorized(missing)
    try:
        return await authenticator_of(request).authenticate(token)
    except InvalidToken as exc:
        reason = str(exc)
        if reason in _REASONS:
            raise unauthorized(_REASONS[reason]) from exc
        if reason.startswith("invalid API key"):
            raise unauthorized("The API key is not valid.") from exc
        raise unauthorized("The access token is not valid; sign in again.") from exc


async def header_principal(
    request: Request,
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)],
    api_key: Annotated[str | None, Depends(_api_key)],
) -> Principal:
    """The caller of the ``Authorization: Bearer`` token or API key, or of the ``X-API-Key`` header."""
    return await principal_from_token(
        request,
        credentials.credentials if credentials else api_key,
        missing="Missing bearer token: send 'Authorization: Bearer <token>' or 'X-API-Key: <key>'.",
    )


#: Query parameters that would carry a credential in a URL; refused rather than ignored, so a client
#: still sending one learns why its stream does not open.
URL_CREDENTIAL_PARAMETERS = ("token", "access_token", "api_key")


@dataclass(frozen=True)
class StreamAccess:
    """Who opens an event stream and, when they came with a ticket, the one thread it opens."""

    principal: Principal
    ticket: EventTicket | None = None

    def permits(self, kind: ThreadKind, thread_id: str) -> bool:
        """True unless the ticket is for another thread, or the credential is bound to another conversation."""
        if self.ticket is not None and not self.ticket.opens(kind, thread_id):
            return False
        return kind != "conversation" or not self.principal.bound_elsewhere(thread_id)


def event_tickets_of(request: Request) -> EventTicketStore | None:
    """The app's ticket store (``app.state.event_tickets``), or None when the app redeems no tickets."""
    store: EventTicketStore | None = getattr(request.app.state, "event_tickets", None)
    return store


async def stream_access(
    request: Request,
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)],
    api_key: Annotated[str | None, Depends(_api_key)],
    ticket: Annotated[
        str | None,
        Query(
            max_length=200,
            description="A single-use event ticket (POST .../event-tickets), for browsers' EventSource.",
        ),
    ] = None,
) -> StreamAccess:
    """The caller of the headers, or of ``?ticket=`` (EventSource cannot set headers); never a token in the URL."""
    if any(name in request.query_params for name in URL_CREDENTIAL_PARAMETERS):
        raise unauthorized(
            "Credentials are not accepted in URLs, where logs keep them: open the stream with an event "
            "ticket (POST /v1/conversations/{id}/event-tickets) or send 'Authorization: Bearer <token>'."
        )
    header = credentials.credentials if credentials else api_key
    if header or not ticket:
        return StreamAccess(
            await principal_from_token(
                request,
                header,
                missing="Missing credential: send 'Authorization: Bearer <token>' or ?ticket=<event ticket>.",
            )
        )
    store = event_tickets_of(request)
    grant = await store.redeem(ticket) if store is not None and is_event_ticket(ticket) else None
    if grant is None:
        raise unauthorized(
            "The event ticket is not valid: a ticket opens one stream, once, within a minute; get a new one."
        )
    return StreamAccess(grant.principal, grant)


#: A route parameter of this type requires a credential in a header.
BearerPrincipal = Annotated[Principal, Depends(header_principal)]
#: A route parameter of this type also accepts an event ticket as the ``ticket`` query parameter.
StreamCaller = Annotated[StreamAccess, Depends(stream_access)]


def forbidden_without(principal: Principal, scope: Scope) -> None:
    """Raise a 403 with a sentence when ``principal`` lacks ``scope``."""
    if scope not in principal.scopes:
        raise HTTPException(
            status.HTTP_403_FORBIDDEN, f"This credential lacks the '{scope}' scope this request needs."
        )


def require_scope(scope: Scope) -> Callable[[Principal], Awaitable[Principal]]:
    """A dependency (for a route or a whole router) that answers 403 unless the caller has ``scope``."""

    async def scoped_principal(principal: BearerPrincipal) -> Principal:
        forbidden_without(principal, scope)
        return principal

    return scoped_principal


#: The caller of an administration route (tenants, API keys, widget publications, escalations).
AdminPrincipal = Annotated[Principal, Depends(require_scope("admin"))]


def require_stream_scope(scope: Scope) -> Callable[[StreamAccess], Awaitable[StreamAccess]]:
    """Like ``require_scope``, for event streams (credential in a header, or an event ticket)."""

    async def scoped_access(access: StreamCaller) -> StreamAccess:
        forbidden_without(access.principal, scope)
        return access

    return scoped_access
