"""No credential in a URL: event streams open with single-use tickets the gateway issues.

A real gateway and a real notifier on NATS and Valkey, as a browser uses them: the bearer token goes
in a header to the gateway, only a ticket goes in the EventSource URL.
"""

import asyncio
from collections.abc import AsyncIterator
from urllib.parse import parse_qs, urlsplit

import httpx
import pytest
from faststream.nats import NatsBroker
from redis.asyncio import Redis

from notifier.app import create_app as create_notifier
from policypal.bus import publish_event
from policypal.config import Settings
from tests.notifier.conftest import broker, sse_messages  # noqa: F401 - broker is a fixture
from tests.notifier.test_events import Thread
from tests.support.gateway_client import admin, bearer, new_conversation, new_id, upload_titled
from tests.support.serving import serve

pytestmark = pytest.mark.integration


@pytest.fixture(scope="module")
async def notifier(settings: Settings) -> AsyncIterator[httpx.AsyncClient]:
    """A client of a notifier on the same NATS and Valkey as the gateway."""
    async with (
        serve(create_notifier(settings), settings.notifier_port) as url,
        httpx.AsyncClient(base_url=url, timeout=10) as http,
    ):
        yield http


async def widget_session(client: httpx.AsyncClient, settings: Settings, tenant: str) -> dict[str, str]:
    """A widget session of ``tenant``, its widget allowed on shop.example.com."""
    await client.put(
        "/v1/admin/tenant", headers=admin(settings, tenant), json={"allowed_domains": ["shop.example.com"]}
    )
    response = await client.post(
        "/v1/widget/sessions", headers={"Origin": "https://shop.example.com"}, json={"tenant_id": tenant}
    )
    assert response.status_code == 201, response.text
    session: dict[str, str] = response.json()
    return session


async def ticket(client: httpx.AsyncClient, path: str, headers: dict[str, str]) -> dict[str, str]:
    response = await client.post(path, headers=headers)
    assert response.status_code == 201, response.text
    body: dict[str, str] = response.json()
    return body


async def test_a_ticket_opens_its_stream_once(
    client: httpx.AsyncClient,
    notifier: httpx.AsyncClient,
    broker: NatsBroker,  # noqa: F811 - the imported fixture
    settings: Settings,
    redis_client: Redis,
) -> None:
    thread = Thread(settings)
    auth = thread.headers
    conversation = thread.thread_id = await new_conversation(client, auth)
    issued = await ticket(client, f"/v1/conversations/{conversation}/event-tickets", auth)
    events_url = urlsplit(issued["events_url"])
    assert issued["events_url"].startswith(
        f"{settings.events_base_url}/v1/conversations/{conversation}/events"
    )
    assert parse_qs(events_url.query) == {"ticket": [issued["ticket"]]}
    assert thread.token not in issued["events_url"]

    await publish_event(broker, thread.response("r1"))
    stream_path = f"{events_url.path}?{events_url.query}&request_id=r1"
    async with notifier.stream("GET", stream_path) as stream:
        assert stream.status_code == 200
        async with asyncio.timeout(5):
            got = [message.event async for message in sse_messages(stream)]
    assert got == ["response"]

    # Used once: the same URL (an EventSource's own reconnect) is refused, with what to do instead.
    again = await notifier.get(stream_path)
    assert again.status_code == 401
    assert "get a new one" in again.json()["detail"]
    # Nothing about the ticket is kept once used.
    assert [key async for key in redis_client.scan_iter(f"pp:{thread.tenant_id}:event_ticket:*")] == []


async def test_a_ticket_opens_only_its_own_thread_and_expires(
    client: httpx.AsyncClient, notifier: httpx.AsyncClient, settings: Settings, redis_client: Redis
) -> None:
    tenant, user = new_id("t"), new_id("u")
    auth = bearer(settings, tenant, user)
    first, second = await new_conversation(client, auth), await new_conversation(client, auth)
    issued = await ticket(client, f"/v1/conversations/{first}/event-tickets", auth)
    # The same user's other conversation is not what the ticket opens.
    wrong = await notifier.get(f"/v1/conversations/{second}/events", params={"ticket": issued["ticket"]})
    assert wrong.status_code == 404

    stale = await ticket(client, f"/v1/conversations/{first}/event-tickets", auth)
    async for key in redis_client.scan_iter(f"pp:{tenant}:event_ticket:*"):
        await redis_client.pexpire(key, 1)
    await asyncio.sleep(0.05)
    expired = await notifier.get(f"/v1/conversations/{first}/events", params={"ticket": stale["ticket"]})
    assert expired.status_code == 401

    forged = f"ppt.{tenant}.{'A' * 43}"
    assert (
        await notifier.get(f"/v1/conversations/{first}/events", params={"ticket": forged})
    ).status_code == 401


async def test_tickets_follow_ownership_and_scopes(client: httpx.AsyncClient, settings: Settings) -> None:
    tenant = new_id("t")
    owner, stranger = bearer(settings, tenant, new_id("u")), bearer(settings, tenant, new_id("u"))
    conversation = await new_conversation(client, owner)
    path = f"/v1/conversations/{conversation}/event-tickets"
    assert (await client.post(path, headers=stranger)).status_code == 404
    assert (await client.post(path)).status_code == 401

    document_id = await upload_titled(client, owner, "Retention Policy")
    documents_path = f"/v1/documents/{document_id}/event-tickets"
    issued = await ticket(client, documents_path, owner)
    assert f"/v1/documents/{document_id}/events?ticket=" in issued["events_url"]
    assert (await client.post(documents_path, headers=stranger)).status_code == 404

    # A widget visitor follows its conversation before it is stored, never documents.
    session = await widget_session(client, settings, tenant)
    visitor = {"Authorization": f"Bearer {session['token']}"}
    assert (await client.post(session["event_tickets_url"], headers=visitor)).status_code == 201
    assert (await client.post(documents_path, headers=visitor)).status_code == 403


async def test_the_widgets_stream_opens_with_a_ticket_before_its_first_message(
    client: httpx.AsyncClient, notifier: httpx.AsyncClient, settings: Settings
) -> None:
    session = await widget_session(client, settings, new_id("t"))
    visitor = {"Authorization": f"Bearer {session['token']}"}
    issued = await ticket(client, session["event_tickets_url"], visitor)
    stream_url = urlsplit(issued["events_url"])
    async with notifier.stream("GET", f"{stream_url.path}?{stream_url.query}") as stream:
        assert stream.status_code == 200
        assert stream.headers["content-type"].startswith("text/event-stream")


@pytest.mark.parametrize("name", ["token", "access_token", "api_key"])
async def test_a_credential_in_the_url_is_refused(
    client: httpx.AsyncClient, notifier: httpx.AsyncClient, settings: Settings, name: str
) -> None:
    tenant, user = new_id("t"), new_id("u")
    auth = bearer(settings, tenant, user)
    conversation = await new_conversation(client, auth)
    token = auth["Authorization"].removeprefix("Bearer ")
    refused = await notifier.get(f"/v1/conversations/{conversation}/events", params={name: token})
    assert refused.status_code == 401
    assert "not accepted in URLs" in refused.json()["detail"]
