"""Request deadlines against a real Valkey: expired requests are claimed once, and only when due."""

import asyncio
import time

import pytest
from redis.asyncio import Redis

from policypal.state import DeadlineBook, PendingRequest

pytestmark = pytest.mark.integration


def _pending(request_id: str, deadline: float) -> PendingRequest:
    return PendingRequest(
        tenant_id="acme", user_id="alice", request_id=request_id, thread_id="c1", deadline=deadline
    )


async def test_only_expired_requests_are_claimed(redis_client: Redis) -> None:
    book = DeadlineBook(redis_client)
    await book.register(_pending("due", FUTURE - 1))
    await book.register(_pending("later", FUTURE + 60))
    assert [p.request_id for p in await book.claim_expired(FUTURE)] == ["due"]
    assert await book.claim_expired(FUTURE) == []
    assert [p.request_id for p in await book.claim_expired(FUTURE + 61)] == ["later"]


# Deadlines far in the future: a resolver's reaper running elsewhere on this Valkey (real clock)
# must not take them; the test claims them with its own clock.
FUTURE = time.time() + 10**6


async def test_registering_twice_keeps_one_entry(redis_client: Redis) -> None:
    book = DeadlineBook(redis_client)
    await book.register(_pending("r1", FUTURE))
    await book.register(_pending("r1", FUTURE))
    assert len(await book.claim_expired(FUTURE + 1)) == 1


async def test_racing_reapers_each_get_a_request_once(redis_client: Redis) -> None:
    book = DeadlineBook(redis_client)
    for i in range(50):
        await book.register(_pending(f"r{i}", FUTURE))
    first, second = await asyncio.gather(book.claim_expired(FUTURE + 1), book.claim_expired(FUTURE + 1))
    claimed = [p.request_id for p in first + second]
    assert sorted(claimed) == sorted(f"r{i}" for i in range(50))
