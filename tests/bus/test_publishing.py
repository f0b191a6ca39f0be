"""Terminal events reach the bus once, even when a redelivery comes after JetStream's duplicate window."""

import uuid

import nats
import pytest
from redis.asyncio import Redis

from policypal.bus import build_broker, declare_streams, publish_terminal
from policypal.config import Settings
from policypal.contracts import ErrorEvent, ResponseEvent
from policypal.devstack import ManagedProcess
from policypal.state import RequestLedger
from tests.support.jetstream import stream_messages

pytestmark = pytest.mark.integration


async def test_a_terminal_event_is_published_once_whatever_the_window(
    nats_server: ManagedProcess, redis_client: Redis
) -> None:
    nc = await nats.connect(nats_server.url)
    js = nc.jetstream()
    await declare_streams(js)
    broker = build_broker(Settings(_env_file=None, nats_url=nats_server.url))
    await broker.connect()
    thread = f"c{uuid.uuid4().hex[:8]}"
    common = {"tenant_id": "acme", "user_id": "alice", "request_id": str(uuid.uuid4()), "thread_id": thread}
    answer = ResponseEvent(**common, message_id="m", action="inquire", answer="a", model="offline-extractive")
    subject = f"events.acme.{thread}.>"
    ledger = RequestLedger(redis_client)
    try:
        assert await publish_terminal(broker, ledger, answer) == answer
        assert len(await stream_messages(js, "EVENTS", subject)) == 1
        # Past the duplicate window JetStream no longer remembers the Nats-Msg-Id: simulate it.
        await js.purge_stream("EVENTS", subject=subject)
        late_error = ErrorEvent(**common, code="action_failed", message="late")
        assert await publish_terminal(broker, ledger, late_error) == answer
        assert await publish_terminal(broker, ledger, answer) == answer
        assert await stream_messages(js, "EVENTS", subject) == []
        assert await ledger.was_published(answer)
    finally:
        await broker.stop()
        await nc.drain()


async def test_a_recorded_but_unpublished_terminal_is_published_on_retry(
    nats_server: ManagedProcess, redis_client: Redis
) -> None:
    nc = await nats.connect(nats_server.url)
    js = nc.jetstream()
    await declare_streams(js)
    broker = build_broker(Settings(_env_file=None, nats_url=nats_server.url))
    await broker.connect()
    thread = f"c{uuid.uuid4().hex[:8]}"
    error = ErrorEvent(
        tenant_id="acme",
        user_id="alice",
        request_id=str(uuid.uuid4()),
        thread_id=thread,
        code="x",
        message="x",
    )
    ledger = RequestLedger(redis_client)
    try:
        await ledger.record_terminal(error)  # a crash right after recording, before publishing
        assert not await ledger.was_published(error)
        await publish_terminal(broker, ledger, error)
        [message] = await stream_messages(js, "EVENTS", f"events.acme.{thread}.>")
        assert message.headers is not None
        assert message.headers["Nats-Msg-Id"] == f"terminal:{error.request_id}"
    finally:
        await broker.stop()
        await nc.drain()
