"""Credentials that carry the tenant and the caller: JWTs (HS256 or RS256 via JWKS) and API keys."""

from policypal.auth.api_keys import ApiKeyRecord, ApiKeyStore
from policypal.auth.authenticator import Authenticator
from policypal.auth.event_tickets import EventTicket, EventTicketStore, IssuedTicket, ThreadKind
from policypal.auth.tenants import (
    MalformedOrigin,
    TenantProfile,
    TenantSettings,
    TenantStore,
    origin_allowed,
    parse_origin,
)
from policypal.auth.tokens import (
    ALL_SCOPES,
    InvalidToken,
    Principal,
    Role,
    Scope,
    issue_token,
    verify_token,
)

__all__ = [
    "ALL_SCOPES",
    "ApiKeyRecord",
    "ApiKeyStore",
    "Authenticator",
    "EventTicket",
    "EventTicketStore",
    "InvalidToken",
    "IssuedTicket",
    "MalformedOrigin",
    "Principal",
    "Role",
    "Scope",
    "TenantProfile",
    "TenantSettings",
    "TenantStore",
    "ThreadKind",
    "issue_token",
    "origin_allowed",
    "parse_origin",
    "verify_token",
]
