"""Where a request accepted through the API stands: queued, running, then its terminal event.

The gateway records a request when it accepts it (``queued``); the worker marks it ``running`` when it
starts; the end is the request's terminal event in the ``RequestLedger``. Keys are per tenant, so
another tenant's request id is simply not found.
"""

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, Field
from redis.asyncio import Redis

from policypal.contracts.envelope import utc_now
from policypal.state import keys
from policypal.state.requests import TERMINAL_TTL_SECONDS

RequestPhase = Literal["queued", "running"]


class RequestRecord(BaseModel):
    """A request another system made through the API, and who made it."""

    request_id: str
    tenant_id: str
    kind: Literal["audit"] = "audit"
    requested_by: str = Field(description="The caller's user id (``key-<id>`` for an API key).")
    user_id: str = Field(description="The user the request acts for (the owner of its documents).")
    thread_id: str
    phase: RequestPhase = "queued"
    created_at: datetime = Field(default_factory=utc_now)
    started_at: datetime | None = None


class RequestTracker:
    """Records accepted requests and their start."""

    def __init__(self, redis: Redis) -> None:
        self._redis = redis

    async def accept(self, record: RequestRecord) -> RequestRecord:
        """Record ``record`` unless the request is known already; return the record that stands."""
        key = keys.request_status(record.tenant_id, record.request_id)
        if await self._redis.set(key, record.model_dump_json(), nx=True, ex=TERMINAL_TTL_SECONDS):
            return record
        existing = await self.get(record.tenant_id, record.request_id)
        return existing if existing is not None else record

    async def get(self, tenant_id: str, request_id: str) -> RequestRecord | None:
        """The tenant's record of ``request_id``, or None."""
        raw = await self._redis.get(keys.request_status(tenant_id, request_id))
        return RequestRecord.model_validate_json(raw) if raw is not None else None

    async def mark_running(self, tenant_id: str, request_id: str) -> None:
        """Note that a worker started the request; nothing happens for a request not made through the API."""
        await self.mark_started(await self.get(tenant_id, request_id))

    async def mark_started(self, record: RequestRecord | None) -> None:
        """``mark_running`` for a ``record`` read already (``read_request_start``); None does nothing."""
        if record is None or record.phase == "running":
            return
        running = record.model_copy(update={"phase": "running", "started_at": utc_now()})
        await self._redis.set(
            keys.request_status(record.tenant_id, record.request_id),
            running.model_dump_json(),
            ex=TERMINAL_TTL_SECONDS,
        )
