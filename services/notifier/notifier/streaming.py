"""A thread's events from the JetStream ``EVENTS`` stream, as Server-Sent Events.

Nothing here knows about HTTP requests: a ``StreamPlan`` says what to stream and from where, and
``thread_events`` yields the SSE messages until the plan's request ends or the client goes away.
"""

import asyncio
import contextlib
import logging
from collections.abc import AsyncGenerator
from dataclasses import dataclass

import anyio
from nats.js import JetStreamContext
from nats.js.api import ConsumerConfig, DeliverPolicy
from nats.js.errors import NotFoundError

from notifier.events import StoredEvent, stored_event
from notifier.fanout import FanOut, Listener, ListenerOverflowed
from notifier.wire import PING, SseFrame, comment_frame
from policypal.bus.live_consumers import remove_consumer
from policypal.contracts import CHAT_TERMINAL_TYPES
from policypal.contracts.envelope import EnvelopeHead
from policypal.contracts.streams import EVENTS
from policypal.contracts.subjects import thread_events_filter

logger = logging.getLogger(__name__)


_UNSUBSCRIBE_TIMEOUT_SECONDS = 2.0
#: The last line a client too slow for the live feed gets before the server closes its stream.
SLOW_CLIENT_COMMENT = "slow client: reconnect with Last-Event-ID to resume"
_SLOW_CLIENT = comment_frame(SLOW_CLIENT_COMMENT)
#: Seconds a live stream may stay silent before a keep-alive comment (``: ping``) goes out.
PING_INTERVAL_SECONDS = 15.0


@dataclass(frozen=True)
class StreamPlan:
    """What one SSE connection streams: one thread of one tenant, from a point, maybe until an end."""

    tenant_id: str
    thread_id: str
    last_event_id: int | None = None
    request_id: str | None = None
    terminal_types: frozenset[str] = CHAT_TERMINAL_TYPES

    @property
    def subject(self) -> str:
        """The subject filter; built from the token's tenant only, never from request input."""
        return thread_events_filter(self.tenant_id, self.thread_id)


def _ends(plan: StreamPlan, head: EnvelopeHead) -> bool:
    return (
        plan.request_id is not None
        and head.request_id == plan.request_id
        and head.type in plan.terminal_types
    )


async def already_ended(js: JetStreamContext, plan: StreamPlan) -> bool:
    """True when the last event the client saw was its request's terminal event.

    A browser's EventSource reconnects by itself after the server closes the stream; answering that
    reconnect with 204 (instead of waiting forever for an end that already came) stops it.
    """
    if plan.request_id is None or plan.last_event_id is None:
        return False
    try:
        raw = await js.get_msg(EVENTS.name, seq=plan.last_event_id)
    except NotFoundError:
        return False
    if not (raw.subject or "").startswith(plan.subject[:-1]) or raw.data is None:
        return False
    head = EnvelopeHead.read(raw.data)
    return head is not None and _ends(plan, head)


def _to_sse(plan: StreamPlan, event: StoredEvent) -> tuple[SseFrame, bool] | None:
    """The SSE message of one stored event and whether it ends the plan; None to skip it.

    With a ``request_id`` only that request's events go out: a client that stops at the first
    terminal event must not read an earlier request's question (its id still counts as seen).
    """
    if event.head is None or event.sse is None:
        return None
    # Defence in depth: the subject already scopes the tenant; a mislabelled event is still dropped.
    if event.head.tenant_id != plan.tenant_id:
        logger.warning("skipping event %d of another tenant", event.sequence)
        return None
    if plan.request_id is not None and event.head.request_id != plan.request_id:
        return None
    return event.sse, _ends(plan, event.head)


