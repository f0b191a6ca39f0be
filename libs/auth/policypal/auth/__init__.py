"""Credentials that carry the tenant and the caller: JWTs (HS256 or RS256 via JWKS) and API keys."""

from policypal.auth.api_keys import ApiKeyRecord, ApiKeyStore
from policypal.auth.authenticator import Authenticator
from policypal.auth.tenants import TenantProfile, TenantSettings, TenantStore, origin_allowed
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
    "InvalidToken",
    "Principal",
    "Role",
    "Scope",
    "TenantProfile",
    "TenantSettings",
    "TenantStore",
    "issue_token",
    "origin_allowed",
    "verify_token",
]
