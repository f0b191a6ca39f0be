"""Liveness and readiness probes."""

import asyncio
import logging
from typing import Literal

from fastapi import APIRouter, Response, status
from qdrant_client import AsyncQdrantClient

from gateway.models import Health
from gateway.resources import Resources, ResourcesDep

logger = logging.getLogger(__name__)

router = APIRouter(tags=["health"])

_CHECK_TIMEOUT_SECONDS = 1.0
CheckState = Literal["ok", "unavailable", "embedded"]


@router.get("/healthz", response_model=Health)
async def healthz() -> Health:
    """The process is up and serving HTTP."""
    return Health(status="ok")


@router.get("/readyz", response_model=Health, responses={503: {"model": Health}})
async def readyz(resources: ResourcesDep, response: Response) -> Health:
    """NATS, Redis and Qdrant each checked at once; 503 when any is unavailable.

    Qdrant is ``embedded`` without a ``QDRANT_URL``: the local store belongs to the worker process
    (it is single-process), so the gateway reports the mode and does not open it.
    """
    nats, redis, qdrant = await asyncio.gather(
        _nats_state(resources), _redis_state(resources), _qdrant_state(resources)
    )
    checks: dict[str, CheckState] = {"nats": nats, "redis": redis, "qdrant": qdrant}
    ready = "unavailable" not in checks.values()
    if not ready:
        response.status_code = status.HTTP_503_SERVICE_UNAVAILABLE
    return Health(status="ok" if ready else "unavailable", checks=checks)


def open_qdrant_probe(url: str, api_key: str | None) -> AsyncQdrantClient:
    """A client of the Qdrant server for readiness checks: short timeouts, and no blocking version check
    when it is made (qdrant-client's compatibility check is a synchronous request)."""
    return AsyncQdrantClient(url=url, api_key=api_key, timeout=1, check_compatibility=False)


async def _nats_state(resources: Resources) -> CheckState:
    return "ok" if await resources.broker.ping(timeout=_CHECK_TIMEOUT_SECONDS) else "unavailable"


async def _redis_state(resources: Resources) -> CheckState:
    try:
        async with asyncio.timeout(_CHECK_TIMEOUT_SECONDS):
            return "ok" if await resources.redis.ping() else "unavailable"
    except Exception:  # any failure means "not ready"; the probe must answer, not raise
        return "unavailable"


async def _qdrant_state(resources: Resources) -> CheckState:
    if resources.qdrant is None:
        return "embedded"
    try:
        async with asyncio.timeout(_CHECK_TIMEOUT_SECONDS):
            await resources.qdrant.info()
    except Exception as exc:  # unreachable, refused, timed out, or an error answer: not ready
        logger.warning("Qdrant readiness check failed: %s", type(exc).__name__)
        return "unavailable"
    return "ok"
