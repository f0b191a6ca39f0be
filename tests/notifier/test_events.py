"""Server-Sent Events of conversations and documents from a real notifier over real HTTP."""

import asyncio
import json
import uuid

import httpx
import pytest
from faststream.nats import NatsBroker
from redis.asyncio import Redis

from policypal.auth import Principal, issue_token
from policypal.bus import publish_event
from policypal.config import Settings
from policypal.contracts import DocumentReady, IngestProgress, InterruptEvent, ResponseEvent, StatusEvent
from policypal.contracts.streams import EVENTS
from policypal.contracts.subjects import thread_events_filter
from tests.gateway.conftest import new_id
from tests.notifier.conftest import SseMessage, own_conversation, own_document, sse_messages, ticket_for

pytestmark = pytest.mark.integration


class Thread:
    """One user's conversation and the events a worker would publish for it."""

    def __init__(self, settings: Settings, tenant_id: str | None = None) -> None:
        self.tenant_id = tenant_id or new_id("t")
        self.user_id = new_id("u")
        self.thread_id = new_id("c")
        self.token = issue_token(settings, self.tenant_id, self.user_id)
        self.headers = {"Authorization": f"Bearer {self.token}"}
        self.url = f"/v1/conversations/{self.thread_id}/events"

    async def ticket(self, redis: Redis, settings: Settings) -> str:
        """A single-use ticket that opens this thread's events."""
        principal = Principal(tenant_id=self.tenant_id, user_id=self.user_id)
        return await ticket_for(redis, settings, principal, "conversation", self.thread_id)

    def status(self, request_id: str, stage: str, **over: str) -> StatusEvent:
        fields = {"tenant_id": self.tenant_id, "user_id": self.user_id, "thread_id": self.thread_id, **over}
        return StatusEvent(request_id=request_id, stage=stage, message=stage, **fields)

    def response(self, request_id: str) -> ResponseEvent:
        return ResponseEvent(
            tenant_id=self.tenant_id,
            user_id=self.user_id,
            thread_id=self.thread_id,
            request_id=request_id,
            message_id=f"a-{request_id}",
            action="inquire",
            answer="Article 5 lists the principles.",
            model="offline-extractive",
        )


@pytest.fixture
async def thread(settings: Settings, redis_client: Redis) -> Thread:
    made = Thread(settings)
    await own_conversation(redis_client, made.tenant_id, made.user_id, made.thread_id)
    return made


async def collect(response: httpx.Response, count: int | None = None) -> list[SseMessage]:
    """Messages until the server ends the stream, or until ``count`` arrived (5 s at most)."""
    got: list[SseMessage] = []
    async with asyncio.timeout(5):
        async for message in sse_messages(response):
            got.append(message)
            if count is not None and len(got) == count:
                break
    return got


async def test_replays_in_order_and_ends_after_the_terminal_event(
    client: httpx.AsyncClient, broker: NatsBroker, settings: Settings, thread: Thread
) -> None:
    request_id = str(uuid.uuid4())
    other_tenant = Thread(settings)
    other_tenant.thread_id = thread.thread_id  # same thread id, another tenant's subject
    other_thread = Thread(settings, tenant_id=thread.tenant_id)
    await publish_event(broker, thread.status(request_id, "resolving"))
    await publish_event(broker, other_tenant.status(request_id, "foreign-tenant"))
    await publish_event(broker, other_thread.status(request_id, "foreign-thread"))
    await publish_event(broker, thread.status(request_id, "retrieving"))
    await publish_event(broker, thread.status("another-request", "earlier-request"))
    await publish_event(broker, thread.response(request_id))
    await publish_event(broker, thread.status(request_id, "after-the-end"))

    async with client.stream(
        "GET", thread.url, params={"request_id": request_id}, headers=thread.headers
    ) as r:
        assert r.status_code == 200
        assert r.headers["content-type"].startswith("text/event-stream")
        # So proxies pass events through at once (nginx buffers otherwise) and never cache them.
        assert (r.headers["cache-control"], r.headers["x-accel-buffering"]) == ("no-cache", "no")
        got = await collect(r)

    # Only that request's events: an earlier request's (its question, its end) never reach this client.
    assert [m.event for m in got] == ["status", "status", "response"]
    assert [m.payload.get("stage") for m in got[:2]] == ["resolving", "retrieving"]
    assert {m.payload["request_id"] for m in got} == {request_id}
    ids = [int(m.id or 0) for m in got]
    assert ids == sorted(ids)
    assert len(set(ids)) == 3
    assert {m.payload["tenant_id"] for m in got} == {thread.tenant_id}
    assert {m.payload["thread_id"] for m in got} == {thread.thread_id}


