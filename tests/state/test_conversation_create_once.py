"""Storing a widget visitor's reserved conversation once, however many first messages race (real Valkey)."""

import asyncio

import pytest
from redis.asyncio import Redis

from policypal.state import ConversationRecord, ConversationStore

pytestmark = pytest.mark.integration


async def test_racing_first_messages_store_one_conversation(redis_client: Redis) -> None:
    store = ConversationStore(redis_client)
    drafts = [
        ConversationRecord(conversation_id="c1", tenant_id="acme", user_id="anon_1", title=f"draft {n}")
        for n in range(10)
    ]
    stored = await asyncio.gather(*(store.create_once(draft) for draft in drafts))
    assert len({record.title for record in stored}) == 1
    assert await store.get("acme", "anon_1", "c1") == stored[0]
    assert [record.conversation_id for record in await store.recent("acme", "anon_1")] == ["c1"]


async def test_an_existing_conversation_is_kept_whoever_asks(redis_client: Redis) -> None:
    store = ConversationStore(redis_client)
    assert not await store.exists("acme", "c1")
    mine = ConversationRecord(conversation_id="c1", tenant_id="acme", user_id="alice", title="Mine")
    await store.create(mine)
    assert await store.exists("acme", "c1")
    assert not await store.exists("globex", "c1")
    taken = await store.create_once(
        ConversationRecord(conversation_id="c1", tenant_id="acme", user_id="anon_2")
    )
    assert (taken.user_id, taken.title) == ("alice", "Mine")
    assert await store.recent("acme", "anon_2") == []
