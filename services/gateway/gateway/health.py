"""Liveness and readiness probes."""

import asyncio

from fastapi import APIRouter, Response, status

from gateway.models import Health
from gateway.resources import ResourcesDep

router = APIRouter(tags=["health"])

_CHECK_TIMEOUT_SECONDS = 1.0


@router.get("/healthz", response_model=Health)
async def healthz() -> Health:
    """The process is up and serving HTTP."""
    return Health(status="ok")


@router.get("/readyz", response_model=Health, responses={503: {"model": Health}})
async def readyz(resources: ResourcesDep, response: Response) -> Health:
    """NATS is connected and Redis answers a ping; 503 otherwise."""
    checks = {
        "nats": await resources.broker.ping(timeout=_CHECK_TIMEOUT_SECONDS),
        "redis": await _redis_ok(resources),
    }
    ready = all(checks.values())
    if not ready:
        response.status_code = status.HTTP_503_SERVICE_UNAVAILABLE
    return Health(status="ok" if ready else "unavailable", checks=checks)


async def _redis_ok(resources: ResourcesDep) -> bool:
    try:
        async with asyncio.timeout(_CHECK_TIMEOUT_SECONDS):
            return bool(await resources.redis.ping())
    except Exception:  # any failure means "not ready"; the probe must answer, not raise
        return False
