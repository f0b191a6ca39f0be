"""The consumer-lag gauge against a real nats-server, read through the SDK's in-memory metric reader."""

import uuid
from collections.abc import AsyncIterator

import nats
import pytest
from faststream.nats import NatsRouter
from nats.aio.client import Client
from opentelemetry.sdk.metrics import MeterProvider
from opentelemetry.sdk.metrics.export import InMemoryMetricReader

from policypal.bus import (
    ConsumerLag,
    Durable,
    build_broker,
    declare_streams,
    durable_pull_subscriber,
    durables_of,
)
from policypal.config import Settings
from policypal.contracts.streams import ACTIONS, CHAT
from policypal.devstack import ManagedProcess
from tests.support.telemetry import metric_sum

pytestmark = pytest.mark.integration


@pytest.fixture
async def nc(nats_server: ManagedProcess) -> AsyncIterator[Client]:
    client = await nats.connect(nats_server.url)
    await declare_streams(client.jetstream())
    yield client
    await client.drain()


async def test_lag_is_pending_plus_unacknowledged_messages_per_durable(nc: Client) -> None:
    js = nc.jetstream()
    subject, durable = f"chat.lag{uuid.uuid4().hex[:8]}", f"lag{uuid.uuid4().hex[:8]}"
    subscription = await js.pull_subscribe(subject, durable=durable, stream=CHAT.name)
    for n in range(5):
        await js.publish(subject, str(n).encode(), stream=CHAT.name)
    reader = InMemoryMetricReader()
    lag = ConsumerLag(js, [Durable(CHAT.name, durable)], meter=MeterProvider([reader]).get_meter("test"))

    def gauge() -> float:
        return metric_sum(
            reader.get_metrics_data(), "policypal.consumer.lag", stream=CHAT.name, durable=durable
        )

    await lag.refresh()
    assert gauge() == 5

    # Delivered but not yet acked still counts: a worker holding messages has not worked them off.
    fetched = await subscription.fetch(2, timeout=5)
    await lag.refresh()
    assert gauge() == 5

    for msg in fetched:
        await msg.ack_sync()
    await lag.refresh()
    assert gauge() == 3


async def test_a_durable_that_cannot_be_read_is_left_out_without_stopping_the_others(nc: Client) -> None:
    js = nc.jetstream()
    subject, durable = f"chat.lag{uuid.uuid4().hex[:8]}", f"lag{uuid.uuid4().hex[:8]}"
    await js.pull_subscribe(subject, durable=durable, stream=CHAT.name)
    await js.publish(subject, b"1", stream=CHAT.name)
    reader = InMemoryMetricReader()
    durables = [Durable(CHAT.name, "no-such-durable"), Durable(CHAT.name, durable)]
    lag = ConsumerLag(js, durables, meter=MeterProvider([reader]).get_meter("test"))

    await lag.refresh()

    data = reader.get_metrics_data()
    assert metric_sum(data, "policypal.consumer.lag", durable=durable) == 1
    assert metric_sum(data, "policypal.consumer.lag", durable="no-such-durable") == 0


def test_the_durables_of_a_worker_are_found_on_its_subscribers() -> None:
    settings = Settings(_env_file=None)
    router = NatsRouter()

    @durable_pull_subscriber(
        router, "actions.inquire.requested", stream=ACTIONS, durable="inquire", settings=settings
    )
    async def inquire(body: bytes) -> None: ...

    @durable_pull_subscriber(router, "chat.requested", stream=CHAT, durable="resolver", settings=settings)
    async def resolve(body: bytes) -> None: ...

    broker = build_broker(settings)
    broker.include_router(router)
    assert sorted(durables_of(broker), key=str) == [
        Durable(ACTIONS.name, "inquire"),
        Durable(CHAT.name, "resolver"),
    ]
