"""One live JetStream subscription per thread per process, fanned out in memory to its connections.

Every SSE connection of a thread listens on a bounded queue of the thread's shared feed; the feed's
ordered consumer is created for the first listener and deleted when the last one leaves. A listener
whose queue overflows is cut off (``overflowed``), never waited for: the others keep their pace.

No lock is held across a JetStream round trip: joining an open feed is synchronous, and only the
listeners of a thread whose consumer is being created wait for it. (A process-wide lock around the
consumer's creation made 1000 connections opening at once queue behind 200 threads' round trips.)
"""

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator
from dataclasses import dataclass, field

import anyio
from nats.aio.msg import Msg
from nats.js import JetStreamContext

from notifier.events import StoredEvent, stored_event
from policypal.bus.live_consumers import follow_new, remove_consumer
from policypal.contracts.streams import EVENTS

logger = logging.getLogger(__name__)

#: Live events one connection may have waiting; a client further behind is disconnected to resume.
LISTENER_QUEUE_SIZE = 256
_LEAVE_TIMEOUT_SECONDS = 2.0


class ListenerOverflowed(Exception):  # noqa: N818 - a condition the connection answers by closing
    """The connection fell more than its queue behind the live feed and must resume by Last-Event-ID."""


@dataclass(eq=False)
class Listener:
    """One connection's view of a thread's live feed: a bounded queue of stored events."""

    queue: asyncio.Queue[StoredEvent] = field(default_factory=lambda: asyncio.Queue(LISTENER_QUEUE_SIZE))
    overflowed: bool = False

    def offer(self, event: StoredEvent) -> bool:
        """Queue ``event`` without waiting; False (and ``overflowed`` from now on) when the queue is full."""
        if self.overflowed:
            return False
        try:
            self.queue.put_nowait(event)
        except asyncio.QueueFull:
            self.overflowed = True
            return False
        return True

    async def next(self) -> StoredEvent:
        """The next live event; ListenerOverflowed once the queue has overflowed."""
        if self.overflowed:
            raise ListenerOverflowed
        return await self.queue.get()


@dataclass(eq=False)
class _Feed:
    """A thread's live subscription and the listeners it feeds."""

    listeners: set[Listener] = field(default_factory=set)
    sub: JetStreamContext.PushSubscription | None = None
    #: Creates ``sub`` (set as the feed is made); a task of its own, so a listener that goes away does
    #: not cancel it for the others.
    opening: asyncio.Task[None] = field(init=False)

    async def dispatch(self, msg: Msg) -> None:
        """Hand ``msg``, decoded once, to every listener without waiting; overflowing ones are dropped."""
        event = stored_event(msg)
        for listener in list(self.listeners):
            if not listener.offer(event):
                self.listeners.discard(listener)
                logger.warning("a slow SSE client overflowed on %s; disconnecting it", msg.subject)


class FanOut:
    """The process's live feeds, keyed by thread subject filter."""

    def __init__(self, js: JetStreamContext) -> None:
        self._js = js
        # A feed is in here from the moment its consumer starts being created until its last listener
        # leaves; lookups, joins and removals happen between awaits, so they need no lock.
        self._feeds: dict[str, _Feed] = {}

    @contextlib.asynccontextmanager
    async def listen(self, subject: str) -> AsyncIterator[Listener]:
        """A listener of ``subject``'s live events, from (at the latest) the moment this returns."""
        listener = Listener()
        feed = self._feeds.get(subject)
        if feed is None:
            feed = _Feed()
            feed.opening = asyncio.create_task(self._open(subject, feed))
            self._feeds[subject] = feed
        feed.listeners.add(listener)
        try:
            # Shielded: the consumer is created (and then removed by the last to leave) even when
            # the connection that started creating it is gone.
            await asyncio.shield(feed.opening)
            yield listener
        finally:
            # The client may be gone and this task cancelled: shield so the consumer really goes away.
            with anyio.move_on_after(_LEAVE_TIMEOUT_SECONDS, shield=True):
                await self._leave(subject, feed, listener)

    async def _open(self, subject: str, feed: _Feed) -> None:
        try:
            # Only events published from now on: anything older is the connection's replay.
            feed.sub = await follow_new(self._js, EVENTS, subject, feed.dispatch)
        except BaseException:
            # Its listeners get the error; the next connection of the thread tries again.
            if self._feeds.get(subject) is feed:
                del self._feeds[subject]
            raise

    async def _leave(self, subject: str, feed: _Feed, listener: Listener) -> None:
        feed.listeners.discard(listener)
        # An overflowed listener is already out of the set: its connection may still be the last.
        if feed.listeners or self._feeds.get(subject) is not feed:
            return
        # From here a new connection of the thread opens a feed of its own.
        del self._feeds[subject]
        await _remove_feed_consumer(self._js, feed)

    async def close(self) -> None:
        """Remove every live feed's consumer (the process is stopping)."""
        feeds, self._feeds = list(self._feeds.values()), {}
        for feed in feeds:
            await _remove_feed_consumer(self._js, feed)

    def subjects(self) -> set[str]:
        """The subjects with a live feed now (one consumer each)."""
        return set(self._feeds)


async def _remove_feed_consumer(js: JetStreamContext, feed: _Feed) -> None:
    """Remove ``feed``'s consumer once its creation has finished (nothing to remove if it failed)."""
    with contextlib.suppress(Exception):
        await feed.opening
    if feed.sub is not None:
        await remove_consumer(js, feed.sub)