async def test_what_cannot_be_routed_is_skipped_and_a_newer_event_type_still_streams(
    client: httpx.AsyncClient, broker: NatsBroker, thread: Thread
) -> None:
    request_id = str(uuid.uuid4())
    base = {"tenant_id": thread.tenant_id, "user_id": thread.user_id, "thread_id": thread.thread_id}
    stored = [
        b"not json",
        b"[1, 2]",
        json.dumps(base | {"request_id": request_id, "type": "status\nid: 1"}).encode(),
        json.dumps(base | {"request_id": request_id, "type": 7}).encode(),
        json.dumps(base | {"request_id": request_id, "type": "status", "tenant_id": "someone-else"}).encode(),
        json.dumps(
            base | {"request_id": request_id, "type": "added.later", "note": "a newer producer"}
        ).encode(),
    ]
    subject = f"{thread_events_filter(thread.tenant_id, thread.thread_id)[:-1]}raw"
    for body in stored:
        await broker.publish(body, subject, stream=EVENTS.name)
    await publish_event(broker, thread.response(request_id))
    async with client.stream(
        "GET", thread.url, params={"request_id": request_id}, headers=thread.headers
    ) as r:
        got = await collect(r)
    assert [(m.event, m.payload["request_id"]) for m in got] == [
        ("added.later", request_id),
        ("response", request_id),
    ]


async def test_a_resumed_request_never_reads_the_earlier_question(
    client: httpx.AsyncClient, broker: NatsBroker, thread: Thread
) -> None:
    asked, resumed = str(uuid.uuid4()), str(uuid.uuid4())
    question = InterruptEvent(
        tenant_id=thread.tenant_id,
        user_id=thread.user_id,
        thread_id=thread.thread_id,
        request_id=asked,
        interrupt_id=f"interrupt-{asked}",
        interrupt_type="doc_choice",
        message="Which document?",
    )
    await publish_event(broker, thread.status(asked, "documents"))
    await publish_event(broker, question)
    async with client.stream("GET", thread.url, params={"request_id": resumed}, headers=thread.headers) as r:
        await publish_event(broker, thread.status(resumed, "validation"))
        await publish_event(broker, thread.response(resumed))
        got = await collect(r)
    # The stream ends at the resumed request's answer, not at the earlier question.
    assert [(m.event, m.payload["request_id"]) for m in got] == [("status", resumed), ("response", resumed)]


async def test_live_events_then_resume_after_last_event_id(
    client: httpx.AsyncClient, broker: NatsBroker, thread: Thread
) -> None:
    request_id = str(uuid.uuid4())
    async with client.stream("GET", thread.url, headers=thread.headers) as r:
        # Published after the client connected: the stream follows live events.
        await publish_event(broker, thread.status(request_id, "resolving"))
        await publish_event(broker, thread.status(request_id, "retrieving"))
        first = await collect(r, count=2)
    await publish_event(broker, thread.response(request_id))

    last_seen = first[-1].id
    assert last_seen is not None
    resumed_headers = {**thread.headers, "Last-Event-ID": last_seen}
    async with client.stream(
        "GET", thread.url, params={"request_id": request_id}, headers=resumed_headers
    ) as r:
        resumed = await collect(r)
    assert [m.event for m in resumed] == ["response"]
    assert int(resumed[0].id or 0) > int(last_seen)

    # The same with the query parameter, for clients that cannot set the header.
    params = {"request_id": request_id, "last_event_id": last_seen}
    async with client.stream("GET", thread.url, params=params, headers=thread.headers) as r:
        assert [m.event for m in await collect(r)] == ["response"]

    # An EventSource reconnecting after the end is told to stop (204), not left hanging.
    ended = {**thread.headers, "Last-Event-ID": resumed[0].id or ""}
    done = await client.get(thread.url, params={"request_id": request_id}, headers=ended)
    assert done.status_code == 204


