"""The lifecycle every action worker shares, on a real nats-server and Valkey, with a scripted compose.

Status lines are published in the background while the work goes on; these tests hold the order a
client must still see on the thread: every status line, then the tokens, then the one terminal event.
"""

import uuid
from collections.abc import AsyncIterator

import nats
import pytest
from faststream.nats import NatsBroker
from nats.js import JetStreamContext
from redis.asyncio import Redis

from actions.action_router import action_router, durable_name
from actions.lifecycle.request import ActionAnswer, Compose, OnDelta, Progress
from policypal.bus import build_broker, publish_event
from policypal.config import Settings
from policypal.contracts import ActionRequested
from policypal.contracts.subjects import action_requested
from policypal.devstack import ManagedProcess
from policypal.state import ConversationRecord, ConversationStore, Refusal
from tests.support.jetstream import payload, reset_bus, stream_messages, wait_for_messages

pytestmark = pytest.mark.integration

THREAD = "conv1"


async def two_lines_then_streamed(
    event: ActionRequested, progress: Progress, on_delta: OnDelta
) -> ActionAnswer:
    """Two status lines, then the answer streamed in two tokens right away."""
    await progress("reading", "Reading your documents…")
    await progress("drafting", "Drafting the answer…")
    await on_delta("Seven ")
    await on_delta("years.")
    return ActionAnswer(answer="Seven years.", citations=[])


async def one_line_then_refused(
    event: ActionRequested, progress: Progress, on_delta: OnDelta
) -> ActionAnswer:
    """A status line, then a refusal at once."""
    await progress("reading", "Reading your documents…")
    raise Refusal("needs_documents", "Tag the documents to summarize.")


@pytest.fixture
async def js(nats_server: ManagedProcess) -> AsyncIterator[JetStreamContext]:
    nc = await nats.connect(str(nats_server.url))
    yield nc.jetstream()
    await nc.drain()


async def _run(
    nats_server: ManagedProcess, redis: Redis, js: JetStreamContext, compose: Compose, terminal_kind: str
) -> list[tuple[str, dict[str, object]]]:
    """Ask one request of a worker composing with ``compose``; the thread's events in stream order."""
    await reset_bus(
        js,
        durables={"ACTIONS": durable_name("summarize")},
        purge={"ACTIONS": action_requested("summarize")},
    )
    tenant = f"t{uuid.uuid4().hex[:10]}"
    await ConversationStore(redis).create(
        ConversationRecord(conversation_id=THREAD, tenant_id=tenant, user_id="alice")
    )
    settings = Settings(_env_file=None, nats_url=nats_server.url, max_deliver=2)
    broker: NatsBroker = build_broker(settings)
    broker.include_router(action_router(settings, "summarize", compose, redis=redis))
    await broker.start()
    try:
        event = ActionRequested(
            tenant_id=tenant,
            user_id="alice",
            request_id=f"req-{uuid.uuid4().hex[:8]}",
            thread_id=THREAD,
            action="summarize",
            query="How long are records kept?",
            documents=[],
        )
        await publish_event(broker, event)
        await wait_for_messages(js, "EVENTS", f"events.{tenant}.{THREAD}.{terminal_kind}")
    finally:
        await broker.stop()
    return [
        (str(m.subject).rsplit(".", 1)[-1], payload(m))
        for m in await stream_messages(js, "EVENTS", f"events.{tenant}.{THREAD}.>")
    ]


async def test_status_lines_come_before_the_tokens_and_the_response(
    nats_server: ManagedProcess, redis_client: Redis, js: JetStreamContext
) -> None:
    events = await _run(nats_server, redis_client, js, two_lines_then_streamed, "response")
    assert [kind for kind, _ in events] == ["status", "status", "token", "token", "response"]
    assert [body["stage"] for kind, body in events if kind == "status"] == ["reading", "drafting"]
    assert [body["index"] for kind, body in events if kind == "token"] == [0, 1]


async def test_a_refusal_follows_the_status_line_published_before_it(
    nats_server: ManagedProcess, redis_client: Redis, js: JetStreamContext
) -> None:
    events = await _run(nats_server, redis_client, js, one_line_then_refused, "error")
    assert [kind for kind, _ in events] == ["status", "error"]
    assert events[1][1]["code"] == "needs_documents"
