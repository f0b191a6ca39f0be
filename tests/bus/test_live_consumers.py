"""A live feed delivers only what the stream stores after it opens, and goes away with its reader."""

import asyncio
import uuid

import nats
import pytest
from nats.aio.msg import Msg

from policypal.bus import declare_streams
from policypal.bus.live_consumers import follow_new, remove_consumer
from policypal.contracts.streams import EVENTS
from policypal.devstack import ManagedProcess

pytestmark = pytest.mark.integration


async def test_a_live_feed_gets_new_messages_in_order_and_is_removed_at_once(
    nats_server: ManagedProcess,
) -> None:
    nc = await nats.connect(nats_server.url)
    try:
        js = nc.jetstream()
        await declare_streams(js, (EVENTS,))
        subject = f"events.t-{uuid.uuid4().hex[:8]}.c1.status"
        await js.publish(subject, b"before")
        received: asyncio.Queue[bytes] = asyncio.Queue()

        async def on_message(msg: Msg) -> None:
            await received.put(msg.data)

        before = (await js.stream_info(EVENTS.name)).state.consumer_count
        subscription = await follow_new(js, EVENTS, subject, on_message)
        assert (await js.stream_info(EVENTS.name)).state.consumer_count == before + 1
        for body in (b"first", b"second"):
            await js.publish(subject, body)
        async with asyncio.timeout(5):
            assert [await received.get(), await received.get()] == [b"first", b"second"]
        assert received.empty()

        await remove_consumer(js, subscription)
        # Deleted by the call, not by the server's idle timeout later on.
        assert (await js.stream_info(EVENTS.name)).state.consumer_count == before
        await js.publish(subject, b"after")
        await asyncio.sleep(0.2)
        assert received.empty()
    finally:
        await nc.drain()
