"""Event tickets: short-lived, single-use, one-stream credentials for browsers' EventSource.

EventSource cannot set headers, so whatever authenticates it travels in the URL, where access logs,
proxies and browser history keep it. A ticket is what travels instead: issued by the gateway to a
caller who proved who they are with a header, good for one stream (one conversation or document),
for a minute, once. A leaked ticket is worth nothing after the stream it opened.

The form is ``ppt.<tenant>.<secret>``: the tenant keeps the Redis key under the tenant's prefix; only
the SHA-256 of the secret is stored, so a copy of Redis does not hold usable tickets.
"""

import hashlib
import re
import secrets
from datetime import UTC, datetime, timedelta
from typing import Literal

from pydantic import BaseModel, ValidationError
from redis.asyncio import Redis

from policypal.auth.tokens import Principal
from policypal.contracts.envelope import SafeId

#: What a ticket opens: a conversation's events or a document's ingestion events.
ThreadKind = Literal["conversation", "document"]

_PREFIX = "ppt"
_TENANT = re.compile(r"[A-Za-z0-9_-]{1,64}")


class EventTicket(BaseModel):
    """What a redeemed ticket grants: ``principal`` may follow the events of this one thread."""

    principal: Principal
    kind: ThreadKind
    thread_id: SafeId

    def opens(self, kind: ThreadKind, thread_id: str) -> bool:
        """True when this ticket is for the events of ``thread_id`` of this kind."""
        return self.kind == kind and self.thread_id == thread_id


class IssuedTicket(BaseModel):
    """A ticket as handed to its holder."""

    ticket: str
    expires_at: datetime


def is_event_ticket(credential: str) -> bool:
    """True when ``credential`` has the form of an event ticket (it may still be invalid)."""
    return credential.startswith(f"{_PREFIX}.")


def _key(tenant_id: str, secret: str) -> str:
    digest = hashlib.sha256(secret.encode()).hexdigest()
    return f"pp:{tenant_id}:event_ticket:{digest}"


class EventTicketStore:
    """Issues tickets and redeems each one at most once, in Redis (shared by every replica)."""

    def __init__(self, redis: Redis, ttl_seconds: int) -> None:
        self._redis = redis
        self._ttl = ttl_seconds

    async def issue(self, principal: Principal, kind: ThreadKind, thread_id: str) -> IssuedTicket:
        """A new ticket letting ``principal`` open the events of ``thread_id`` once, within the TTL."""
        grant = EventTicket(principal=principal, kind=kind, thread_id=thread_id)
        secret = secrets.token_urlsafe(32)
        await self._redis.set(_key(principal.tenant_id, secret), grant.model_dump_json(), ex=self._ttl)
        return IssuedTicket(
            ticket=f"{_PREFIX}.{principal.tenant_id}.{secret}",
            expires_at=datetime.now(UTC) + timedelta(seconds=self._ttl),
        )

    async def redeem(self, ticket: str) -> EventTicket | None:
        """The grant of ``ticket``, removing it; None when it is malformed, expired or already used."""
        prefix, _, rest = ticket.partition(".")
        tenant_id, _, secret = rest.partition(".")
        if prefix != _PREFIX or not _TENANT.fullmatch(tenant_id) or not secret or len(ticket) > 200:
            return None
        # GETDEL: two connections racing with one ticket get it once between them.
        raw = await self._redis.getdel(_key(tenant_id, secret))
        if raw is None:
            return None
        try:
            grant = EventTicket.model_validate_json(raw)
        except ValidationError:
            return None
        return grant if grant.principal.tenant_id == tenant_id else None
