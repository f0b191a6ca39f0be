"""Fixed-window rate limits per tenant and per caller, counted in Redis (shared by every replica)."""

import math
import time
from dataclasses import dataclass
from typing import Annotated

from fastapi import Depends, HTTPException, Request, status
from redis.asyncio import Redis

from gateway.resources import ResourcesDep
from policypal.auth import Principal, TenantStore
from policypal.auth.http import BearerPrincipal
from policypal.config import Settings


@dataclass(frozen=True)
class RateDecision:
    """Whether a request may proceed and, if not, which limit it hit and when to retry."""

    allowed: bool
    retry_after_seconds: int = 0
    limit: str = ""


def caller_key(principal: Principal) -> str:
    """The per-caller counter's name: the API key, else the user (a widget visitor is a user)."""
    return f"key:{principal.key_id}" if principal.key_id else f"user:{principal.user_id}"


async def check_rate(
    redis: Redis,
    tenant_id: str,
    caller: str,
    *,
    tenant_limit: int,
    caller_limit: int,
    window_seconds: int,
    now: float | None = None,
) -> RateDecision:
    """Count one request against the tenant's and the caller's windows; refuse above either limit.

    Fixed windows: one INCR per counter, pipelined, expiring with the window. A refused request still
    counts, so a client hammering through a 429 does not get a fresh budget earlier.
    """
    now = time.time() if now is None else now
    window = int(now // window_seconds)
    tenant_counter = f"pp:{tenant_id}:rl:{window}"
    caller_counter = f"pp:{tenant_id}:rl:{caller}:{window}"
    async with redis.pipeline(transaction=False) as pipe:
        pipe.incr(tenant_counter)
        pipe.expire(tenant_counter, window_seconds * 2)
        pipe.incr(caller_counter)
        pipe.expire(caller_counter, window_seconds * 2)
        tenant_count, _, caller_count, _ = await pipe.execute()
    retry_after = max(1, math.ceil((window + 1) * window_seconds - now))
    if int(tenant_count) > tenant_limit:
        return RateDecision(False, retry_after, "tenant")
    if int(caller_count) > caller_limit:
        return RateDecision(False, retry_after, "caller")
    return RateDecision(True)


async def enforce_rate_limit(request: Request, principal: BearerPrincipal, resources: ResourcesDep) -> None:
    """Dependency: 429 with Retry-After when the tenant or the caller is over its limit."""
    settings: Settings = resources.settings
    limits = (await TenantStore(resources.redis).get(principal.tenant_id)).limits
    decision = await check_rate(
        resources.redis,
        principal.tenant_id,
        caller_key(principal),
        tenant_limit=limits.requests_per_window or settings.rate_limit_tenant_requests,
        caller_limit=limits.principal_requests_per_window or settings.rate_limit_principal_requests,
        window_seconds=settings.rate_limit_window_seconds,
    )
    if not decision.allowed:
        who = "Your organisation has" if decision.limit == "tenant" else "This credential has"
        raise HTTPException(
            status.HTTP_429_TOO_MANY_REQUESTS,
            f"{who} sent too many requests; retry in {decision.retry_after_seconds} seconds.",
            headers={"Retry-After": str(decision.retry_after_seconds)},
        )


RateLimited = Annotated[None, Depends(enforce_rate_limit)]
