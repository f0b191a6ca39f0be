"""No event is lost: resume mid-answer, several notifier processes, keep-alive, scoped credentials."""

import asyncio
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from faststream.nats import NatsBroker
from redis.asyncio import Redis

import notifier.streaming
from policypal.auth import ApiKeyStore, issue_token, verify_token
from policypal.bus import publish_event
from policypal.config import Settings
from policypal.contracts import ResponseEvent, TokenEvent
from policypal.devstack import ManagedProcess, free_port
from tests.gateway.conftest import new_id
from tests.notifier.conftest import SseMessage, own_conversation, sse_messages, ticket_for

pytestmark = pytest.mark.integration


class Answer:
    """A conversation whose answer streams as token events, then one response."""

    def __init__(self, settings: Settings) -> None:
        self.tenant_id, self.user_id, self.thread_id = new_id("t"), new_id("u"), new_id("c")
        self.request_id = str(uuid.uuid4())
        self.headers = {"Authorization": f"Bearer {issue_token(settings, self.tenant_id, self.user_id)}"}
        self.url = f"/v1/conversations/{self.thread_id}/events"

    def token(self, index: int) -> TokenEvent:
        return TokenEvent(
            tenant_id=self.tenant_id,
            user_id=self.user_id,
            thread_id=self.thread_id,
            request_id=self.request_id,
            message_id="m1",
            index=index,
            text=f"w{index} ",
        )

    def response(self) -> ResponseEvent:
        return ResponseEvent(
            tenant_id=self.tenant_id,
            user_id=self.user_id,
            thread_id=self.thread_id,
            request_id=self.request_id,
            message_id="m1",
            action="inquire",
            answer="done",
            model="offline-extractive",
        )


@pytest.fixture
async def answer(settings: Settings, redis_client: Redis) -> Answer:
    made = Answer(settings)
    await own_conversation(redis_client, made.tenant_id, made.user_id, made.thread_id)
    return made


async def read(response: httpx.Response, count: int | None = None, within: float = 10) -> list[SseMessage]:
    """Messages until the stream ends, or until ``count`` arrived."""
    got: list[SseMessage] = []
    async with asyncio.timeout(within):
        async for message in sse_messages(response):
            got.append(message)
            if count is not None and len(got) == count:
                break
    return got


def token_indexes(messages: list[SseMessage]) -> list[int]:
    return [m.payload["index"] for m in messages if m.event == "token"]


async def test_disconnect_mid_answer_then_resume_has_no_gap_and_no_duplicate(
    client: httpx.AsyncClient, broker: NatsBroker, answer: Answer
) -> None:
    async with client.stream(
        "GET", answer.url, params={"request_id": answer.request_id}, headers=answer.headers
    ) as r:
        for index in range(10):
            await publish_event(broker, answer.token(index))
        first = await read(r, count=4)  # the client goes away after 4 of the 10 tokens
    # While it is away the answer goes on.
    for index in range(10, 30):
        await publish_event(broker, answer.token(index))
    await publish_event(broker, answer.response())

    headers = {**answer.headers, "Last-Event-ID": first[-1].id or ""}
    async with client.stream(
        "GET", answer.url, params={"request_id": answer.request_id}, headers=headers
    ) as r:
        rest = await read(r)

    everything = first + rest
    assert token_indexes(everything) == list(range(30))
    assert [m.event for m in everything][-1] == "response"
    ids = [int(m.id or 0) for m in everything]
    assert ids == sorted(set(ids))  # strictly increasing: no duplicate, in order


async def test_a_slow_reader_misses_nothing(
    client: httpx.AsyncClient, broker: NatsBroker, answer: Answer
) -> None:
    # 300 events published before the client reads any: replay and live hand-over keep every one.
    for index in range(300):
        await publish_event(broker, answer.token(index))
    await publish_event(broker, answer.response())
    async with client.stream(
        "GET", answer.url, params={"request_id": answer.request_id}, headers=answer.headers
    ) as r:
        got = await read(r)
    assert token_indexes(got) == list(range(300))


