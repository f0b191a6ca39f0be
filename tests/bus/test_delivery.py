"""process_delivery against a real nats-server: ack, retry with back-off, dead letters."""

import asyncio
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable

import nats
import pytest
from faststream import AckPolicy
from faststream.nats import ConsumerConfig, NatsBroker, NatsMessage, NatsRouter, PullSub
from nats.aio.client import Client
from opentelemetry.sdk.metrics.export import InMemoryMetricReader
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
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
from policypal.bus.delivery import ack_wait_of
from policypal.config import Settings
from policypal.contracts.envelope import Envelope
from policypal.contracts.streams import CHAT
from policypal.devstack import ManagedProcess
from policypal.telemetry import service_span
from tests.support.telemetry import attribute_values, metric_sum

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
    ack_wait: float = 5,
    keepalive_seconds: float | None = None,
    durable: str | None = None,
) -> tuple[str, list[DeliveryOutcome]]:
    subject = f"chat.test{uuid.uuid4().hex[:8]}"
    outcomes: list[DeliveryOutcome] = []
    broker: NatsBroker = build_broker(Settings(_env_file=None, nats_url=nats_server.url))

    @broker.subscriber(
        subject,
        stream=jstream(CHAT),
        durable=durable or f"d{uuid.uuid4().hex[:8]}",
        pull_sub=PullSub(batch_size=1, timeout=0.2),
        config=ConsumerConfig(max_deliver=max_deliver, ack_wait=ack_wait),
        ack_policy=AckPolicy.MANUAL,
    )
    async def on_message(msg: NatsMessage) -> None:
        outcomes.append(
            await process_delivery(
                msg,
                Ping,
                handle,
                broker=broker,
                max_deliver=max_deliver,
                backoff=(0.1,),
                keepalive_seconds=keepalive_seconds,
            )
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


async def _slow_handling(
    nats_server: ManagedProcess, *, keepalive_seconds: float | None
) -> tuple[int, list[DeliveryOutcome]]:
    """Handler calls and outcomes of one job three times longer than ack_wait.

    Two replicas share the durable, so a message whose ack_wait runs out goes to the idle one.
    """
    subject, durable = f"chat.test{uuid.uuid4().hex[:8]}", f"d{uuid.uuid4().hex[:8]}"
    calls = 0
    outcomes: list[DeliveryOutcome] = []

    async def handle(ping: Ping) -> None:
        nonlocal calls
        calls += 1
        await asyncio.sleep(3.6)

    def replica() -> NatsBroker:
        broker = build_broker(Settings(_env_file=None, nats_url=nats_server.url))

        @broker.subscriber(
            subject,
            stream=jstream(CHAT),
            durable=durable,
            pull_sub=PullSub(batch_size=1, timeout=0.2),
            config=ConsumerConfig(max_deliver=3, ack_wait=1.2),
            ack_policy=AckPolicy.MANUAL,
        )
        async def on_message(msg: NatsMessage) -> None:
            outcomes.append(
                await process_delivery(
                    msg, Ping, handle, broker=broker, max_deliver=3, keepalive_seconds=keepalive_seconds
                )
            )

        return broker

    async with replica() as first, replica() as second:
        await first.start()
        await second.start()
        await first.publish(b'{"n": 1}', subject, stream=CHAT.name)
        for _ in range(100):
            await asyncio.sleep(0.1)
            if outcomes and len(outcomes) == calls:
                break
    return calls, outcomes


async def test_a_slow_handler_is_kept_in_progress_at_a_third_of_the_consumers_ack_wait(
    nats_server: ManagedProcess,
) -> None:
    calls, outcomes = await _slow_handling(nats_server, keepalive_seconds=None)
    assert calls == 1
    assert outcomes == [DeliveryOutcome.ACKED]


async def test_without_keepalives_inside_ack_wait_the_same_job_is_redelivered(
    nats_server: ManagedProcess,
) -> None:
    # The control: a keep-alive slower than ack_wait (the old fixed 20 s against a short ack_wait).
    calls, _ = await _slow_handling(nats_server, keepalive_seconds=20.0)
    # Redelivered once per ack_wait while a replica is free to take it: twice or three times.
    assert calls >= 2


async def test_the_ack_wait_comes_from_the_consumer_on_the_server(nats_server: ManagedProcess) -> None:
    waits: list[float] = []
    broker: NatsBroker = build_broker(Settings(_env_file=None, nats_url=nats_server.url))
    subject = f"chat.test{uuid.uuid4().hex[:8]}"

    @broker.subscriber(
        subject,
        stream=jstream(CHAT),
        durable=f"d{uuid.uuid4().hex[:8]}",
        pull_sub=PullSub(batch_size=1, timeout=0.2),
        config=ConsumerConfig(ack_wait=7.5),
        ack_policy=AckPolicy.MANUAL,
    )
    async def on_message(msg: NatsMessage) -> None:
        waits.append(await ack_wait_of(broker, msg))
        await msg.ack()

    async with broker:
        await broker.start()
        await broker.publish(b"{}", subject, stream=CHAT.name)
        for _ in range(50):
            if waits:
                break
            await asyncio.sleep(0.1)
    assert waits == [7.5]


async def test_handling_is_one_span_in_the_request_scope_and_one_counted_request(
    nats_server: ManagedProcess, finished_spans: InMemorySpanExporter, metric_reader: InMemoryMetricReader
) -> None:
    durable = f"d{uuid.uuid4().hex[:8]}"
    before = metric_reader.get_metrics_data()

    async def handle(request: Scoped) -> None:
        with service_span("search", {"policypal.search.limit": 5}):
            await asyncio.sleep(0)

    payload = Scoped(
        tenant_id="acme", user_id="alice", request_id="req-7", action="inquire", text="secret clause"
    )
    _, outcomes = await _run_model(nats_server, handle, payload.model_dump_json().encode(), durable=durable)

    assert outcomes == [DeliveryOutcome.ACKED]
    [handled] = [s for s in finished_spans.get_finished_spans() if s.name == f"handle {durable}"]
    [search] = [s for s in finished_spans.get_finished_spans() if s.name == "search"]
    scope = {"policypal.tenant_id": "acme", "policypal.request_id": "req-7", "policypal.action": "inquire"}
    assert scope.items() <= dict(handled.attributes or {}).items()
    assert scope.items() <= dict(search.attributes or {}).items()
    assert search.parent is not None
    assert search.parent.span_id == handled.context.span_id
    assert not any("secret clause" in v for v in attribute_values((handled, search)))
    after = metric_reader.get_metrics_data()
    attributes = {"service": durable, "action": "inquire", "outcome": "acked"}
    assert (
        metric_sum(after, "policypal.requests", **attributes)
        - metric_sum(before, "policypal.requests", **attributes)
        == 1
    )
    assert metric_sum(after, "policypal.request.duration", **attributes) == 1


class Scoped(Envelope):
    type: str = "test.scoped"
    action: str
    text: str


async def _run_model(
    nats_server: ManagedProcess, handle: Callable[[Scoped], Awaitable[None]], payload: bytes, *, durable: str
) -> tuple[str, list[DeliveryOutcome]]:
    subject = f"chat.test{uuid.uuid4().hex[:8]}"
    outcomes: list[DeliveryOutcome] = []
    broker: NatsBroker = build_broker(Settings(_env_file=None, nats_url=nats_server.url))

    @broker.subscriber(
        subject,
        stream=jstream(CHAT),
        durable=durable,
        pull_sub=PullSub(batch_size=1, timeout=0.2),
        ack_policy=AckPolicy.MANUAL,
    )
    async def on_message(msg: NatsMessage) -> None:
        outcomes.append(await process_delivery(msg, Scoped, handle, broker=broker, max_deliver=3))

    async with broker:
        await broker.start()
        await broker.publish(payload, subject, stream=CHAT.name)
        for _ in range(100):
            if outcomes:
                break
            await asyncio.sleep(0.1)
    return subject, outcomes
