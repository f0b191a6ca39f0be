"""Kill -9 an action worker with many requests in flight; after a restart every request has exactly one
terminal event and its conversation history holds no duplicate (docs/architecture.md, Invariant: one
terminal event per request; Invariant: effectively once)."""

import asyncio
from pathlib import Path

import pytest

from actions.inquire.service import DURABLE
from tests.faults.stack import (
    assert_exactly_once,
    conversation_outcome,
    inquiries,
    policy_conversation,
    publish_request,
    wait_for_in_flight,
    wait_for_terminals,
)

pytestmark = [pytest.mark.faults, pytest.mark.integration]

REQUESTS = 100
#: The worker is killed once this many requests have ended, each time while it holds one.
KILL_AFTER = (10, 45)


async def test_killed_worker_loses_and_doubles_nothing(tmp_path: Path) -> None:
    tenant = "acme"
    async with policy_conversation(tmp_path, tenant) as (stack, js, redis):
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
        terminals, history = await conversation_outcome(js, redis, tenant)
        # The worker acks a request just after publishing its terminal event (effects first): the
        # last ack may still be on its way when the last terminal is seen.
        info = await js.consumer_info("ACTIONS", DURABLE)
        for _ in range(50):
            if (info.num_pending, info.num_ack_pending) == (0, 0):
                break
            await asyncio.sleep(0.2)
            info = await js.consumer_info("ACTIONS", DURABLE)
    assert_exactly_once(requests, terminals, history)
    assert {t["type"] for t in terminals} == {"response"}, "every request answered, none failed"
    assert (info.num_pending, info.num_ack_pending) == (0, 0)
