"""RS256 tokens of an external identity provider, verified with keys fetched from a JWKS URL over HTTP."""

import json
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import jwt
import pytest
from cryptography.hazmat.primitives.asymmetric import rsa
from jwt.algorithms import RSAAlgorithm

from policypal.auth import Authenticator, InvalidToken
from policypal.config import Settings


class JwksServer:
    """A JWKS endpoint on loopback that counts how often it is fetched."""

    def __init__(self, keys: list[dict[str, Any]]) -> None:
        self.keys = keys
        self.fetches = 0
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                outer.fetches += 1
                body = json.dumps({"keys": outer.keys}).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args: object) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/.well-known/jwks.json"


def _key(kid: str) -> tuple[rsa.RSAPrivateKey, dict[str, Any]]:
    private = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    jwk: dict[str, Any] = json.loads(RSAAlgorithm.to_jwk(private.public_key()))
    return private, {**jwk, "kid": kid, "use": "sig", "alg": "RS256"}


@pytest.fixture(scope="module")
def signing_key() -> tuple[rsa.RSAPrivateKey, dict[str, Any]]:
    return _key("k1")


@pytest.fixture
def jwks(signing_key: tuple[rsa.RSAPrivateKey, dict[str, Any]]) -> Iterator[JwksServer]:
    server = JwksServer([signing_key[1]])
    thread = threading.Thread(target=server.server.serve_forever, daemon=True)
    thread.start()
    yield server
    server.server.shutdown()
    server.server.server_close()


def _rs256(private: rsa.RSAPrivateKey, kid: str, **claims: Any) -> str:
    now = int(time.time())
    base = {
        "iss": "policypal",
        "aud": "policypal",
        "iat": now,
        "exp": now + 60,
        "sub": "alice",
        "tid": "acme",
    }
    return jwt.encode({**base, **claims}, private, algorithm="RS256", headers={"kid": kid})


async def test_rs256_token_is_verified_with_the_jwks_and_keys_are_cached(
    jwks: JwksServer, signing_key: tuple[rsa.RSAPrivateKey, dict[str, Any]]
) -> None:
    authenticator = Authenticator(Settings(environment="test", jwt_jwks_url=jwks.url))
    for _ in range(3):
        principal = await authenticator.authenticate(_rs256(signing_key[0], "k1", role="admin"))
        assert (principal.tenant_id, principal.user_id, principal.role) == ("acme", "alice", "admin")
        assert "admin" in principal.scopes
    assert jwks.fetches == 1


async def test_rs256_token_of_another_key_or_expired_is_refused(
    jwks: JwksServer, signing_key: tuple[rsa.RSAPrivateKey, dict[str, Any]]
) -> None:
    authenticator = Authenticator(Settings(environment="test", jwt_jwks_url=jwks.url))
    stranger, _ = _key("k1")  # same kid, another key: the signature must not verify
    with pytest.raises(InvalidToken, match="invalid token"):
        await authenticator.authenticate(_rs256(stranger, "k1"))
    with pytest.raises(InvalidToken, match="invalid token"):
        await authenticator.authenticate(_rs256(signing_key[0], "unknown-kid"))
    with pytest.raises(InvalidToken, match="expired"):
        await authenticator.authenticate(_rs256(signing_key[0], "k1", exp=int(time.time()) - 60))


async def test_rs256_is_refused_without_a_jwks_url(
    signing_key: tuple[rsa.RSAPrivateKey, dict[str, Any]],
) -> None:
    with pytest.raises(InvalidToken, match="not accepted"):
        await Authenticator(Settings(environment="test")).authenticate(_rs256(signing_key[0], "k1"))


async def test_a_service_token_carries_only_its_listed_scopes(
    jwks: JwksServer, signing_key: tuple[rsa.RSAPrivateKey, dict[str, Any]]
) -> None:
    authenticator = Authenticator(Settings(environment="test", jwt_jwks_url=jwks.url))
    service = await authenticator.authenticate(_rs256(signing_key[0], "k1", role="service", scope="audit"))
    assert service.scopes == frozenset({"audit"})
    # A person's scopes follow the role: a scope claim cannot widen them.
    user = await authenticator.authenticate(_rs256(signing_key[0], "k1", scope="admin"))
    assert "admin" not in user.scopes
