"""Issuing and verifying PolicyPal access tokens.

Claims: ``sub`` (user id), ``tid`` (tenant id), ``iss``, ``aud``, ``iat``, ``exp``; optionally ``role``
(user, admin, reviewer, service, customer; default user), ``scope`` (space-separated, for service tokens of an
external identity provider) and ``cid`` (the one conversation of a widget session).
Tokens are HS256 with the configured secret, or RS256 signed by a key of the configured JWKS URL.
"""

import time
from typing import Any, Literal, Self

import jwt
from pydantic import BaseModel, ConfigDict, ValidationError, model_validator

from policypal.config import Settings
from policypal.contracts.envelope import SafeId

_HMAC_ALGORITHM = "HS256"
_JWKS_ALGORITHM = "RS256"

#: Who a caller is: a person of the tenant, its administrator, a reviewer answering the widget's
#: customers, another system, or a widget visitor.
Role = Literal["user", "admin", "reviewer", "service", "customer"]
#: What a credential may do: upload documents, chat, request audits, administer the tenant, answer
#: the widget's customers (the inbox), list the documents of the tenant's users (another system that
#: audits for them).
Scope = Literal["ingest", "chat", "audit", "admin", "review", "documents"]
ALL_SCOPES: frozenset[Scope] = frozenset({"ingest", "chat", "audit", "admin", "review", "documents"})

#: Scopes a role carries when the credential does not list its own (API keys and service tokens do).
ROLE_SCOPES: dict[Role, frozenset[Scope]] = {
    "user": frozenset({"ingest", "chat", "audit"}),
    "admin": ALL_SCOPES,
    "reviewer": frozenset({"review"}),
    "customer": frozenset({"chat"}),
    "service": frozenset(),
}


class InvalidToken(Exception):  # noqa: N818 - the name reads as the verdict
    """The token is missing, malformed, expired or not ours; the message says which."""


class Principal(BaseModel):
    """Who is calling: the tenant and the user every read, write and search is scoped by."""

    model_config = ConfigDict(frozen=True)

    tenant_id: SafeId
    user_id: SafeId
    role: Role = "user"
    scopes: frozenset[Scope] = frozenset()
    #: A widget session is bound to one conversation (docs/product.md, Widget sessions).
    conversation_id: SafeId | None = None
    #: Set when the caller authenticated with an API key.
    key_id: SafeId | None = None

    def bound_elsewhere(self, conversation_id: str) -> bool:
        """True when this credential is bound to one conversation and it is not ``conversation_id``."""
        return self.conversation_id is not None and self.conversation_id != conversation_id

    @model_validator(mode="after")
    def _default_scopes(self) -> Self:
        if not self.scopes and self.role != "service":
            object.__setattr__(self, "scopes", ROLE_SCOPES[self.role])
        return self


def issue_token(
    settings: Settings,
    tenant_id: str,
    user_id: str,
    ttl_seconds: int | None = None,
    *,
    role: Role = "user",
    conversation_id: str | None = None,
) -> str:
    """A signed (HS256) token for ``user_id`` of ``tenant_id`` with ``role``."""
    principal = Principal(tenant_id=tenant_id, user_id=user_id, role=role, conversation_id=conversation_id)
    now = int(time.time())
    claims: dict[str, Any] = {
        "sub": principal.user_id,
        "tid": principal.tenant_id,
        "role": principal.role,
        "iss": settings.jwt_issuer,
        "aud": settings.jwt_audience,
        "iat": now,
        "exp": now + (ttl_seconds if ttl_seconds is not None else settings.token_ttl_seconds),
    }
    if principal.conversation_id is not None:
        claims["cid"] = principal.conversation_id
    return jwt.encode(claims, settings.jwt_secret.get_secret_value(), algorithm=_HMAC_ALGORITHM)


def token_algorithm(token: str) -> str:
    """The ``alg`` of a token's header, unverified (to pick the key); raises ``InvalidToken``."""
    try:
        return str(jwt.get_unverified_header(token).get("alg", ""))
    except jwt.PyJWTError as exc:
        raise InvalidToken(f"invalid token: {exc}") from exc


def verify_token(settings: Settings, token: str, *, jwks: jwt.PyJWKClient | None = None) -> Principal:
    """The principal of a valid token; raises ``InvalidToken`` with a reason otherwise.

    HS256 tokens are checked with the secret; RS256 ones with the JWKS key their ``kid`` names, only
    when ``jwks`` is given (fetching it may block: call from a worker thread).
    """
    algorithm = token_algorithm(token)
    try:
        if algorithm == _HMAC_ALGORITHM:
            key: Any = settings.jwt_secret.get_secret_value()
        elif algorithm == _JWKS_ALGORITHM and jwks is not None:
            key = jwks.get_signing_key_from_jwt(token).key
        else:
            raise InvalidToken(f"invalid token: algorithm {algorithm!r} is not accepted")
        claims = jwt.decode(
            token,
            key,
            algorithms=[algorithm],
            audience=settings.jwt_audience,
            issuer=settings.jwt_issuer,
            options={"require": ["exp", "sub", "tid"]},
        )
    except jwt.ExpiredSignatureError as exc:
        raise InvalidToken("token expired") from exc
    except jwt.PyJWTError as exc:
        raise InvalidToken(f"invalid token: {exc}") from exc
    return _principal_of(claims)


def _principal_of(claims: dict[str, Any]) -> Principal:
    # Only service tokens list their own scopes; a person's scopes follow from the role.
    scope = claims.get("scope", "") if claims.get("role") == "service" else ""
    try:
        return Principal(
            tenant_id=claims["tid"],
            user_id=claims["sub"],
            role=claims.get("role", "user"),
            scopes=frozenset(scope.split()) if isinstance(scope, str) else frozenset(),
            conversation_id=claims.get("cid"),
        )
    except ValidationError as exc:
        raise InvalidToken("token carries an invalid tenant, user, role or scope") from exc
