"""The vector store is unavailable: users get a clear error event per request, nothing is lost or
doubled, and the system recovers once the store is back.

No Qdrant server can run here (no binary in any reachable registry, no Docker), so the outage is what
a deployment sees when its Qdrant server is down: the action worker is configured with a QDRANT_URL
where nothing listens. It refuses to start (it checks the collection at start-up), so requests wait
in the work queue, and the resolver's deadline reaper ends each with a ``deadline_exceeded`` error.
"Back" is the worker starting against a reachable store (the local one holding the index).
"""

import time
from pathlib import Path

import pytest
from redis.asyncio import Redis

from actions.inquire.service import DURABLE
from policypal.devstack import free_port
from policypal.state import DeadlineBook, PendingRequest
from tests.faults.stack import (
    THREAD,
    USER,
    assert_exactly_once,
    conversation_outcome,
    inquiries,
    policy_conversation,
    publish_all,
    wait_for_terminals,
)
from tests.support.jetstream import wait_until_consumed

pytestmark = [pytest.mark.faults, pytest.mark.integration]

DEADLINE_SECONDS = 4.0


async def test_outage_ends_requests_with_clear_errors_then_recovers(tmp_path: Path) -> None:
    tenant = "acme"
    async with policy_conversation(tmp_path, tenant) as (stack, js, redis):
        stack.start_worker(
            "resolver",
            POLICYPAL_CHAT_DEADLINE_SECONDS=str(DEADLINE_SECONDS),
            POLICYPAL_DEADLINE_CHECK_SECONDS="0.2",
        )
        down = stack.start_worker("actions.inquire", QDRANT_URL=f"http://127.0.0.1:{free_port()}")
        during = inquiries(tenant, 5)
        for request in during:
            await _register_deadline(redis, request.request_id)
        await publish_all(js, during)

        errors = await wait_for_terminals(js, tenant, len(during), within=60)
        assert errors == len(during)
        assert down.popen.wait(timeout=60) != 0, "the worker must not run without its vector store"
        assert down.log_path is not None
        assert "connection attempts failed" in down.log_path.read_text()
        queued = await js.stream_info("ACTIONS")
        assert queued.state.messages == len(during), "the requests wait in the work queue, none lost"

        stack.start_worker("actions.inquire")  # the vector store is back
        after = inquiries(tenant, 5)
        await publish_all(js, after)
        await wait_for_terminals(js, tenant, len(during) + len(after), within=90)
        # The late deliveries of the expired requests are settled too, without ending them twice.
        await wait_until_consumed(js, "ACTIONS", DURABLE, within=60)
        terminals, history = await conversation_outcome(js, redis, tenant)

    assert_exactly_once(during + after, terminals, history)
    by_request = {t["request_id"]: t for t in terminals}
    for request in during:
        error = by_request[request.request_id]
        assert (error["type"], error["code"], error["retryable"]) == ("error", "deadline_exceeded", True)
        assert "could not finish this request" in error["message"]
    assert {by_request[r.request_id]["type"] for r in after} == {"response"}


async def _register_deadline(redis: Redis, request_id: str) -> None:
    """What the gateway does when it accepts a chat request (gateway.deadlines.register_deadline)."""
    await DeadlineBook(redis).register(
        PendingRequest(
            tenant_id="acme",
            user_id=USER,
            request_id=request_id,
            thread_id=THREAD,
            deadline=time.time() + DEADLINE_SECONDS,
        )
    )
