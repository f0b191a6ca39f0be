"""What the worker tells the user: streamed tokens, and the one terminal event (an answer, an error or a
PalAssist question) recorded, kept in the conversation and published."""

import time

from faststream.nats import NatsBroker

from actions.lifecycle.patient_publish import publish_patiently
from policypal.bus import publish_event, publish_recorded_terminal
from policypal.contracts import ActionRequested, TokenEvent, answering
from policypal.state import ChatTerminal, ConversationRecord, RequestLedger, assistant_message_id

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
            **answering(self._request),
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
    terminal: ChatTerminal, conversation: ConversationRecord, *, broker: NatsBroker, ledger: RequestLedger
) -> None:
    """End the request with ``terminal`` (an answer, an error or a PalAssist question) unless another
    terminal event stands: the one that stands is recorded and kept in the conversation in one round
    trip, then published, as the resolver's ``end_request`` does.

    The ledger decides first, so the stored turn and the published event are the same one even when
    two deliveries race; a crash between the steps is repaired by the redelivery. A publish that
    JetStream acknowledges late under load is tried again rather than failing the request.
    """
    recorded = await ledger.record_and_keep(terminal, conversation)
    await publish_patiently(
        lambda: publish_recorded_terminal(broker, ledger, recorded.standing, published=recorded.published),
        what="a terminal event",
    )
