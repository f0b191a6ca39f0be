"""Every chat message the gateway accepts is registered with its deadline (docs/architecture.md,
Invariant: one terminal event per request)."""

import time

import httpx
import pytest
from redis.asyncio import Redis

from policypal.config import Settings
from policypal.state import DeadlineBook
from tests.support.gateway_client import new_conversation

pytestmark = pytest.mark.integration


async def test_posted_message_gets_a_deadline(
    client: httpx.AsyncClient, auth: dict[str, str], settings: Settings, redis_client: Redis
) -> None:
    conversation_id = await new_conversation(client, auth)
    before = time.time()
    accepted = await client.post(
        f"/v1/conversations/{conversation_id}/messages", headers=auth, json={"text": "hi"}
    )
    assert accepted.status_code == 202
    due = await DeadlineBook(redis_client).claim_expired(now=before + settings.chat_deadline_seconds + 5)
    mine = [p for p in due if p.request_id == accepted.json()["request_id"]]
    assert len(mine) == 1
    assert mine[0].thread_id == conversation_id
    assert (
        before + settings.chat_deadline_seconds
        <= mine[0].deadline
        <= time.time() + settings.chat_deadline_seconds
    )
