"""The deterministic ``Nats-Msg-Id`` of each publish that a retry must not repeat, and interrupt ids.

JetStream drops a message whose ``Nats-Msg-Id`` it saw within its duplicate window, so a publisher
that may run twice for one logical event (a redelivery, a retried HTTP call) names the event the same
way every time. The prefixes are part of the wire format: never change one (ADR 0002).
"""


def action_handoff_id(request_id: str) -> str:
    """The one ``actions.<action>.requested`` of a request (the resolver's hand-off, ``POST /v1/audits``)."""
    return f"action:{request_id}"


def terminal_id(request_id: str) -> str:
    """The one terminal event (response, error, interrupt, escalation, ready, failed) of a request."""
    return f"terminal:{request_id}"


def status_id(request_id: str, stage: str) -> str:
    """The status line of one stage of a request: a redelivered request does not repeat it."""
    return f"status:{request_id}:{stage}"


def reviewer_answer_id(escalation_id: str) -> str:
    """The response event that carries a reviewer's answer to one escalation ticket."""
    return f"reviewer:{escalation_id}"


def dead_letter_id(stream: str, stream_sequence: int) -> str:
    """The dead letter of one stored message: a message dead-lettered twice is kept once."""
    return f"dlq:{stream}:{stream_sequence}"


def interrupt_id_for(request_id: str) -> str:
    """The id of the PalAssist question ending a request: the same on every redelivery of the request."""
    return f"interrupt-{request_id}"
