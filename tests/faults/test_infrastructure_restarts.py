"""Restarting nats-server (file store) and Valkey (AOF) under load loses and doubles nothing.

Both are restarted with SIGTERM, as Kubernetes does on a rolling update or node drain, on the same
port and data directory (a persistent volume). Requests keep arriving meanwhile; the publisher retries
with the same Nats-Msg-Id as the resolver's publisher does.
"""

import asyncio
from pathlib import Path

import pytest
from redis.asyncio import Redis

from policypal.state import ConversationStore
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

pytestmark = [pytest.mark.faults, pytest.mark.integration]

REQUESTS = 60


async def test_nats_restart_under_load_loses_nothing(tmp_path: Path) -> None:
    tenant = "acme"
    async with policy_conversation(tmp_path, tenant) as (stack, js, redis):
        stack.start_worker("actions.inquire")
        requests = inquiries(tenant, REQUESTS)
        publishing = asyncio.create_task(publish_all(js, requests, pause=0.05))
        await wait_for_terminals(js, tenant, REQUESTS // 4, within=90)

        assert stack.nats is not None
        stack.nats.stop()
        await asyncio.sleep(1.0)  # requests keep coming: the publisher retries until the server is back
        stack.start_nats()

        await publishing
        await wait_for_terminals(js, tenant, REQUESTS, within=90)
        terminals, history = await conversation_outcome(js, redis, tenant)
        assert all(w.running for w in stack.workers), "the worker rode out the restart"
    assert_exactly_once(requests, terminals, history)
    assert {t["type"] for t in terminals} == {"response"}


async def test_valkey_restart_keeps_conversations_and_loses_nothing(tmp_path: Path) -> None:
    tenant = "acme"
    async with policy_conversation(tmp_path, tenant) as (stack, js, redis):
        stack.start_worker("actions.inquire")
        requests = inquiries(tenant, REQUESTS)
        publishing = asyncio.create_task(publish_all(js, requests, pause=0.05))
        await wait_for_terminals(js, tenant, REQUESTS // 3, within=90)

        before_restart = await ConversationStore(redis).messages(tenant, THREAD)
        assert len(before_restart) >= REQUESTS // 3
        assert stack.valkey is not None
        stack.valkey.stop()
        await asyncio.sleep(1.0)  # the worker meets a Redis that is down and retries with back-off
        stack.start_valkey()
        # The first client's connections died with the server: read through a new one.
        reconnected = Redis.from_url(stack.redis_url, decode_responses=True)
        try:
            assert await ConversationStore(reconnected).get(tenant, USER, THREAD) is not None
            await publishing
            await wait_for_terminals(js, tenant, REQUESTS, within=120)
            terminals, history = await conversation_outcome(js, reconnected, tenant)
        finally:
            await reconnected.aclose()
    assert_exactly_once(requests, terminals, history)
    assert {t["type"] for t in terminals} == {"response"}
    assert history[: len(before_restart)] == before_restart, "what was there before the restart is intact"