async def test_document_events_with_a_ticket(
    client: httpx.AsyncClient, broker: NatsBroker, settings: Settings, redis_client: Redis
) -> None:
    tenant, user, document_id, request_id = new_id("t"), new_id("u"), new_id("d"), str(uuid.uuid4())
    await own_document(redis_client, tenant, user, document_id)
    common = {"tenant_id": tenant, "user_id": user, "thread_id": document_id, "request_id": request_id}
    await publish_event(
        broker, IngestProgress(**common, document_id=document_id, stage="parsing", message="Parsing")
    )
    await publish_event(
        broker, DocumentReady(**common, document_id=document_id, pages=3, chunks=9, parser="pypdf")
    )

    ticket = await ticket_for(
        redis_client, settings, Principal(tenant_id=tenant, user_id=user), "document", document_id
    )
    params = {"ticket": ticket, "request_id": request_id}
    async with client.stream("GET", f"/v1/documents/{document_id}/events", params=params) as r:
        assert r.status_code == 200
        got = await collect(r)
    assert [m.event for m in got] == ["ingest.progress", "document.ready"]
    assert got[1].payload["chunks"] == 9


async def test_a_disconnect_removes_the_consumer(
    client: httpx.AsyncClient, broker: NatsBroker, thread: Thread
) -> None:
    js = broker.connection.jetstream()
    before = (await js.stream_info(EVENTS.name)).state.consumer_count
    async with client.stream("GET", thread.url, headers=thread.headers) as r:
        await publish_event(broker, thread.status("r1", "resolving"))
        await collect(r, count=1)
        assert (await js.stream_info(EVENTS.name)).state.consumer_count == before + 1
    # The notifier deletes the consumer when the client goes; poll (no event to wait on across processes).
    for _ in range(100):
        if (await js.stream_info(EVENTS.name)).state.consumer_count == before:
            break
        await asyncio.sleep(0.05)
    assert (await js.stream_info(EVENTS.name)).state.consumer_count == before


async def test_strangers_get_401_or_404(
    client: httpx.AsyncClient, settings: Settings, thread: Thread, redis_client: Redis
) -> None:
    missing = await client.get(thread.url)
    assert missing.status_code == 401
    assert missing.headers["www-authenticate"] == "Bearer"
    expired = issue_token(settings, thread.tenant_id, thread.user_id, ttl_seconds=-5)
    assert (await client.get(thread.url, params={"access_token": expired})).status_code == 401
    assert (await client.get(thread.url, params={"access_token": "garbage"})).status_code == 401

    document_id = new_id("d")
    await own_document(redis_client, thread.tenant_id, thread.user_id, document_id)
    for stranger in (Thread(settings), Thread(settings, tenant_id=thread.tenant_id)):
        conversation = await client.get(thread.url, headers=stranger.headers)
        assert conversation.status_code == 404
        assert conversation.json() == {"detail": "No such conversation."}
        document = await client.get(f"/v1/documents/{document_id}/events", headers=stranger.headers)
        assert document.status_code == 404

    # Ids become subject tokens: wildcards never reach NATS.
    wildcard = await client.get("/v1/conversations/a.>/events", headers=thread.headers)
    assert wildcard.status_code in (404, 422)
    bad_resume = await client.get(thread.url, headers={**thread.headers, "Last-Event-ID": "x"})
    assert bad_resume.status_code == 400


async def test_health_and_readiness(client: httpx.AsyncClient) -> None:
    assert (await client.get("/healthz")).json() == {"status": "ok", "checks": {}}
    ready = await client.get("/readyz")
    assert ready.json() == {"status": "ok", "checks": {"nats": True, "redis": True}}
