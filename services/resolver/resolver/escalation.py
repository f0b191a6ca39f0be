"""Escalation (docs/product.md, Escalation to a reviewer): "ask a reviewer" opens a ticket and tells the user in the thread.

The ticket (per tenant, id derived from the request id) waits as ``pending_human`` until an
administrator answers it through the gateway; the user's request ends with an ``escalation`` event
that names the ticket, kept in the history as an assistant message.
"""

from faststream.nats import NatsBroker

from policypal.contracts import ChatResumed, EscalationEvent
from policypal.state import (
    ConversationRecord,
    EscalationStore,
    EscalationTicket,
    RequestLedger,
)
from resolver.low_retrieval import Escalate
from resolver.replies import end_request


def bridge_message(escalation_id: str) -> str:
    """What the user is told when the question goes to a reviewer (the bridge message of docs/product.md, Escalation to a reviewer)."""
    return (
        f"I need to check this with a reviewer. Ticket {escalation_id} has been created; "
        "their answer will appear in this conversation."
    )


def escalation_ticket(event: ChatResumed, escalate: Escalate) -> EscalationTicket:
    """The ticket for the user's request ``event`` to have ``escalate``'s question answered by a person."""
    saved = escalate.turn.action_request
    return EscalationTicket.opened_by(
        event,
        question=escalate.question,
        escalated_request_id=event.resumes_request_id,
        action=saved.action if saved is not None else "inquire",
    )


def escalation_event(ticket: EscalationTicket) -> EscalationEvent:
    """The terminal event of the request that opened ``ticket``."""
    return ticket.pending_event(bridge_message(ticket.escalation_id))


async def escalate_to_reviewer(
    escalate: Escalate,
    event: ChatResumed,
    conversation: ConversationRecord,
    *,
    broker: NatsBroker,
    ledger: RequestLedger,
    escalations: EscalationStore,
) -> None:
    """Open the ticket, then end ``event``'s request with the escalation event; each step idempotent."""
    ticket = await escalations.open(escalation_ticket(event, escalate))
    await end_request(escalation_event(ticket), conversation, broker=broker, ledger=ledger)
