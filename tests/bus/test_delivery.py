"""process_delivery against a real nats-server: ack, retry with back-off, dead letters."""

import asyncio
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable

import nats
import pytest
from faststream import AckPolicy
from faststream.nats import ConsumerConfig, NatsBroker, NatsMessage, NatsRouter, PullSub
from nats.aio.client import Client
from pydantic import BaseModel

from policypal.bus import (
    DeliveryOutcome,
    Unprocessable,
    build_broker,
    declare_streams,
    durable_pull_subscriber,
    jstream,
    process_delivery,
)
from policypal.config import Settings
from policypal.contracts.streams import CHAT
from policypal.devstack import ManagedProcess

pytestmark = pytest.mark.integration


class Ping(BaseModel):
    n: int


@pytest.fixture
async def nc(nats_server: ManagedProcess) -> AsyncIterator[Client]:
    client = await nats.connect(nats_server.url)
    await declare_streams(client.jetstream())
    yield client
    await client.drain()


async def _run(
    nats_server: ManagedProcess,
    handle: Callable[[Ping], Awaitable[None]],
    payload: bytes,
    *,
    max_deliver: int = 3,
) -> tuple[str, list[DeliveryOutcome]]:
    subject = f"chat.test{uuid.uuid4().hex[:8]}"
    outcomes: list[DeliveryOutcome] = []
    broker: NatsBroker = build_broker(Settings(_env_file=None, nats_url=nats_server.url))

    @broker.subscriber(
        subject,
        stream=jstream(CHAT),
        durable=f"d{uuid.uuid4().hex[:8]}",
        pull_sub=PullSub(batch_size=1, timeout=0.2),
        config=ConsumerConfig(max_deliver=max_deliver, ack_wait=5),
        ack_policy=AckPolicy.MANUAL,
    )
    async def on_message(msg: NatsMessage) -> None:
        outcomes.append(
            await process_delivery(msg, Ping, handle, broker=broker, max_deliver=max_deliver, backoff=(0.1,))
        )

    async with broker:
        await broker.start()
        await broker.publish(payload, subject, stream=CHAT.name)
        for _ in range(100):
            if outcomes and outcomes[-1] is not DeliveryOutcome.RETRY:
                break
            await asyncio.sleep(0.1)
    return subject, outcomes


async def _dead_letter(nc: Client, subject: str) -> nats.aio.msg.Msg:
    sub = await nc.jetstream().subscribe(f"dlq.{subject}", ordered_consumer=True)
    try:
        return await sub.next_msg(timeout=5)
    finally:
        await sub.unsubscribe()


async def test_valid_message_is_handled_and_acked(nats_server: ManagedProcess, nc: Client) -> None:
    seen: list[int] = []

    async def handle(ping: Ping) -> None:
        seen.append(ping.n)

    _, outcomes = await _run(nats_server, handle, b'{"n": 7}')
    assert seen == [7]
    assert outcomes == [DeliveryOutcome.ACKED]


async def test_invalid_payload_goes_to_dead_letters_with_the_reason(
    nats_server: ManagedProcess, nc: Client
) -> None:
    async def handle(ping: Ping) -> None:
        raise AssertionError("must not be called")

    subject, outcomes = await _run(nats_server, handle, b'{"n": "seven"}')
    assert outcomes == [DeliveryOutcome.DEAD_LETTERED]
    letter = await _dead_letter(nc, subject)
    assert letter.data == b'{"n": "seven"}'
    assert letter.headers is not None
    assert "invalid Ping" in letter.headers["Policypal-Error"]
    assert letter.headers["Policypal-Original-Subject"] == subject


async def test_failing_handler_is_retried_then_dead_lettered(nats_server: ManagedProcess, nc: Client) -> None:
    calls = 0

    async def handle(ping: Ping) -> None:
        nonlocal calls
        calls += 1
        raise RuntimeError("vector store down")

    subject, outcomes = await _run(nats_server, handle, b'{"n": 1}', max_deliver=3)
    assert calls == 3
    assert outcomes == [DeliveryOutcome.RETRY, DeliveryOutcome.RETRY, DeliveryOutcome.DEAD_LETTERED]
    letter = await _dead_letter(nc, subject)
    assert letter.headers is not None
    assert letter.headers["Policypal-Deliveries"] == "3"
    assert "vector store down" in letter.headers["Policypal-Error"]


async def test_transient_failure_recovers_on_retry(nats_server: ManagedProcess, nc: Client) -> None:
    calls = 0

    async def handle(ping: Ping) -> None:
        nonlocal calls
        calls += 1
        if calls == 1:
            raise ConnectionError("blip")

    _, outcomes = await _run(nats_server, handle, b'{"n": 1}')
    assert outcomes == [DeliveryOutcome.RETRY, DeliveryOutcome.ACKED]


async def test_unprocessable_is_dead_lettered_at_once(nats_server: ManagedProcess, nc: Client) -> None:
    async def handle(ping: Ping) -> None:
        raise Unprocessable("document belongs to nobody")

    subject, outcomes = await _run(nats_server, handle, b'{"n": 1}')
    assert outcomes == [DeliveryOutcome.DEAD_LETTERED]
    letter = await _dead_letter(nc, subject)
    assert letter.headers is not None
    assert "document belongs to nobody" in letter.headers["Policypal-Error"]


async def test_a_handler_cut_short_by_shutdown_hands_its_message_back_at_once(
    nats_server: ManagedProcess, nc: Client
) -> None:
    subject, durable = f"chat.test{uuid.uuid4().hex[:8]}", f"d{uuid.uuid4().hex[:8]}"
    started, redelivered = asyncio.Event(), asyncio.Event()

    settings = Settings(
        _env_file=None, nats_url=nats_server.url, graceful_timeout_seconds=0.5, ack_wait_seconds=60
    )

    def worker(handle: Callable[[Ping], Awaitable[None]]) -> NatsBroker:
        broker = build_broker(settings)
        router = NatsRouter()

        @durable_pull_subscriber(router, subject, stream=CHAT, durable=durable, settings=settings)
        async def on_message(msg: NatsMessage) -> None:
            await process_delivery(msg, Ping, handle, broker=broker, max_deliver=3)

        broker.include_router(router)
        return broker

    async def never_finishes(ping: Ping) -> None:
        started.set()
        await asyncio.Event().wait()

    async def finishes(ping: Ping) -> None:
        redelivered.set()

    first = worker(never_finishes)
    await first.start()
    await first.publish(b'{"n": 1}', subject, stream=CHAT.name)
    await asyncio.wait_for(started.wait(), 10)
    await first.stop()

    second = worker(finishes)
    await second.start()
    try:
        # ack_wait is 60 s: only a nak on cancellation brings the message back this soon.
        await asyncio.wait_for(redelivered.wait(), 10)
    finally:
        await second.stop()