async def test_keep_alive_comments_while_idle(
    client: httpx.AsyncClient, answer: Answer, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The notifier sends ': ping' when the stream is idle (every 15 s); shortened here to keep the test fast.
    monkeypatch.setattr(notifier.streaming, "PING_INTERVAL_SECONDS", 0.2)
    async with client.stream("GET", answer.url, headers=answer.headers) as r:
        async with asyncio.timeout(5):
            async for line in r.aiter_lines():
                if line.startswith(":"):
                    assert line == ": ping"
                    break


async def test_widget_tickets_and_scoped_api_keys(
    client: httpx.AsyncClient, broker: NatsBroker, settings: Settings, redis_client: Redis
) -> None:
    tenant, conversation = new_id("t"), new_id("c")
    visitor = f"anon_{uuid.uuid4().hex}"
    await own_conversation(redis_client, tenant, visitor, conversation)
    token = issue_token(settings, tenant, visitor, 60, role="customer", conversation_id=conversation)
    customer = verify_token(settings, token)
    url = f"/v1/conversations/{conversation}/events"
    ticket = await ticket_for(redis_client, settings, customer, "conversation", conversation)
    async with client.stream("GET", url, params={"ticket": ticket}) as r:
        assert r.status_code == 200
    # A customer may not follow documents; an ingest-only API key may not follow conversations.
    bearer = {"Authorization": f"Bearer {token}"}
    assert (await client.get("/v1/documents/d1/events", headers=bearer)).status_code == 403
    _, ingest_key = await ApiKeyStore(redis_client).create(tenant, "bot", ["ingest"], created_by="admin")
    assert (await client.get(url, headers={"X-API-Key": ingest_key})).status_code == 403
    # Another visitor of the same tenant: 404, with its token or with a ticket of its own.
    other = issue_token(settings, tenant, "anon_other", 60, role="customer", conversation_id="c2")
    assert (await client.get(url, headers={"Authorization": f"Bearer {other}"})).status_code == 404
    other_ticket = await ticket_for(
        redis_client, settings, verify_token(settings, other), "conversation", conversation
    )
    assert (await client.get(url, params={"ticket": other_ticket})).status_code == 404
    # Even bound to this conversation's id, another visitor's token does not reach it.
    squatter = issue_token(settings, tenant, "anon_y", 60, role="customer", conversation_id=conversation)
    assert (await client.get(url, headers={"Authorization": f"Bearer {squatter}"})).status_code == 404


@pytest.fixture
def notifier_processes(settings: Settings, tmp_path: Path) -> Iterator[list[str]]:
    """Two notifier processes (``python -m notifier``) on the same NATS and Redis."""
    started: list[ManagedProcess] = []
    try:
        for replica in range(2):
            port = free_port()
            env = {
                **settings.as_environment(),
                "POLICYPAL_NOTIFIER_PORT": str(port),
                "POLICYPAL_LOG_LEVEL": "WARNING",
            }
            started.append(
                ManagedProcess.start(
                    f"notifier-{replica}",
                    [sys.executable, "-m", "notifier"],
                    port=port,
                    url=f"http://127.0.0.1:{port}",
                    env=env,
                    log_path=tmp_path / f"notifier-{replica}.log",
                )
            )
        yield [str(proc.url) for proc in started]
    finally:
        for proc in started:
            proc.stop()


async def _follow(base_url: str, answer: Answer, ready: asyncio.Event) -> list[SseMessage]:
    async with httpx.AsyncClient(base_url=base_url, timeout=10) as http:
        params = {"request_id": answer.request_id}
        async with http.stream("GET", answer.url, params=params, headers=answer.headers) as r:
            assert r.status_code == 200
            ready.set()
            return await read(r, within=20)


async def test_two_notifier_processes_each_deliver_every_event(
    notifier_processes: list[str], broker: NatsBroker, answer: Answer
) -> None:
    readiness = [asyncio.Event() for _ in range(6)]
    # Three clients on each process, connected before anything is published.
    followers = [
        asyncio.create_task(_follow(notifier_processes[i % 2], answer, readiness[i])) for i in range(6)
    ]
    async with asyncio.timeout(10):
        await asyncio.gather(*(ready.wait() for ready in readiness))
    for index in range(50):
        await publish_event(broker, answer.token(index))
    await publish_event(broker, answer.response())
    results = await asyncio.gather(*followers)
    for got in results:
        assert token_indexes(got) == list(range(50))
        assert got[-1].event == "response"
    assert len({tuple(m.id for m in got) for got in results}) == 1  # the same ids everywhere
