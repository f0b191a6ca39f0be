"""Which of a tenant's tickets changed, live: the inbox's stream (docs/product.md, Website widget).

A ticket opens with an ``escalation`` event and is answered or closed with a reviewer's ``response``
event, both on the tenant's thread events (``events.<tenant>.<thread>.<kind>``, published to the
EVENTS stream). A live feed on each of those two subjects (``policypal.bus.live_consumers``) sees each
as it is stored and is removed when the inbox closes. The feed yields only ticket ids: the stream
reads the ticket itself from the store, so what a reviewer sees is never a stale copy.
"""

import asyncio
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import anyio
from nats.aio.msg import Msg
from nats.js import JetStreamContext
from pydantic import ValidationError

from policypal.bus.live_consumers import follow_new, remove_consumer
from policypal.contracts import EscalationEvent, ResponseEvent
from policypal.contracts.streams import EVENTS
from policypal.contracts.subjects import thread_events

logger = logging.getLogger(__name__)

#: Changes one open inbox may have waiting; further behind, the feed ends and the console reloads.
FEED_QUEUE_SIZE = 256
_REMOVE_TIMEOUT_SECONDS = 2.0


class TicketFeed:
    """The ids of a tenant's tickets as they open or are answered, in the order the bus saw them."""

    def __init__(self) -> None:
        self._changed: asyncio.Queue[str | None] = asyncio.Queue(FEED_QUEUE_SIZE)

    async def on_escalation(self, msg: Msg) -> None:
        """A ticket opened (or its escalation was published again)."""
        try:
            event = EscalationEvent.model_validate_json(msg.data)
        except ValidationError:
            logger.warning("an unreadable escalation event on %s", msg.subject)
            return
        self._offer(event.escalation_id)

    async def on_response(self, msg: Msg) -> None:
        """An answer; only a reviewer's answer changes a ticket."""
        try:
            event = ResponseEvent.model_validate_json(msg.data)
        except ValidationError:
            logger.warning("an unreadable response event on %s", msg.subject)
            return
        if event.answered_by == "reviewer" and event.escalation_id is not None:
            self._offer(event.escalation_id)

    def _offer(self, escalation_id: str) -> None:
        try:
            self._changed.put_nowait(escalation_id)
        except asyncio.QueueFull:
            # Too far behind: end the feed (None is always let through by taking one change off).
            self._changed.get_nowait()
            self._changed.put_nowait(None)

    async def next_change(self) -> str | None:
        """The next changed ticket's id; None once the reader fell ``FEED_QUEUE_SIZE`` changes behind."""
        return await self._changed.get()


@asynccontextmanager
async def tenant_ticket_feed(js: JetStreamContext, tenant_id: str) -> AsyncIterator[TicketFeed]:
    """Follow ``tenant_id``'s ticket changes for the block; listening when the block starts."""
    feed = TicketFeed()
    subscriptions: list[JetStreamContext.PushSubscription] = []
    try:
        for kind, handler in (("escalation", feed.on_escalation), ("response", feed.on_response)):
            subscriptions.append(await follow_new(js, EVENTS, thread_events(tenant_id, "*", kind), handler))
        yield feed
    finally:
        # Shielded: a reader that went away cancels the stream, and the removal must still run.
        with anyio.move_on_after(_REMOVE_TIMEOUT_SECONDS, shield=True):
            for subscription in subscriptions:
                await remove_consumer(js, subscription)
