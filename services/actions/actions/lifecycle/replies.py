"""What the worker tells the user: streamed tokens, and the one terminal event (an answer, an error or a
PalAssist question) recorded, kept in the conversation and published."""

import time

from faststream.nats import NatsBroker

from actions.lifecycle.patient_publish import publish_patiently
from policypal.bus import publish_event, publish_recorded_terminal
from policypal.contracts import ActionRequested, ErrorEvent, InterruptEvent, ResponseEvent, TokenEvent
from policypal.state import (
    ConversationRecord,
    ConversationStore,
    RequestLedger,
    StoredMessage,
    answer_turn,
    assistant_message_id,
    error_turn,
    question_turn,
)

#: A token publish slower than this means the machine is loaded: hold the next pieces back.
SLOW_PUBLISH_SECONDS = 0.1
LONGEST_HOLD_SECONDS = 1.0


class TokenPublisher:
    """Publishes the answer to ``request`` as it is generated: token events with index 0, 1, 2, …

    Each token has its own message id: a redelivered request streams again from index 0, which tells
    the client to start the message over; the response event that follows is the answer that stands.
    While publishing is slow (a JetStream ack took over ``SLOW_PUBLISH_SECONDS``: the machine is
    loaded), pieces are held back for as long as the last publish took and sent together: fewer
    publishes when they cost most, the same text. ``flush`` sends what is held before the terminal event.
    """

    def __init__(self, broker: NatsBroker, request: ActionRequested) -> None:
        self._broker = broker
        self._request = request
        self._message_id = assistant_message_id(request.request_id)
        self._index = 0
        self._pending = ""
        self._last_sent = float("-inf")
        self._hold = 0.0

    async def __call__(self, text: str) -> None:
        """Take the next piece ``text`` of the answer; publish it now unless publishing is slow."""
        self._pending += text
        if time.monotonic() - self._last_sent >= self._hold:
            await self.flush()

    async def flush(self) -> None:
        """Publish the pieces held back, if any, as one token event."""
        if not self._pending:
            return
        token = TokenEvent(
            tenant_id=self._request.tenant_id,
            user_id=self._request.user_id,
            request_id=self._request.request_id,
            thread_id=self._request.thread_id,
            message_id=self._message_id,
            index=self._index,
            text=self._pending,
        )
        started = time.monotonic()
        await publish_patiently(lambda: publish_event(self._broker, token), what="a token")
        self._last_sent = time.monotonic()
        took = self._last_sent - started
        self._hold = min(took, LONGEST_HOLD_SECONDS) if took > SLOW_PUBLISH_SECONDS else 0.0
        self._pending = ""
        self._index += 1


async def conclude(
    terminal: ResponseEvent | ErrorEvent,
    conversation: ConversationRecord,
    *,
    broker: NatsBroker,
    ledger: RequestLedger,
    conversations: ConversationStore,
) -> None:
    """Record ``terminal`` as the request's end, keep it in the conversation, then publish it.

    The ledger decides first, so the stored turn and the published event are the same one even when
    two deliveries race. Every step is idempotent: a crash between them is repaired by the redelivery.
    Recording keeps the turn in the same round trip when ``terminal`` stands, and says whether the
    event was published already, so neither is asked again.
    """
    recorded = await ledger.record_and_keep(terminal, conversation, assistant_turn(terminal))
    standing = recorded.standing
    if not recorded.kept and isinstance(standing, ResponseEvent | ErrorEvent):
        await conversations.append(conversation, assistant_turn(standing))
    await publish_patiently(
        lambda: publish_recorded_terminal(broker, ledger, standing, published=recorded.published),
        what="a terminal event",
    )


def assistant_turn(terminal: ResponseEvent | ErrorEvent) -> StoredMessage:
    """The assistant message of a terminal event, as kept in the conversation's history."""
    return answer_turn(terminal) if isinstance(terminal, ResponseEvent) else error_turn(terminal)


async def repeat_question(
    interrupt: InterruptEvent,
    conversation: ConversationRecord,
    *,
    broker: NatsBroker,
    ledger: RequestLedger,
    conversations: ConversationStore,
) -> None:
    """Record ``interrupt`` as the terminal event unless one stands, keep it in the history, publish it.

    The pending question is not saved again here: a newer message may have replaced it meanwhile.
    """
    recorded = await ledger.record_and_keep(interrupt, conversation, question_turn(interrupt))
    standing = recorded.standing
    if not recorded.kept and isinstance(standing, InterruptEvent):
        await conversations.append(conversation, question_turn(standing))
    await publish_patiently(
        lambda: publish_recorded_terminal(broker, ledger, standing, published=recorded.published),
        what="a terminal event",
    )
