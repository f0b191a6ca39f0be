"""Invariant 2: kill -9 an action worker with many requests in flight; after a restart every request
has exactly one terminal event and its conversation history holds no duplicate."""

from pathlib import Path

import pytest
from redis.asyncio import Redis

from actions.inquire.service import DURABLE
from policypal.state import ConversationStore
from tests.faults.stack import (
    THREAD,
    assert_exactly_once,
    fault_stack,
    index_policy,
    inquiries,
    jetstream,
    new_conversation,
    publish_request,
    terminal_events,
    wait_for_in_flight,
    wait_for_terminals,
)

pytestmark = [pytest.mark.faults, pytest.mark.integration]

REQUESTS = 100
#: The worker is killed once this many requests have ended, each time while it holds one.
KILL_AFTER = (10, 45)


async def test_killed_worker_loses_and_doubles_nothing(tmp_path: Path) -> None:
    tenant = "acme"
    async with fault_stack(tmp_path) as stack, jetstream(stack.nats_url) as js:
        await index_policy(tmp_path / "qdrant", tenant)
        redis = Redis.from_url(stack.redis_url, decode_responses=True)
        await new_conversation(redis, tenant)
        requests = inquiries(tenant, REQUESTS)
        for event in requests:
            await publish_request(js, event)

        for ended in KILL_AFTER:
            worker = stack.start_worker("actions.inquire")
            await wait_for_terminals(js, tenant, ended, within=120)
            await wait_for_in_flight(js, DURABLE)
            worker.kill()

        stack.start_worker("actions.inquire")
        await wait_for_terminals(js, tenant, REQUESTS, within=150)
        terminals = await terminal_events(js, tenant)
        history = await ConversationStore(redis).messages(tenant, THREAD)
        info = await js.consumer_info("ACTIONS", DURABLE)
        await redis.aclose()
    assert_exactly_once(requests, terminals, history)
    assert {t["type"] for t in terminals} == {"response"}, "every request answered, none failed"
    assert (info.num_pending, info.num_ack_pending) == (0, 0)
