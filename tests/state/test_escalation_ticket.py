"""An escalation ticket made from the request that opens it, and the event that ends that request."""

from datetime import UTC, datetime

import pytest

from policypal.contracts import ChatRequested, Citation
from policypal.state import EscalationTicket, escalation_id_for

ASKED = datetime(2026, 11, 24, 9, 30, tzinfo=UTC)


def _request(thread_id: str | None = "conv-1") -> ChatRequested:
    return ChatRequested(
        tenant_id="acme",
        user_id="alice",
        request_id="req-7",
        thread_id=thread_id,
        message_id="m-7",
        text="Can I speak to a person?",
        occurred_at=ASKED,
    )


def test_a_ticket_takes_its_id_place_and_time_from_the_request() -> None:
    source = Citation(
        marker=1,
        document_id="d1",
        title="Returns",
        version="1",
        page=2,
        chunk_id="d1:3",
        quote="Refunds take 5 days.",
    )

    ticket = EscalationTicket.opened_by(
        _request(), question="When is my refund due?", escalated_request_id="req-6", sources=[source]
    )

    assert (ticket.escalation_id, ticket.tenant_id, ticket.user_id) == (
        escalation_id_for("req-7"),
        "acme",
        "alice",
    )
    assert (ticket.thread_id, ticket.request_id, ticket.escalated_request_id) == ("conv-1", "req-7", "req-6")
    assert (ticket.status, ticket.created_at, ticket.sources) == ("pending_human", ASKED, [source])


def test_the_same_request_opens_the_same_ticket_and_no_sources_is_none() -> None:
    first = EscalationTicket.opened_by(_request(), question="q", sources=[])
    again = EscalationTicket.opened_by(_request(), question="q")

    assert first == again
    assert first.sources is None


def test_a_request_outside_any_conversation_opens_no_ticket() -> None:
    with pytest.raises(ValueError, match="names none"):
        EscalationTicket.opened_by(_request(thread_id=None), question="q")


def test_the_pending_event_names_the_ticket_and_says_the_message() -> None:
    ticket = EscalationTicket.opened_by(
        _request(), question="When is my refund due?", escalated_request_id="req-6"
    )

    event = ticket.pending_event("A person will answer here (ticket esc-1).")

    assert (event.request_id, event.thread_id, event.escalation_id) == (
        "req-7",
        "conv-1",
        ticket.escalation_id,
    )
    assert (event.status, event.message, event.question) == (
        "pending_human",
        "A person will answer here (ticket esc-1).",
        "When is my refund due?",
    )
    assert event.escalated_request_id == "req-6"
