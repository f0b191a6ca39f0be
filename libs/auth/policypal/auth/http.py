"""FastAPI dependencies that turn a request's credential into a Principal, or answer 401/403.

The app must keep its ``Settings`` in ``app.state.settings``; it may keep an ``Authenticator`` in
``app.state.authenticator`` (API keys need one with Redis); otherwise one for JWTs only is made.
"""

from collections.abc import Awaitable, Callable
from typing import Annotated

from fastapi import Depends, HTTPException, Query, Request, status
from fastapi.security import APIKeyHeader, HTTPAuthorizationCredentials, HTTPBearer

from policypal.auth.authenticator import Authenticator
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


async def header_or_query_principal(
    request: Request,
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)],
    api_key: Annotated[str | None, Depends(_api_key)],
    access_token: Annotated[
        str | None,
        Query(description="The access token, for clients that cannot set headers (browser EventSource)."),
    ] = None,
    token: Annotated[
        str | None, Query(description="Same as access_token (the widget session token).")
    ] = None,
) -> Principal:
    """The caller of the headers, or of ``?access_token=`` / ``?token=`` (EventSource cannot set headers)."""
    return await principal_from_token(
        request,
        (credentials.credentials if credentials else None) or api_key or access_token or token,
        missing="Missing access token: send 'Authorization: Bearer <token>' or ?access_token=.",
    )


#: A route parameter of this type requires a credential in a header.
BearerPrincipal = Annotated[Principal, Depends(header_principal)]
#: A route parameter of this type also accepts the ``access_token`` or ``token`` query parameter.
StreamPrincipal = Annotated[Principal, Depends(header_or_query_principal)]


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


def require_stream_scope(scope: Scope) -> Callable[[Principal], Awaitable[Principal]]:
    """Like ``require_scope``, for routes that also accept the credential as a query parameter."""

    async def scoped_principal(principal: StreamPrincipal) -> Principal:
        forbidden_without(principal, scope)
        return principal

    return scoped_principal
