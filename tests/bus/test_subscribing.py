"""Handler parameters of the shared pull consumer, on a real nats-server."""

import asyncio
import contextlib

import anyio.to_thread
import nats
import pytest
from faststream.nats import NatsBroker, NatsRouter

from policypal.bus import CurrentBroker, DeliveredMessage, build_broker, durable_pull_subscriber
from policypal.config import Settings
from policypal.contracts.streams import ACTIONS
from policypal.devstack import ManagedProcess

pytestmark = pytest.mark.integration


async def test_message_and_broker_reach_the_handler_without_a_worker_thread(
    nats_server: ManagedProcess,
) -> None:
    """With every worker thread taken, the handler still gets its message and broker (no thread hop)."""
    settings = Settings(_env_file=None, nats_url=nats_server.url)
    subject = "actions.subscribing-test.requested"
    durable = "subscribing-test"
    received: asyncio.Queue[tuple[bytes, NatsBroker]] = asyncio.Queue()
    router = NatsRouter()

    @durable_pull_subscriber(router, subject, stream=ACTIONS, durable=durable, settings=settings)
    async def handle(msg: DeliveredMessage, broker: CurrentBroker) -> None:
        await msg.ack()
        await received.put((msg.body, broker))

    broker = build_broker(settings)
    broker.include_router(router)
    await broker.start()
    limiter = anyio.to_thread.current_default_thread_limiter()
    tokens = limiter.total_tokens
    limiter.total_tokens = 1
    await limiter.acquire()
    try:
        await broker.publish(b"ping", subject, stream=ACTIONS.name)
        body, handed = await asyncio.wait_for(received.get(), timeout=10)
        assert body == b"ping"
        assert handed is broker
    finally:
        limiter.release()
        limiter.total_tokens = tokens
        await broker.stop()
        # A work-queue stream allows one consumer per subject: leave none behind.
        nc = await nats.connect(str(nats_server.url))
        with contextlib.suppress(Exception):
            await nc.jetstream().delete_consumer(ACTIONS.name, durable)
        await nc.drain()
