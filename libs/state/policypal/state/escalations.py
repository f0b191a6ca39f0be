"""Escalation tickets (docs/product.md, Escalation to a reviewer): a question the user sent to a human reviewer, per tenant.

A ticket is opened once per request (its id is derived from the request id, so a redelivery finds the
same ticket) and resolved once: the status changes atomically, so two reviewers answering at once
cannot both win.
"""

import hashlib
from datetime import datetime

from pydantic import BaseModel, Field
from redis.asyncio import Redis

from policypal.contracts import ActionName, Citation, Envelope, EscalationEvent, EscalationStatus
from policypal.contracts.envelope import answering, utc_now
from policypal.state import keys

# Resolves the ticket only if it is still pending: returns the stored ticket (JSON) when this call
# resolved it, an empty string when it was already resolved, and nil when there is no such ticket.
_RESOLVE_ONCE = """
local raw = redis.call('GET', KEYS[1])
if not raw then return nil end
local ticket = cjson.decode(raw)
if ticket['status'] ~= 'pending_human' then return '' end
ticket['status'] = 'resolved'
ticket['answer'] = ARGV[1]
ticket['resolved_by'] = ARGV[2]
ticket['resolved_at'] = ARGV[3]
local updated = cjson.encode(ticket)
redis.call('SET', KEYS[1], updated)
return updated
"""


def escalation_id_for(request_id: str) -> str:
    """The ticket id of the request that asked for a reviewer: the same on every redelivery."""
    return "esc-" + hashlib.sha256(request_id.encode()).hexdigest()[:12]


def customer_bridge_message(escalation_id: str) -> str:
    """What a website customer is told when the conversation goes to a person."""
    return (
        f"I'm handing this to a member of our team (ticket {escalation_id}). "
        "Their answer will appear here, usually within a few minutes."
    )


class EscalationTicket(BaseModel):
    """A question waiting for (or answered by) a human reviewer."""

    escalation_id: str
    tenant_id: str
    user_id: str
    thread_id: str = Field(description="The conversation the answer goes to.")
    request_id: str = Field(description="The request that asked for a reviewer.")
    escalated_request_id: str | None = Field(default=None, description="The request with the weak answer.")
    action: ActionName = Field(default="inquire", description="The action whose answer was weak.")
    question: str
    status: EscalationStatus = "pending_human"
    created_at: datetime = Field(default_factory=utc_now)
    answer: str | None = None
    resolved_by: str | None = None
    resolved_at: datetime | None = None
    # None rather than empty: the resolve script's JSON library writes an empty list as an object.
    sources: list[Citation] | None = Field(
        default=None, description="The passages retrieval found for the question, for the reviewer."
    )

    @classmethod
    def opened_by(
        cls,
        request: Envelope,
        *,
        question: str,
        escalated_request_id: str | None = None,
        action: ActionName = "inquire",
        sources: list[Citation] | None = None,
    ) -> "EscalationTicket":
        """The ticket ``request`` opens; its id comes from the request id, so a redelivery opens the same one."""
        if request.thread_id is None:
            raise ValueError("an escalation is answered in a conversation: the request names none")
        return cls(
            escalation_id=escalation_id_for(request.request_id),
            tenant_id=request.tenant_id,
            user_id=request.user_id,
            thread_id=request.thread_id,
            request_id=request.request_id,
            escalated_request_id=escalated_request_id,
            action=action,
            question=question,
            created_at=request.occurred_at,
            sources=sources or None,
        )

    def pending_event(self, message: str) -> EscalationEvent:
        """The terminal event of the request that opened the ticket, telling the asker ``message``."""
        return EscalationEvent(
            **answering(self),
            escalation_id=self.escalation_id,
            status="pending_human",
            message=message,
            question=self.question,
            escalated_request_id=self.escalated_request_id,
        )


class AlreadyResolved(Exception):  # noqa: N818 - reads as the verdict
    """The ticket has been answered already."""


class EscalationStore:
    """Opens, lists and resolves a tenant's escalation tickets in Redis."""

    def __init__(self, redis: Redis) -> None:
        self._redis = redis
        self._resolve_once = redis.register_script(_RESOLVE_ONCE)

    async def open(self, ticket: EscalationTicket) -> EscalationTicket:
        """Store ``ticket`` unless one with its id exists; return the ticket that stands."""
        key = keys.escalation(ticket.tenant_id, ticket.escalation_id)
        if await self._redis.set(key, ticket.model_dump_json(), nx=True):
            await self._redis.zadd(
                keys.escalations(ticket.tenant_id), {ticket.escalation_id: ticket.created_at.timestamp()}
            )
            return ticket
        existing = await self.get(ticket.tenant_id, ticket.escalation_id)
        return existing if existing is not None else ticket

    async def get(self, tenant_id: str, escalation_id: str) -> EscalationTicket | None:
        """The tenant's ticket, or None (also for another tenant's id: keys are per tenant)."""
        raw = await self._redis.get(keys.escalation(tenant_id, escalation_id))
        return EscalationTicket.model_validate_json(raw) if raw is not None else None

    async def list(
        self, tenant_id: str, status: EscalationStatus | None = None, limit: int = 100
    ) -> list[EscalationTicket]:
        """The tenant's tickets, oldest first, only those with ``status`` when given."""
        ids = await self._redis.zrange(keys.escalations(tenant_id), 0, -1)
        if not ids:
            return []
        raws = await self._redis.mget([keys.escalation(tenant_id, str(i)) for i in ids])
        tickets = [EscalationTicket.model_validate_json(raw) for raw in raws if raw is not None]
        return [t for t in tickets if status is None or t.status == status][:limit]

    async def pending_in(self, tenant_id: str, conversation_id: str) -> EscalationTicket | None:
        """The ticket of conversation ``conversation_id`` still waiting for a person, if any."""
        waiting = [
            t
            for t in await self.list(tenant_id, "pending_human", limit=1000)
            if t.thread_id == conversation_id
        ]
        return waiting[-1] if waiting else None

    async def resolve(
        self, tenant_id: str, escalation_id: str, answer: str, resolved_by: str
    ) -> EscalationTicket | None:
        """Record the reviewer's ``answer``; None if there is no such ticket.

        Raises ``AlreadyResolved`` when the ticket was answered before.
        """
        updated = await self._resolve_once(
            keys=[keys.escalation(tenant_id, escalation_id)],
            args=[answer, resolved_by, utc_now().isoformat()],
        )
        if updated is None:
            return None
        if updated == "":
            raise AlreadyResolved(escalation_id)
        return EscalationTicket.model_validate_json(updated)
