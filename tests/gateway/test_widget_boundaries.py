"""Anonymous widget floods and customer tokens, against a real gateway on NATS and Valkey.

Each test is an attack that worked before: a flood of widget sessions spending the signed-in users'
budget and piling up conversations; a customer token starting conversations or reaching another one.
"""

import asyncio
import time
from collections import Counter

import httpx
import pytest
from redis.asyncio import Redis

from policypal.auth import issue_token
from policypal.config import Settings
from policypal.devstack import ManagedProcess
from policypal.state import ConversationRecord, ConversationStore
from tests.gateway.conftest import stack_settings
from tests.support.gateway_client import admin, bearer, new_id

pytestmark = pytest.mark.integration

SHOP = "https://shop.example.com"
#: A long window, so a test's requests never straddle two windows of the fixed-window counters.
WINDOW_SECONDS = 3600


@pytest.fixture(scope="module")
def settings(nats_server: ManagedProcess, valkey_server: ManagedProcess) -> Settings:
    """The defaults of a deployment, with a window long enough to count a whole test in one."""
    return stack_settings(nats_server, valkey_server, rate_limit_window_seconds=WINDOW_SECONDS)


async def widget_tenant(client: httpx.AsyncClient, settings: Settings, **limits: int) -> str:
    """A tenant whose widget may run on SHOP, with ``limits`` overriding the defaults."""
    tenant = new_id("t")
    body = {"allowed_domains": ["shop.example.com"], "limits": limits}
    response = await client.put("/v1/admin/tenant", headers=admin(settings, tenant), json=body)
    assert response.status_code == 200, response.text
    return tenant


async def open_session(client: httpx.AsyncClient, tenant: str, address: str | None = None) -> httpx.Response:
    """POST /v1/widget/sessions from SHOP; ``address`` as the client address a trusted proxy saw."""
    headers = {"Origin": SHOP}
    if address is not None:
        headers["X-Forwarded-For"] = address
    return await client.post("/v1/widget/sessions", headers=headers, json={"tenant_id": tenant})


async def stored_conversations(redis: Redis, tenant: str) -> int:
    """Conversation records stored for ``tenant``."""
    return len([key async for key in redis.scan_iter(f"pp:{tenant}:conv:*") if key.count(":") == 3])


async def in_one_window() -> None:
    """Start in a fresh stretch of a window: the counters of this test must all fall in one window, so
    within 120 s of its end, wait for the next one (at most 120 s) rather than flake or fail."""
    left = WINDOW_SECONDS - time.time() % WINDOW_SECONDS
    if left < 120:
        await asyncio.sleep(left + 1)


async def test_a_widget_flood_leaves_signed_in_users_at_full_success(
    client: httpx.AsyncClient, settings: Settings, redis_client: Redis
) -> None:
    await in_one_window()
    tenant = await widget_tenant(client, settings)
    users = [bearer(settings, tenant, new_id("u")) for _ in range(4)]
    flood_from_one = [open_session(client, tenant, "203.0.113.7") for _ in range(1000)]
    flood_from_many = [open_session(client, tenant, f"198.51.{n // 250}.{n % 250 + 1}") for n in range(1000)]

    async def signed_in_work(headers: dict[str, str]) -> list[int]:
        statuses = []
        for _ in range(20):
            statuses.append((await client.get("/v1/conversations", headers=headers)).status_code)
            created = await client.post("/v1/conversations", headers=headers, json={"title": "Audit"})
            statuses.append(created.status_code)
        return statuses

    flood = asyncio.gather(*flood_from_one, *flood_from_many)
    work = asyncio.gather(*(signed_in_work(user) for user in users))
    flooded, done = await asyncio.gather(flood, work)

    assert {status for statuses in done for status in statuses} <= {200, 201}
    outcome = Counter(response.status_code for response in flooded)
    assert set(outcome) == {201, 429}
    # One address gets its own allowance; the whole flood no more than the tenant's widget budget.
    from_one = Counter(response.status_code for response in flooded[:1000])
    assert 1 <= from_one[201] <= settings.widget_sessions_per_address
    assert outcome[201] == settings.widget_sessions_per_tenant
    refused = next(response for response in flooded if response.status_code == 429)
    assert "too many chat sessions" in refused.json()["detail"]
    assert 1 <= int(refused.headers["retry-after"]) <= WINDOW_SECONDS
    # Sessions store nothing: only the users' 80 conversations exist.
    assert await stored_conversations(redis_client, tenant) == 4 * 20


