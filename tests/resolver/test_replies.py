"""The resolver ends a request the way a worker does: one ledger round trip, then the event published once.

Redis commands are counted as the client sends them (none are pipelined, so each is a round trip)
against a real Valkey; the event is read back from a real JetStream.
"""

import asyncio
import uuid
from collections.abc import AsyncIterator
from typing import Any

import pytest
from faststream.nats import NatsBroker
from nats.js import JetStreamContext
from redis.asyncio import Redis

from policypal.contracts import ErrorEvent
from policypal.contracts.codes import ErrorCode
from policypal.devstack import ManagedProcess
from policypal.state import ConversationRecord, ConversationStore, RequestLedger
from resolver.replies import end_request
from tests.support.jetstream import payload, stream_messages, wait_for_messages

pytestmark = pytest.mark.integration


class CountingRedis(Redis):
    """A Redis client that notes the name of every command it sends."""

    sent: list[str]

    async def execute_command(self, *args: Any, **options: Any) -> Any:
        self.sent.append(str(args[0]).upper())
        return await super().execute_command(*args, **options)  # type: ignore[no-untyped-call]


@pytest.fixture
async def counting_redis(valkey_server: ManagedProcess) -> AsyncIterator[CountingRedis]:
    assert valkey_server.port is not None
    client = CountingRedis(host="127.0.0.1", port=valkey_server.port, decode_responses=True)
    client.sent = []
    yield client
    await client.aclose()


def _error(conversation: ConversationRecord, request_id: str, message: str) -> ErrorEvent:
    return ErrorEvent(
        tenant_id=conversation.tenant_id,
        user_id=conversation.user_id,
        request_id=request_id,
        thread_id=conversation.conversation_id,
        code=ErrorCode.REQUEST_FAILED,
        message=message,
    )


async def test_a_request_ends_in_one_ledger_round_trip_and_a_redelivery_in_one(
    broker: NatsBroker, js: JetStreamContext, counting_redis: CountingRedis
) -> None:
    tenant = f"t{uuid.uuid4().hex[:8]}"
    conversation = ConversationRecord(
        conversation_id=f"c{uuid.uuid4().hex[:8]}", tenant_id=tenant, user_id="alice"
    )
    store, ledger = ConversationStore(counting_redis), RequestLedger(counting_redis)
    await store.create(conversation)
    # The first call of a script loads it into Valkey; count from the second request on.
    await end_request(
        _error(conversation, str(uuid.uuid4()), "warm"), conversation, broker=broker, ledger=ledger
    )
    request_id = str(uuid.uuid4())

    counting_redis.sent.clear()
    await end_request(_error(conversation, request_id, "first"), conversation, broker=broker, ledger=ledger)
    assert counting_redis.sent == ["EVALSHA", "SET"]  # record and keep; then mark published

    counting_redis.sent.clear()
    await end_request(_error(conversation, request_id, "again"), conversation, broker=broker, ledger=ledger)
    assert counting_redis.sent == ["EVALSHA"]  # the first one stands, kept and published already

    subject = f"events.{tenant}.{conversation.conversation_id}.error"
    await wait_for_messages(js, "EVENTS", subject, count=2)
    await asyncio.sleep(0.2)
    ended = [payload(m) for m in await stream_messages(js, "EVENTS", subject)]
    assert [e["message"] for e in ended if e["request_id"] == request_id] == ["first"]
    history = await store.messages(tenant, conversation.conversation_id)
    assert [m.content for m in history if m.request_id == request_id] == ["first"]
