"""One live feed per thread shared by its connections; a slow connection is cut off, never waited for."""

import asyncio
import contextlib

import httpx
import pytest
from faststream.nats import NatsBroker
from nats.js import JetStreamContext
from redis.asyncio import Redis

from notifier.events import StoredEvent
from notifier.fanout import LISTENER_QUEUE_SIZE, FanOut, Listener, ListenerOverflowed
from notifier.streaming import SLOW_CLIENT_COMMENT, StreamPlan, thread_events
from policypal.bus import declare_streams, publish_event
from policypal.config import Settings
from policypal.contracts import StatusEvent
from policypal.contracts.streams import EVENTS
from tests.gateway.conftest import new_id
from tests.notifier.conftest import own_conversation, sse_messages
from tests.notifier.test_events import Thread

pytestmark = pytest.mark.integration


def status(tenant_id: str, thread_id: str, stage: str) -> StatusEvent:
    return StatusEvent(
        tenant_id=tenant_id, user_id="u", thread_id=thread_id, request_id="r", stage=stage, message=stage
    )


def test_a_full_listener_overflows_and_stays_overflowed() -> None:
    listener = Listener()
    event = StoredEvent(sequence=1, head=None, sse=None)
    assert all(listener.offer(event) for _ in range(LISTENER_QUEUE_SIZE))
    assert not listener.offer(event)
    listener.queue.get_nowait()  # room again, but the gap cannot be healed in place
    assert not listener.offer(event)
    with pytest.raises(ListenerOverflowed):
        asyncio.run(listener.next())


async def _take(listener: Listener, count: int) -> list[StoredEvent]:
    return [await listener.next() for _ in range(count)]


async def test_a_slow_connection_gets_a_final_comment_while_the_others_get_everything(
    broker: NatsBroker,
) -> None:
    js = broker.connection.jetstream()
    await declare_streams(js, (EVENTS,))
    fanout = FanOut(js)
    tenant, thread = new_id("t"), new_id("c")
    plan = StreamPlan(tenant_id=tenant, thread_id=thread)
    count = LISTENER_QUEUE_SIZE + 10
    async with (
        fanout.listen(plan.subject) as prompt,
        contextlib.aclosing(thread_events(js, fanout, plan)) as slow,
    ):
        reading = asyncio.create_task(_take(prompt, count + 1))
        await publish_event(broker, status(tenant, thread, "first"))
        async with asyncio.timeout(5):
            first = await anext(slow)  # the slow connection is live, then stops reading
        assert first.event == "status"
        for index in range(count):
            await publish_event(broker, status(tenant, thread, f"s{index}"))
        async with asyncio.timeout(10):
            got = await reading
        sequences = [m.sequence for m in got]
        assert sequences == sorted(set(sequences))  # the prompt listener got all of them, in order
        async with asyncio.timeout(5):
            queued = [event async for event in slow]
        # What was queued in order before the overflow may still go out; then the final comment, the end.
        assert queued[-1].comment == SLOW_CLIENT_COMMENT
        assert all(event.event == "status" for event in queued[:-1])
    assert fanout.subjects() == set()


async def test_connections_of_a_thread_share_one_consumer_that_goes_with_the_last(
    client: httpx.AsyncClient, broker: NatsBroker, settings: Settings, redis_client: Redis
) -> None:
    js = broker.connection.jetstream()
    thread = Thread(settings)
    await own_conversation(redis_client, thread.tenant_id, thread.user_id, thread.thread_id)
    before = (await js.stream_info(EVENTS.name)).state.consumer_count
    async with contextlib.AsyncExitStack() as stack:
        streams = [
            sse_messages(
                await stack.enter_async_context(client.stream("GET", thread.url, headers=thread.headers))
            )
            for _ in range(3)
        ]
        await publish_event(broker, thread.status("r1", "resolving"))
        async with asyncio.timeout(5):
            got = [await anext(stream) for stream in streams]
        assert {m.id for m in got} == {got[0].id}
        assert (await js.stream_info(EVENTS.name)).state.consumer_count == before + 1
    for _ in range(100):
        if (await js.stream_info(EVENTS.name)).state.consumer_count == before:
            break
        await asyncio.sleep(0.05)
    assert (await js.stream_info(EVENTS.name)).state.consumer_count == before


async def _consumers(js: JetStreamContext) -> int:
    return (await js.stream_info(EVENTS.name)).state.consumer_count


async def test_connections_joining_while_the_consumer_is_created_share_it_even_if_the_first_goes(
    broker: NatsBroker,
) -> None:
    js = broker.connection.jetstream()
    await declare_streams(js, (EVENTS,))
    fanout = FanOut(js)
    tenant, thread = new_id("t"), new_id("c")
    subject = StreamPlan(tenant_id=tenant, thread_id=thread).subject
    before = await _consumers(js)
    entered = asyncio.Event()

    async def first() -> None:
        async with fanout.listen(subject):
            entered.set()
            await asyncio.sleep(60)

    # The first connection starts creating the feed's consumer and is gone before it exists.
    starter = asyncio.create_task(first())
    await asyncio.sleep(0)
    assert fanout.subjects() == {subject}
    async with contextlib.AsyncExitStack() as stack:
        joining = [asyncio.create_task(stack.enter_async_context(fanout.listen(subject))) for _ in range(3)]
        await asyncio.sleep(0)
        starter.cancel()
        async with asyncio.timeout(5):
            listeners = await asyncio.gather(*joining)
        assert not entered.is_set()
        assert await _consumers(js) == before + 1
        await publish_event(broker, status(tenant, thread, "shared"))
        async with asyncio.timeout(5):
            got = [await listener.next() for listener in listeners]
        assert {event.sequence for event in got} == {got[0].sequence}
    assert fanout.subjects() == set()
    assert await _consumers(js) == before


async def _api_requests(js: JetStreamContext) -> int:
    return (await js.account_info()).api.total


async def test_a_thread_with_nothing_stored_is_followed_without_a_replay_consumer(
    broker: NatsBroker,
) -> None:
    js = broker.connection.jetstream()
    await declare_streams(js, (EVENTS,))
    fanout = FanOut(js)
    tenant, thread = new_id("t"), new_id("c")
    plan = StreamPlan(tenant_id=tenant, thread_id=thread)
    before = await _consumers(js)
    requests_before = await _api_requests(js)
    async with contextlib.aclosing(thread_events(js, fanout, plan)) as stream:
        reading = asyncio.create_task(anext(stream))
        for _ in range(50):  # the connection is live once its feed exists
            if fanout.subjects() == {plan.subject}:
                break
            await asyncio.sleep(0.01)
        await asyncio.sleep(0.1)
        # The live feed's consumer and one lookup (plus this count): no replay consumer was created,
        # asked about or deleted for an empty thread.
        assert await _api_requests(js) - requests_before == 3
        assert await _consumers(js) == before + 1
        await publish_event(broker, status(tenant, thread, "live"))
        async with asyncio.timeout(5):
            first = await reading
        assert first.event == "status"
    assert await _consumers(js) == before
