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
    fault_stack,
    index_policy,
    inquiries,
    jetstream,
    new_conversation,
    publish_all,
    terminal_events,
    wait_for_terminals,
)

pytestmark = [pytest.mark.faults, pytest.mark.integration]

REQUESTS = 60


async def test_nats_restart_under_load_loses_nothing(tmp_path: Path) -> None:
    tenant = "acme"
    async with fault_stack(tmp_path) as stack, jetstream(stack.nats_url) as js:
        await index_policy(tmp_path / "qdrant", tenant)
        redis = Redis.from_url(stack.redis_url, decode_responses=True)
        await new_conversation(redis, tenant)
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
        terminals = await terminal_events(js, tenant)
        history = await ConversationStore(redis).messages(tenant, THREAD)
        await redis.aclose()
        assert all(w.running for w in stack.workers), "the worker rode out the restart"
    assert_exactly_once(requests, terminals, history)
    assert {t["type"] for t in terminals} == {"response"}


async def test_valkey_restart_keeps_conversations_and_loses_nothing(tmp_path: Path) -> None:
    tenant = "acme"
    async with fault_stack(tmp_path) as stack, jetstream(stack.nats_url) as js:
        await index_policy(tmp_path / "qdrant", tenant)
        redis = Redis.from_url(stack.redis_url, decode_responses=True)
        await new_conversation(redis, tenant)
        stack.start_worker("actions.inquire")
        requests = inquiries(tenant, REQUESTS)
        publishing = asyncio.create_task(publish_all(js, requests, pause=0.05))
        await wait_for_terminals(js, tenant, REQUESTS // 3, within=90)

        store = ConversationStore(redis)
        before_restart = await store.messages(tenant, THREAD)
        assert len(before_restart) >= REQUESTS // 3
        assert stack.valkey is not None
        stack.valkey.stop()
        await asyncio.sleep(1.0)  # the worker meets a Redis that is down and retries with back-off
        stack.start_valkey()
        await redis.aclose()  # its connections died with the server
        redis = Redis.from_url(stack.redis_url, decode_responses=True)
        store = ConversationStore(redis)
        assert await store.get(tenant, USER, THREAD) is not None

        await publishing
        await wait_for_terminals(js, tenant, REQUESTS, within=120)
        terminals = await terminal_events(js, tenant)
        history = await store.messages(tenant, THREAD)
        await redis.aclose()
    assert_exactly_once(requests, terminals, history)
    assert {t["type"] for t in terminals} == {"response"}
    assert history[: len(before_restart)] == before_restart, "what was there before the restart is intact"
