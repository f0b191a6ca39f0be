"""One place that turns any credential (JWT or API key) into a Principal."""

import anyio
import jwt
from redis.asyncio import Redis

from policypal.auth.api_keys import ApiKeyStore, is_api_key
from policypal.auth.tokens import InvalidToken, Principal, token_algorithm, verify_token
from policypal.config import Settings


class Authenticator:
    """Verifies HS256 tokens, RS256 tokens of the JWKS URL (keys cached) and, with Redis, API keys."""

    def __init__(self, settings: Settings, redis: Redis | None = None) -> None:
        self._settings = settings
        self._api_keys = ApiKeyStore(redis) if redis is not None else None
        self._jwks = (
            jwt.PyJWKClient(
                settings.jwt_jwks_url,
                cache_keys=True,
                lifespan=settings.jwt_jwks_cache_seconds,
                timeout=5,
            )
            if settings.jwt_jwks_url
            else None
        )

    async def authenticate(self, credential: str) -> Principal:
        """The caller behind ``credential``; raises ``InvalidToken`` with the reason otherwise."""
        if is_api_key(credential):
            if self._api_keys is None:
                raise InvalidToken("invalid API key: API keys are not accepted here")
            return await self._api_keys.verify(credential)
        if token_algorithm(credential) == "RS256" and self._jwks is not None:
            # PyJWKClient fetches over blocking HTTP when a key is not cached yet.
            jwks = self._jwks
            return await anyio.to_thread.run_sync(lambda: verify_token(self._settings, credential, jwks=jwks))
        return verify_token(self._settings, credential)
