"""How the terminal event of a request is kept in its conversation's history.

One turn per request, with the id ``assistant-<request_id>``, built the same way whichever service
ends the request (the resolver or an action worker), so a redelivery to either stores the same turn.
"""

from typing import Literal, TypeAlias

from policypal.contracts import (
    AnswerDetails,
    AskedQuestion,
    Envelope,
    ErrorCode,
    ErrorEvent,
    ErrorNotice,
    EscalationEvent,
    EscalationNotice,
    InterruptEvent,
    MessageMetadata,
    PalAssistPrompt,
    ResponseEvent,
)
from policypal.state.conversations import StoredMessage, assistant_message_id

#: The events a chat request ends with (``policypal.contracts.CHAT_TERMINAL_TYPES``).
ChatTerminal: TypeAlias = ResponseEvent | ErrorEvent | InterruptEvent | EscalationEvent


def terminal_turn(terminal: ChatTerminal) -> StoredMessage:
    """The turn that keeps ``terminal`` in the history, whichever kind of ending it is."""
    if isinstance(terminal, ResponseEvent):
        return answer_turn(terminal)
    if isinstance(terminal, ErrorEvent):
        return error_turn(terminal)
    if isinstance(terminal, InterruptEvent):
        return question_turn(terminal)
    return escalation_turn(terminal)


def answer_turn(response: ResponseEvent) -> StoredMessage:
    """The assistant message of an answer, with its action, sources, model and usage."""
    details = AnswerDetails(
        action=response.action,
        citations=response.citations,
        web_citations=response.web_citations,
        model=response.model,
        usage=response.usage,
    )
    return _turn(response, "assistant", response.answer, details)


def error_turn(error: ErrorEvent) -> StoredMessage:
    """The message that shows an error in the history; a cancellation is a system notice."""
    role: Literal["assistant", "system"] = "system" if error.code == ErrorCode.CANCELLED else "assistant"
    return _turn(error, role, error.message, ErrorNotice(error_code=error.code))


def question_turn(interrupt: InterruptEvent) -> StoredMessage:
    """The system notice of a PalAssist question, with the question itself for clients to render."""
    asked = AskedQuestion(
        interrupt_id=interrupt.interrupt_id,
        interrupt_type=interrupt.interrupt_type,
        message=interrupt.message,
        options=interrupt.options,
    )
    return _turn(interrupt, "system", interrupt.message, PalAssistPrompt(interrupt=asked))


def escalation_turn(escalation: EscalationEvent) -> StoredMessage:
    """The bridge message telling the user a reviewer will answer, with the ticket for clients to render."""
    notice = EscalationNotice(escalation_id=escalation.escalation_id, status=escalation.status)
    return _turn(escalation, "assistant", escalation.message, notice)


def _turn(
    event: Envelope, role: Literal["assistant", "system"], content: str, metadata: MessageMetadata
) -> StoredMessage:
    return StoredMessage(
        message_id=assistant_message_id(event.request_id),
        role=role,
        content=content,
        request_id=event.request_id,
        created_at=event.occurred_at,
        metadata=metadata,
    )
