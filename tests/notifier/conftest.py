"""Fixtures of the notifier tests: a real notifier on NATS and Valkey, a publisher, SSE parsing."""

import json
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import httpx
import pytest
from faststream.nats import NatsBroker
from redis.asyncio import Redis

from notifier.app import create_app
from policypal.auth import EventTicketStore, Principal, ThreadKind
from policypal.bus import build_broker
from policypal.config import Settings
from policypal.devstack import ManagedProcess, free_port
from policypal.state import ConversationRecord, ConversationStore, DocumentCatalog, DocumentRecord
from tests.support.serving import serve


@dataclass(frozen=True)
class SseMessage:
    """One Server-Sent Event as a client sees it."""

    id: str | None
    event: str | None
    data: str

    @property
    def payload(self) -> dict[str, Any]:
        """The event's JSON."""
        parsed: dict[str, Any] = json.loads(self.data)
        return parsed


async def sse_messages(response: httpx.Response) -> AsyncIterator[SseMessage]:
    """Parse an open ``text/event-stream`` response; comments (pings) are skipped."""
    fields: dict[str, list[str]] = {}
    async for line in response.aiter_lines():
        if line == "":
            if "data" in fields:
                yield SseMessage(
                    id=fields.get("id", [None])[-1],
                    event=fields.get("event", [None])[-1],
                    data="\n".join(fields["data"]),
                )
            fields = {}
        elif not line.startswith(":"):
            name, _, value = line.partition(":")
            fields.setdefault(name, []).append(value.removeprefix(" "))


@pytest.fixture(scope="module")
def settings(nats_server: ManagedProcess, valkey_server: ManagedProcess) -> Settings:
    """Settings pointing at the test NATS and Valkey."""
    return Settings(
        NATS_URL=nats_server.url, REDIS_URL=valkey_server.url, environment="test", notifier_port=free_port()
    )


@pytest.fixture(scope="module")
async def notifier_url(settings: Settings) -> AsyncIterator[str]:
    """A notifier served by uvicorn in this process."""
    async with serve(create_app(settings), settings.notifier_port) as url:
        yield url


@pytest.fixture
async def client(notifier_url: str, redis_client: Redis) -> AsyncIterator[httpx.AsyncClient]:
    """An HTTP client of the notifier; Valkey is emptied first (by ``redis_client``)."""
    async with httpx.AsyncClient(base_url=notifier_url, timeout=10) as http:
        yield http


@pytest.fixture(scope="module")
async def broker(settings: Settings) -> AsyncIterator[NatsBroker]:
    """A publishing broker, as the workers have."""
    publisher = build_broker(settings)
    await publisher.start()
    yield publisher
    await publisher.stop()


async def ticket_for(
    redis: Redis, settings: Settings, principal: Principal, kind: ThreadKind, thread_id: str
) -> str:
    """An event ticket for ``principal`` to open the events of ``thread_id``, as the gateway issues it."""
    store = EventTicketStore(redis, settings.event_ticket_ttl_seconds)
    return (await store.issue(principal, kind, thread_id)).ticket


async def own_conversation(redis: Redis, tenant_id: str, user_id: str, conversation_id: str) -> None:
    """Record a conversation owned by ``user_id`` of ``tenant_id``."""
    record = ConversationRecord(conversation_id=conversation_id, tenant_id=tenant_id, user_id=user_id)
    await ConversationStore(redis).create(record)


async def own_document(redis: Redis, tenant_id: str, user_id: str, document_id: str) -> None:
    """Record a document owned by ``user_id`` of ``tenant_id``."""
    record = DocumentRecord(
        document_id=document_id,
        tenant_id=tenant_id,
        user_id=user_id,
        title="Policy",
        version="1",
        doc_type="policy",
        filename="p.pdf",
        content_type="application/pdf",
        size_bytes=1,
        sha256=document_id,
        request_id=f"r-{document_id}",
    )
    await DocumentCatalog(redis).create(record)
