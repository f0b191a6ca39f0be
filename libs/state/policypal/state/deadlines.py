"""Deadlines of chat requests: every request ends within its deadline (docs/architecture.md, Invariant: one terminal event per request).

The gateway registers each request with its deadline; a reaper claims the expired ones. The index is
one sorted set across tenants (``pp:system:deadlines``) because the reaper must find them all; each
member carries its tenant, and nothing in it is readable through the API.
"""

import time

from pydantic import BaseModel
from redis.asyncio import Redis

DEADLINES_KEY = "pp:system:deadlines"


class PendingRequest(BaseModel):
    """A chat request that must end by ``deadline`` (epoch seconds)."""

    tenant_id: str
    user_id: str
    request_id: str
    thread_id: str
    deadline: float


class DeadlineBook:
    """Registers request deadlines and hands each expired one to exactly one reaper."""

    def __init__(self, redis: Redis) -> None:
        self._redis = redis

    async def register(self, request: PendingRequest) -> None:
        """Remember ``request``; registering the same request again keeps one entry."""
        await self._redis.zadd(DEADLINES_KEY, {request.model_dump_json(): request.deadline})

    async def claim_expired(self, now: float | None = None, limit: int = 100) -> list[PendingRequest]:
        """Expired requests, each returned to one caller only (ZREM decides between racing reapers)."""
        members = await self._redis.zrangebyscore(
            DEADLINES_KEY, "-inf", now if now is not None else time.time(), start=0, num=limit
        )
        claimed = []
        for member in map(str, members):
            if await self._redis.zrem(DEADLINES_KEY, member):
                claimed.append(PendingRequest.model_validate_json(member))
        return claimed