async def test_refused_sessions_do_not_count_and_each_address_has_its_own_allowance(
    client: httpx.AsyncClient, settings: Settings
) -> None:
    await in_one_window()
    tenant = await widget_tenant(
        client, settings, widget_sessions_per_window=5, widget_sessions_per_address=2
    )
    first = [(await open_session(client, tenant, "192.0.2.1")).status_code for _ in range(10)]
    assert first == [201, 201] + [429] * 8
    # Had the 8 refusals counted, the tenant's 5 would be spent; another address still gets its 2.
    second = [(await open_session(client, tenant, "192.0.2.2")).status_code for _ in range(3)]
    assert second == [201, 201, 429]
    # IPv6 clients are counted by /64: one host holds the whole network.
    third = [(await open_session(client, tenant, f"2001:db8:0:1::{n}")).status_code for n in range(3)]
    assert third == [201, 429, 429]  # the tenant's 5th session, then its budget is spent


async def test_widget_visitors_spend_their_own_budget_not_the_users(
    client: httpx.AsyncClient, settings: Settings
) -> None:
    await in_one_window()
    tenant = await widget_tenant(client, settings, requests_per_window=5, principal_requests_per_window=100)
    session = (await open_session(client, tenant)).json()
    visitor = {"Authorization": f"Bearer {session['token']}"}
    for _ in range(10):
        read = await client.get(f"/v1/conversations/{session['conversation_id']}", headers=visitor)
        assert read.status_code == 200
    # The PUT spent one of the tenant's 5 requests; the visitor's 10 spent none of them.
    user = bearer(settings, tenant, new_id("u"))
    assert [(await client.get("/v1/conversations", headers=user)).status_code for _ in range(5)] == [
        200,
        200,
        200,
        200,
        429,
    ]


async def test_a_session_stores_its_conversation_on_the_first_message_only(
    client: httpx.AsyncClient, settings: Settings, redis_client: Redis
) -> None:
    tenant = await widget_tenant(client, settings)
    session = (await open_session(client, tenant)).json()
    conversation = session["conversation_id"]
    assert session["event_tickets_url"].endswith(f"/v1/conversations/{conversation}/event-tickets")
    visitor = {"Authorization": f"Bearer {session['token']}"}
    assert await stored_conversations(redis_client, tenant) == 0

    empty = await client.get(f"/v1/conversations/{conversation}", headers=visitor)
    assert empty.status_code == 200
    assert (empty.json()["title"], empty.json()["messages"]) == ("Website chat", [])
    assert await stored_conversations(redis_client, tenant) == 0

    url = f"/v1/conversations/{conversation}/messages"
    for text in ("What is your refund policy?", "And for gift cards?"):
        assert (await client.post(url, headers=visitor, json={"text": text})).status_code == 202
    history = (await client.get(f"/v1/conversations/{conversation}", headers=visitor)).json()
    assert [m["content"] for m in history["messages"]] == [
        "What is your refund policy?",
        "And for gift cards?",
    ]
    assert await stored_conversations(redis_client, tenant) == 1


async def test_a_customer_token_reaches_its_one_conversation_only(
    client: httpx.AsyncClient, settings: Settings, redis_client: Redis
) -> None:
    tenant = await widget_tenant(client, settings)
    session = (await open_session(client, tenant)).json()
    visitor = {"Authorization": f"Bearer {session['token']}"}

    started = await client.post("/v1/conversations", headers=visitor, json={"title": "mine"})
    assert started.status_code == 403
    assert "cannot start another" in started.json()["detail"]

    # Even a conversation stored under the visitor's own user id is out of reach of its token.
    claims = issue_token(settings, tenant, "anon_x", 60, role="customer", conversation_id="c1")
    other = ConversationRecord(conversation_id=new_id("c"), tenant_id=tenant, user_id="anon_x")
    await ConversationStore(redis_client).create(other)
    bound = {"Authorization": f"Bearer {claims}"}
    for method, path, body in (
        ("GET", f"/v1/conversations/{other.conversation_id}", None),
        ("POST", f"/v1/conversations/{other.conversation_id}/messages", {"text": "hi"}),
        ("PATCH", f"/v1/conversations/{other.conversation_id}", {"title": "x"}),
        ("POST", f"/v1/conversations/{other.conversation_id}/event-tickets", None),
    ):
        assert (await client.request(method, path, headers=bound, json=body)).status_code == 404, path

    # A token bound to a conversation id someone else stored reaches nothing either.
    squatter = issue_token(
        settings, tenant, "anon_y", 60, role="customer", conversation_id=other.conversation_id
    )
    for method, path, body in (
        ("GET", f"/v1/conversations/{other.conversation_id}", None),
        ("POST", f"/v1/conversations/{other.conversation_id}/messages", {"text": "hi"}),
        ("POST", f"/v1/conversations/{other.conversation_id}/event-tickets", None),
    ):
        response = await client.request(
            method, path, headers={"Authorization": f"Bearer {squatter}"}, json=body
        )
        assert response.status_code == 404, path
    assert await ConversationStore(redis_client).messages(tenant, other.conversation_id) == []
