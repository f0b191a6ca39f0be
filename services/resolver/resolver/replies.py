"""What the resolver tells the user: progress lines, PalAssist questions and terminal errors.

Each terminal event is recorded in the request ledger first, so the stored turn and the published
event are the same one even when two deliveries race; every step is idempotent.
"""

from collections.abc import Callable
from typing import TypeVar

from faststream.nats import NatsBroker

from policypal.bus import publish_status, publish_terminal
from policypal.contracts import ErrorEvent, EscalationEvent, InterruptEvent, ResponseEvent
from policypal.contracts.codes import StatusStage
from policypal.contracts.envelope import Envelope
from policypal.state import (
    ConversationRecord,
    ConversationStore,
    RequestLedger,
    StoredMessage,
    error_turn,
    question_turn,
)
from resolver.pipeline import StatusReporter

CANCELLED_SENTENCE = "Request cancelled. Send a new message whenever you are ready."


def status_reporter(broker: NatsBroker, event: Envelope) -> StatusReporter:
    """Publishes the request's status events; a redelivery repeats the same Nats-Msg-Id per stage."""

    async def report(stage: StatusStage, message: str) -> None:
        await publish_status(broker, event, stage, message)

    return report


#: The terminal events the resolver ends a request with.
Terminal = TypeVar("Terminal", ResponseEvent, ErrorEvent, InterruptEvent, EscalationEvent)


async def end_request(
    terminal: Terminal,
    turn: Callable[[Terminal], StoredMessage],
    conversation: ConversationRecord,
    *,
    broker: NatsBroker,
    ledger: RequestLedger,
    conversations: ConversationStore,
) -> None:
    """Record ``terminal`` as the request's end unless one stands; keep the standing event in the
    conversation (as ``turn`` makes it) when it is of the same kind; publish it."""
    standing = await ledger.record_terminal(terminal)
    if isinstance(standing, type(terminal)):
        await conversations.append(conversation, turn(standing))
    await publish_terminal(broker, ledger, standing)


async def conclude_with_error(
    error: ErrorEvent,
    conversation: ConversationRecord,
    *,
    broker: NatsBroker,
    ledger: RequestLedger,
    conversations: ConversationStore,
) -> None:
    """Record ``error`` as the request's terminal event, keep it in the conversation, publish it."""
    await end_request(
        error, error_turn, conversation, broker=broker, ledger=ledger, conversations=conversations
    )


async def conclude_with_interrupt(
    interrupt: InterruptEvent,
    conversation: ConversationRecord,
    *,
    broker: NatsBroker,
    ledger: RequestLedger,
    conversations: ConversationStore,
) -> None:
    """End the request with its PalAssist question, shown in the history as a system notice."""
    await end_request(
        interrupt, question_turn, conversation, broker=broker, ledger=ledger, conversations=conversations
    )