async def thread_events(js: JetStreamContext, fanout: FanOut, plan: StreamPlan) -> AsyncGenerator[SseFrame]:
    """Yield the thread's events in stream order; stop after the plan's terminal event, if any.

    The connection joins the thread's shared live feed first, then replays the retained events (all
    of them, or those after ``last_event_id``) through its own short-lived consumer until caught up,
    and then follows the live feed, skipping what the replay already sent: no gap, no duplicate. A
    client too slow for the live feed gets a final comment and is disconnected, to resume by id.
    A live stream silent for ``PING_INTERVAL_SECONDS`` gets a keep-alive comment.
    """
    async with (
        fanout.listen(plan.subject) as listener,
        contextlib.aclosing(_in_stream_order(js, listener, plan)) as events,
    ):
        async for event in events:
            if isinstance(event, SseFrame):
                yield event  # a keep-alive, or the slow-client comment (then nothing follows)
                continue
            converted = _to_sse(plan, event)
            if converted is not None:
                yield converted[0]
                if converted[1]:
                    return


async def _in_stream_order(
    js: JetStreamContext, listener: Listener, plan: StreamPlan
) -> AsyncGenerator[StoredEvent | SseFrame]:
    """The replayed events, then the live feed's newer ones: each event once, in stream order, with a
    ping after ``PING_INTERVAL_SECONDS`` of silence; a listener that overflowed ends it with a comment."""
    last_sent = plan.last_event_id or 0
    async with contextlib.aclosing(_replay(js, plan)) as replay:
        async for event in replay:
            last_sent = event.sequence
            yield event
    while True:
        try:
            async with asyncio.timeout(PING_INTERVAL_SECONDS):
                event = await listener.next()
        except TimeoutError:
            yield PING
            continue
        except ListenerOverflowed:
            yield _SLOW_CLIENT
            return
        if event.sequence <= last_sent:
            continue  # the replay sent it already
        last_sent = event.sequence
        yield event


async def _replay(js: JetStreamContext, plan: StreamPlan) -> AsyncGenerator[StoredEvent]:
    """The thread's stored events from the plan's start, up to the last one stored when caught up.

    The replay consumer is deleted before the last replayed message is handed on, so a connection
    that has caught up holds no consumer of its own, only its place in the shared live feed. A
    thread with nothing stored after the start point gets no replay consumer at all: one lookup
    instead of four JetStream round trips, which 1000 connections opening at once queued behind.
    """
    if not await _stored_after(js, plan):
        return  # the live feed, joined before this lookup, has everything from here
    if plan.last_event_id is None:
        deliver, config = DeliverPolicy.ALL, None
    else:
        deliver = DeliverPolicy.BY_START_SEQUENCE
        config = ConsumerConfig(opt_start_seq=plan.last_event_id + 1)
    sub = await js.subscribe(
        plan.subject, stream=EVENTS.name, ordered_consumer=True, deliver_policy=deliver, config=config
    )
    removed = False
    try:
        info = await sub.consumer_info()
        if info.num_pending == 0 and (info.delivered is None or not info.delivered.consumer_seq):
            return  # nothing stored after the start point: the live feed has everything from here
        while True:
            msg = await sub.next_msg(timeout=None)
            if msg.metadata.num_pending == 0:
                await _remove_shielded(js, sub)
                removed = True
                yield stored_event(msg)
                return
            yield stored_event(msg)
    finally:
        if not removed:
            await _remove_shielded(js, sub)


async def _stored_after(js: JetStreamContext, plan: StreamPlan) -> bool:
    """Whether the thread has a stored event after the plan's start point (its first, by subject)."""
    try:
        await js.get_msg(EVENTS.name, seq=(plan.last_event_id or 0) + 1, subject=plan.subject, next=True)
    except NotFoundError:
        return False
    return True


async def _remove_shielded(js: JetStreamContext, sub: JetStreamContext.PushSubscription) -> None:
    # The client may be gone and this task cancelled: shield so the consumer really goes away.
    with anyio.move_on_after(_UNSUBSCRIBE_TIMEOUT_SECONDS, shield=True):
        await remove_consumer(js, sub)
