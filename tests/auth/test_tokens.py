"""Tokens carry tenant and user; anything else is refused with a reason."""

import jwt
import pytest

from policypal.auth import InvalidToken, issue_token, verify_token
from policypal.config import Settings

SETTINGS = Settings(_env_file=None, jwt_secret="k" * 40)


def test_round_trip() -> None:
    principal = verify_token(SETTINGS, issue_token(SETTINGS, "acme", "alice"))
    assert (principal.tenant_id, principal.user_id) == ("acme", "alice")


def test_expired_token_is_refused() -> None:
    with pytest.raises(InvalidToken, match="expired"):
        verify_token(SETTINGS, issue_token(SETTINGS, "acme", "alice", ttl_seconds=-1))


def test_token_signed_with_another_secret_is_refused() -> None:
    other = Settings(_env_file=None, jwt_secret="o" * 40)
    with pytest.raises(InvalidToken):
        verify_token(SETTINGS, issue_token(other, "acme", "alice"))


@pytest.mark.parametrize("token", ["", "garbage", "a.b.c"])
def test_malformed_token_is_refused(token: str) -> None:
    with pytest.raises(InvalidToken):
        verify_token(SETTINGS, token)


def test_token_without_tenant_or_with_unsafe_tenant_is_refused() -> None:
    secret = SETTINGS.jwt_secret.get_secret_value()
    base = {"sub": "alice", "iss": "policypal", "aud": "policypal", "exp": 2_000_000_000}
    with pytest.raises(InvalidToken):
        verify_token(SETTINGS, jwt.encode(base, secret, algorithm="HS256"))
    with pytest.raises(InvalidToken, match="tenant"):
        verify_token(SETTINGS, jwt.encode(base | {"tid": "acme.*"}, secret, algorithm="HS256"))


def test_alg_none_is_refused() -> None:
    claims = {"sub": "alice", "tid": "acme", "iss": "policypal", "aud": "policypal", "exp": 2_000_000_000}
    with pytest.raises(InvalidToken):
        verify_token(SETTINGS, jwt.encode(claims, None, algorithm="none"))
