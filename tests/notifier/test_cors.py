"""The widget's EventSource from a tenant's site: CORS only for origins some tenant allows (real notifier)."""

import httpx
import pytest
from faststream.nats import NatsBroker
from redis.asyncio import Redis

from policypal.auth.cors import FORBIDDEN_ORIGIN, AllowedOrigins
from policypal.bus import publish_event
from policypal.config import Settings
from tests.gateway.conftest import new_id
from tests.notifier.conftest import own_conversation
from tests.notifier.test_events import Thread, collect

pytestmark = pytest.mark.integration

DOMAINS = ["shop.example.com", "*.brand.example.org", "portal.example.net:8443"]


def preflight(origin: str) -> dict[str, str]:
    return {
        "Origin": origin,
        "Access-Control-Request-Method": "GET",
        "Access-Control-Request-Headers": "last-event-id",
    }


async def owned_thread(settings: Settings, redis: Redis) -> Thread:
    made = Thread(settings)
    await own_conversation(redis, made.tenant_id, made.user_id, made.thread_id)
    return made


def cors_headers(response: httpx.Response) -> list[str]:
    return [h for h in response.headers if h.startswith("access-control-")]


@pytest.mark.parametrize(
    "origin", ["https://shop.example.com", "http://shop.example.com:8080", "https://a.b.brand.example.org"]
)
async def test_an_allowed_origin_reads_the_stream(
    client: httpx.AsyncClient,
    broker: NatsBroker,
    settings: Settings,
    redis_client: Redis,
    origin: str,
) -> None:
    thread = await owned_thread(settings, redis_client)
    # The index the gateway keeps when a tenant saves its allowed domains.
    await AllowedOrigins(redis_client).replace(thread.tenant_id, [], DOMAINS)

    answered = await client.options(thread.url, headers=preflight(origin))
    assert answered.status_code == 204
    assert answered.headers["access-control-allow-origin"] == origin
    assert answered.headers["access-control-allow-methods"] == "GET"
    assert "Last-Event-ID" in answered.headers["access-control-allow-headers"]
    assert "access-control-allow-credentials" not in answered.headers

    # EventSource sends no headers of its own: a single-use ticket travels in the query.
    params = {"ticket": await thread.ticket(redis_client, settings), "request_id": "r1"}
    async with client.stream("GET", thread.url, params=params, headers={"Origin": origin}) as stream:
        assert stream.status_code == 200
        assert stream.headers["access-control-allow-origin"] == origin
        assert "Origin" in stream.headers["vary"]
        assert stream.headers["content-type"].startswith("text/event-stream")
        await publish_event(broker, thread.status("r1", "resolving"))
        await publish_event(broker, thread.response("r1"))
        assert [m.event for m in await collect(stream)] == ["status", "response"]

    # Errors are readable by the page too; the token still decides.
    refused = await client.get(thread.url, headers={"Origin": origin})
    assert refused.status_code == 401
    assert refused.headers["access-control-allow-origin"] == origin
    stranger = Thread(settings, tenant_id=thread.tenant_id)
    stranger_ticket = await stranger.ticket(redis_client, settings)
    other_user = await client.get(thread.url, params={"ticket": stranger_ticket}, headers={"Origin": origin})
    assert other_user.status_code == 404
    assert other_user.headers["access-control-allow-origin"] == origin


@pytest.mark.parametrize(
    "origin",
    [
        "https://evil.example.net",
        "https://shop.example.com.evil.net",
        "https://brand.example.org",  # *.brand.example.org is subdomains only
        "https://portal.example.net",  # only port 8443 was allowed
        "null",
        "not an origin",
    ],
)
async def test_another_origin_gets_no_cors(
    client: httpx.AsyncClient, broker: NatsBroker, settings: Settings, redis_client: Redis, origin: str
) -> None:
    thread = await owned_thread(settings, redis_client)
    await AllowedOrigins(redis_client).replace(thread.tenant_id, [], DOMAINS)

    answered = await client.options(thread.url, headers=preflight(origin))
    assert answered.status_code == 403
    assert answered.text == FORBIDDEN_ORIGIN
    assert cors_headers(answered) == []

    # Served as without CORS: the browser will not let the page read it. (Read to its end, so the
    # notifier has let go of the stream's consumer before the next test counts consumers.)
    await publish_event(broker, thread.response("r1"))
    params = {"ticket": await thread.ticket(redis_client, settings), "request_id": "r1"}
    async with client.stream("GET", thread.url, params=params, headers={"Origin": origin}) as r:
        assert r.status_code == 200
        assert cors_headers(r) == []
        assert [m.event for m in await collect(r)] == ["response"]


async def test_an_origin_goes_when_no_tenant_allows_it_any_more(
    client: httpx.AsyncClient, settings: Settings, redis_client: Redis
) -> None:
    thread = await owned_thread(settings, redis_client)
    origins = AllowedOrigins(redis_client)
    other = new_id("t")
    await origins.replace(thread.tenant_id, [], ["shared.example.com"])
    await origins.replace(other, [], ["shared.example.com"])
    origin = "https://shared.example.com"
    await origins.replace(thread.tenant_id, ["shared.example.com"], [])
    assert (
        await client.options(thread.url, headers=preflight(origin))
    ).status_code == 204  # still the other's
    await origins.replace(other, ["shared.example.com"], [])
    assert (await client.options(thread.url, headers=preflight(origin))).status_code == 403


@pytest.mark.parametrize("host", ["127.0.0.1", "localhost"])
async def test_the_gateways_web_console_reads_streams_without_any_tenant_allowing_it(
    client: httpx.AsyncClient, broker: NatsBroker, settings: Settings, redis_client: Redis, host: str
) -> None:
    # The console is served by the gateway: settings.api_base_url, http://127.0.0.1:<port> here.
    origin = f"http://{host}:{settings.port}"
    thread = await owned_thread(settings, redis_client)
    answered = await client.options(thread.url, headers=preflight(origin))
    assert answered.status_code == 204
    assert answered.headers["access-control-allow-origin"] == origin

    await publish_event(broker, thread.response("r1"))
    params = {"ticket": await thread.ticket(redis_client, settings), "request_id": "r1"}
    async with client.stream("GET", thread.url, params=params, headers={"Origin": origin}) as stream:
        assert stream.status_code == 200
        assert stream.headers["access-control-allow-origin"] == origin
        assert [m.event for m in await collect(stream)] == ["response"]


@pytest.mark.parametrize(
    "origin", ["http://127.0.0.1:{other}", "http://127.0.0.1", "https://127.0.0.1:{port}"]
)
async def test_only_the_gateways_exact_origin_is_admitted(
    client: httpx.AsyncClient, settings: Settings, redis_client: Redis, origin: str
) -> None:
    thread = await owned_thread(settings, redis_client)
    other = origin.format(other=settings.port + 1, port=settings.port)
    answered = await client.options(thread.url, headers=preflight(other))
    assert answered.status_code == 403
    assert cors_headers(answered) == []
