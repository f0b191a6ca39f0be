"""Fixed-window rate limits counted in Redis (shared by every replica), in separate budgets.

A tenant's signed-in users and API keys share one budget; its anonymous widget visitors another, so a
flood of visitors can never lock the tenant's own people out (docs/adr/0009-widget-budget-and-event-tickets.md).
Each budget has a tenant-wide counter and a per-caller one; a request is counted only when every
counter it touches has room, so a client hammering through 429s spends nobody's budget.
"""

import ipaddress
import math
import time
from dataclasses import dataclass
from typing import Annotated

from fastapi import Depends, HTTPException, status
from redis.asyncio import Redis

from gateway.resources import Resources, ResourcesDep
from policypal.auth import Principal, TenantStore
from policypal.auth.http import BearerPrincipal
from policypal.config import Settings

# Counts one request against every counter, or against none when any is full; returns the 1-based
# index of the first full counter, else 0. Atomic, so concurrent requests never overshoot a limit.
_COUNT_IF_ROOM = """
for i, key in ipairs(KEYS) do
  local used = tonumber(redis.call('GET', key) or '0')
  if used >= tonumber(ARGV[i + 1]) then
    return i
  end
end
for _, key in ipairs(KEYS) do
  if redis.call('INCR', key) == 1 then
    redis.call('EXPIRE', key, ARGV[1])
  end
end
return 0
"""


@dataclass(frozen=True)
class Counter:
    """One limit: ``name`` says which (for the answer), ``key`` is the counter's name in its window."""

    name: str
    key: str
    limit: int


@dataclass(frozen=True)
class RateDecision:
    """Whether a request may proceed and, if not, which limit it hit and when to retry."""

    allowed: bool
    retry_after_seconds: int = 0
    limit: str = ""


def caller_key(principal: Principal) -> str:
    """The per-caller counter's name: the API key, else the user (a widget visitor is a user)."""
    return f"key:{principal.key_id}" if principal.key_id else f"user:{principal.user_id}"


def address_key(host: str | None) -> str:
    """The per-address counter's name of a client: its IPv4 address, or its IPv6 /64 network.

    One IPv6 host usually holds a whole /64, so counting single IPv6 addresses would count nothing.
    """
    if not host:
        return "unknown"
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return host[:64]
    if address.version == 6:
        return str(ipaddress.ip_network(f"{address}/64", strict=False).network_address)
    return str(address)


async def count_if_room(
    redis: Redis, counters: list[Counter], *, window_seconds: int, now: float | None = None
) -> RateDecision:
    """Count one request against every counter of the current window, unless one of them is full."""
    now = time.time() if now is None else now
    window = int(now // window_seconds)
    full = await redis.eval(
        _COUNT_IF_ROOM,
        len(counters),
        *(f"{counter.key}:{window}" for counter in counters),
        window_seconds * 2,
        *(counter.limit for counter in counters),
    )
    if not int(full):
        return RateDecision(True)
    retry_after = max(1, math.ceil((window + 1) * window_seconds - now))
    return RateDecision(False, retry_after, counters[int(full) - 1].name)


@dataclass(frozen=True)
class TenantLimitsView:
    """A tenant's effective request limits: its own overrides, else the configured defaults."""

    per_tenant: int
    per_caller: int


def request_counters(
    settings: Settings, principal: Principal, limits_of_tenant: TenantLimitsView
) -> list[Counter]:
    """The counters a request of ``principal`` spends: the users' budget, or the visitors' one."""
    tenant = principal.tenant_id
    caller = Counter("caller", f"pp:{tenant}:rl:{caller_key(principal)}", limits_of_tenant.per_caller)
    if principal.role == "customer":
        return [Counter("widget", f"pp:{tenant}:rl:widget", settings.widget_requests_per_tenant), caller]
    return [Counter("tenant", f"pp:{tenant}:rl", limits_of_tenant.per_tenant), caller]


async def tenant_limits(resources: Resources, tenant_id: str) -> TenantLimitsView:
    """The effective request limits of ``tenant_id``."""
    settings = resources.settings
    limits = (await TenantStore(resources.redis).get(tenant_id)).limits
    return TenantLimitsView(
        per_tenant=limits.requests_per_window or settings.rate_limit_tenant_requests,
        per_caller=limits.principal_requests_per_window or settings.rate_limit_principal_requests,
    )


_WHO = {
    "tenant": "Your organisation has",
    "widget": "This organisation's website visitors have",
    "caller": "This credential has",
}


async def enforce_rate_limit(principal: BearerPrincipal, resources: ResourcesDep) -> None:
    """Dependency: 429 with Retry-After when the caller's budget or its own counter is spent."""
    counters = request_counters(
        resources.settings, principal, await tenant_limits(resources, principal.tenant_id)
    )
    decision = await count_if_room(
        resources.redis, counters, window_seconds=resources.settings.rate_limit_window_seconds
    )
    if not decision.allowed:
        raise too_many(f"{_WHO[decision.limit]} sent too many requests", decision)


def too_many(what: str, decision: RateDecision) -> HTTPException:
    """The 429 answer: ``what`` happened, and when to retry."""
    return HTTPException(
        status.HTTP_429_TOO_MANY_REQUESTS,
        f"{what}; retry in {decision.retry_after_seconds} seconds.",
        headers={"Retry-After": str(decision.retry_after_seconds)},
    )


RateLimited = Annotated[None, Depends(enforce_rate_limit)]
