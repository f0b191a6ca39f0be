"""The gateway's CORS policy: the tenants' allowed origins only (``policypal.auth.cors``), every method."""

from fastapi import FastAPI
from redis.asyncio import Redis
from starlette.types import Scope

from policypal.auth.cors import TenantCors

ALLOWED_METHODS = ("GET", "POST", "PUT", "PATCH", "DELETE")
ALLOWED_HEADERS = ("Authorization", "Content-Type", "X-API-Key", "Idempotency-Key", "Last-Event-ID")


def _redis(scope: Scope) -> Redis:
    redis: Redis = scope["app"].state.resources.redis
    return redis


def add_tenant_cors(app: FastAPI) -> None:
    """Answer CORS for the tenants' allowed origins; add it last, so it wraps every other middleware."""
    app.add_middleware(
        TenantCors, redis_of=_redis, allow_methods=ALLOWED_METHODS, allow_headers=ALLOWED_HEADERS
    )
