"""Progress lines of a request, published while the work goes on instead of before it.

Waiting for JetStream's ack of a status line before starting the work costs a round trip per line on
every request. The lines are therefore published in the background, one after the other; whatever the
request publishes next (a token, the terminal event) first waits until every line before it is on the
bus, so a client still reads them in order: status, tokens, then the terminal event. A line whose
JetStream ack comes late (CPU load) is published again within a deadline (``publish_patiently``).
"""

import asyncio
import contextlib

from faststream.nats import NatsBroker

from actions.lifecycle.patient_publish import publish_patiently
from policypal.bus import publish_status
from policypal.contracts.codes import StatusStage
from policypal.contracts.envelope import Envelope


class ProgressLines:
    """The status lines of ``request``, each published after the one before it."""

    def __init__(self, broker: NatsBroker, request: Envelope) -> None:
        self._broker = broker
        self._request = request
        self._last: asyncio.Task[None] | None = None

    async def __call__(self, stage: StatusStage, message: str) -> None:
        """Publish the line ``stage``/``message`` after the lines before it, without waiting for it."""
        self._last = asyncio.create_task(self._publish_after(self._last, stage, message))

    async def _publish_after(
        self, previous: asyncio.Task[None] | None, stage: StatusStage, message: str
    ) -> None:
        if previous is not None:
            await previous
        await publish_patiently(
            lambda: publish_status(self._broker, self._request, stage, message), what="a status line"
        )

    async def settled(self) -> None:
        """Return once every line is on the bus; a line that could not be published raises here."""
        if self._last is not None:
            await self._last

    async def abandon(self) -> None:
        """Stop lines still in flight: the request failed, and a status line is not worth retrying."""
        if self._last is not None and not self._last.done():
            self._last.cancel()
        if self._last is not None:
            with contextlib.suppress(Exception, asyncio.CancelledError):
                await self._last
