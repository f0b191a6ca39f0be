"""SIGTERM a worker mid-request (a rolling update): its in-flight request is finished or handed back
at once, so the replacement completes everything without waiting for the ack timeout."""

import asyncio
import time
from pathlib import Path

import pytest

from actions.inquire.service import DURABLE
from tests.faults.stack import (
    assert_exactly_once,
    conversation_outcome,
    inquiries,
    policy_conversation,
    publish_all,
    wait_for_in_flight,
    wait_for_terminals,
)

pytestmark = [pytest.mark.faults, pytest.mark.integration]

REQUESTS = 40
#: Longer than the worker takes to stop, so a request abandoned by it would still be unsettled when
#: the test looks; short enough that the one delivery FastStream may strand comes back in the test.
ACK_WAIT = "20"


async def test_sigterm_finishes_or_returns_in_flight_work(tmp_path: Path) -> None:
    tenant = "acme"
    async with policy_conversation(tmp_path, tenant) as (stack, js, redis):
        requests = inquiries(tenant, REQUESTS)
        await publish_all(js, requests)

        leaving = stack.start_worker("actions.inquire", POLICYPAL_ACK_WAIT_SECONDS=ACK_WAIT)
        await wait_for_terminals(js, tenant, REQUESTS // 4, within=90)
        await wait_for_in_flight(js, DURABLE)
        started = time.monotonic()
        code = await asyncio.to_thread(leaving.stop, 30.0)
        stopped_in = time.monotonic() - started
        assert code == 0, f"the worker did not stop cleanly (exit code {code})"
        assert leaving.log_path is not None
        # Its Redis and Qdrant clients stay open until its last handler returned.
        assert "handler failed" not in leaving.log_path.read_text()
        info = await js.consumer_info("ACTIONS", DURABLE)
        # Every request the worker was handling is finished or handed back. One more may be unsettled:
        # a pull request in flight when FastStream (0.7.8) stops brings a message that its stopped
        # subscriber drops unhandled; it comes back after ack_wait (seen once in ~10 runs).
        assert info.num_ack_pending <= 1, "the stopped worker left requests unsettled"

        stack.start_worker("actions.inquire", POLICYPAL_ACK_WAIT_SECONDS=ACK_WAIT)
        await wait_for_terminals(js, tenant, REQUESTS, within=90)
        terminals, history = await conversation_outcome(js, redis, tenant)
    assert stopped_in < 25, f"shutdown took {stopped_in:.1f} s"
    assert_exactly_once(requests, terminals, history)
    assert {t["type"] for t in terminals} == {"response"}
