"""Scopes, API keys, tenant profiles, widget sessions and rate limits, through the real gateway."""

import asyncio
import time

import httpx
import pytest

from policypal.auth import issue_token
from policypal.config import Settings
from tests.support.gateway_client import admin, bearer, make_key, new_id

pytestmark = pytest.mark.integration


async def test_api_keys_are_created_used_listed_and_revoked(
    client: httpx.AsyncClient, settings: Settings
) -> None:
    tenant = new_id("t")
    created = await make_key(client, admin(settings, tenant), ["ingest"])
    key = created["api_key"]

    for headers in ({"Authorization": f"Bearer {key}"}, {"X-API-Key": key}):
        assert (await client.get("/v1/documents", headers=headers)).status_code == 200
    # Scope ingest only: chat and admin are forbidden, not unauthenticated.
    refused = await client.get("/v1/conversations", headers={"X-API-Key": key})
    assert refused.status_code == 403
    assert refused.json()["detail"] == "This credential lacks the 'chat' scope this request needs."
    assert (await client.get("/v1/admin/api-keys", headers={"X-API-Key": key})).status_code == 403

    listed = (await client.get("/v1/admin/api-keys", headers=admin(settings, tenant))).json()["api_keys"]
    assert [(k["key_id"], k["scopes"], k["revoked_at"]) for k in listed] == [
        (created["key_id"], ["ingest"], None)
    ]
    assert "api_key" not in listed[0]

    # Another tenant's admin cannot see or revoke it: 404, never 403.
    other_admin = admin(settings, new_id("t"))
    assert (await client.get("/v1/admin/api-keys", headers=other_admin)).json() == {"api_keys": []}
    assert (
        await client.delete(f"/v1/admin/api-keys/{created['key_id']}", headers=other_admin)
    ).status_code == 404

    assert (
        await client.delete(f"/v1/admin/api-keys/{created['key_id']}", headers=admin(settings, tenant))
    ).status_code == 204
    gone = await client.get("/v1/documents", headers={"X-API-Key": key})
    assert gone.status_code == 401
    assert gone.json()["detail"] == "The API key has been revoked."


async def test_bad_api_keys_are_401(client: httpx.AsyncClient, settings: Settings) -> None:
    key = (await make_key(client, admin(settings, new_id("t")), ["chat"]))["api_key"]
    for bad in (key[:-3] + "xyz", "pp_nope", "pp_acme.k.s"):
        response = await client.get("/v1/conversations", headers={"X-API-Key": bad})
        assert response.status_code == 401
        assert response.json()["detail"] == "The API key is not valid."


async def test_users_are_not_admins(client: httpx.AsyncClient, settings: Settings) -> None:
    user = bearer(settings, new_id("t"), new_id("u"))
    for method, path in (("GET", "/v1/admin/api-keys"), ("GET", "/v1/admin/tenant")):
        assert (await client.request(method, path, headers=user)).status_code == 403
    assert (
        await client.post("/v1/admin/api-keys", json={"name": "x", "scopes": ["admin"]})
    ).status_code == 401


async def widget_tenant(client: httpx.AsyncClient, settings: Settings) -> str:
    tenant = new_id("t")
    response = await client.put(
        "/v1/admin/tenant",
        headers=admin(settings, tenant),
        json={"allowed_domains": ["shop.example.com"], "industry": "retail", "location": "EU"},
    )
    assert response.status_code == 200
    assert response.json()["industry"] == "retail"
    return tenant


async def test_widget_session_for_an_allowed_origin(client: httpx.AsyncClient, settings: Settings) -> None:
    tenant = await widget_tenant(client, settings)
    origin = {"Origin": "https://shop.example.com"}
    response = await client.post("/v1/widget/sessions", headers=origin, json={"tenant_id": tenant})
    assert response.status_code == 201, response.text
    assert response.headers["access-control-allow-origin"] == "https://shop.example.com"
    session = response.json()
    conversation = session["conversation_id"]
    assert session["events_url"].endswith(f"/v1/conversations/{conversation}/events")
    customer = {"Authorization": f"Bearer {session['token']}"}

    # The visitor reads its own conversation; documents and admin are out of its scope.
    assert (await client.get(f"/v1/conversations/{conversation}", headers=customer)).status_code == 200
    assert (await client.get("/v1/documents", headers=customer)).status_code == 403
    assert (await client.get("/v1/admin/tenant", headers=customer)).status_code == 403
    # Another visitor of the same tenant, and a user of another tenant, get 404.
    second = (await client.post("/v1/widget/sessions", headers=origin, json={"tenant_id": tenant})).json()
    assert second["conversation_id"] != conversation
    other = {"Authorization": f"Bearer {second['token']}"}
    assert (await client.get(f"/v1/conversations/{conversation}", headers=other)).status_code == 404
    stranger = bearer(settings, new_id("t"), new_id("u"))
    assert (await client.get(f"/v1/conversations/{conversation}", headers=stranger)).status_code == 404


@pytest.mark.parametrize(
    "origin", [None, "https://evil.example.net", "https://shop.example.com.evil.net", "null"]
)
async def test_widget_session_for_a_forbidden_origin_is_403(
    client: httpx.AsyncClient, settings: Settings, origin: str | None
) -> None:
    tenant = await widget_tenant(client, settings)
    headers = {"Origin": origin} if origin else {}
    response = await client.post("/v1/widget/sessions", headers=headers, json={"tenant_id": tenant})
    assert response.status_code == 403
    assert "origin is not allowed" in response.json()["detail"]
    assert "access-control-allow-origin" not in response.headers


async def test_widget_session_for_an_unknown_tenant_is_403(client: httpx.AsyncClient) -> None:
    response = await client.post(
        "/v1/widget/sessions", headers={"Origin": "https://shop.example.com"}, json={"tenant_id": new_id("t")}
    )
    assert response.status_code == 403


async def test_expired_widget_session_is_401(client: httpx.AsyncClient, settings: Settings) -> None:
    token = issue_token(settings, new_id("t"), "anon_x", -5, role="customer", conversation_id="c1")
    response = await client.get("/v1/conversations/c1", headers={"Authorization": f"Bearer {token}"})
    assert response.status_code == 401


async def test_rate_limits_per_caller_and_per_tenant(client: httpx.AsyncClient, settings: Settings) -> None:
    # Fixed windows: start at the beginning of one, so the counts cannot straddle two.
    window = settings.rate_limit_window_seconds
    if time.time() % window > window - 5:
        await asyncio.sleep(window - time.time() % window + 0.05)
    tenant = new_id("t")
    limits = {"requests_per_window": 8, "principal_requests_per_window": 3}
    assert (
        await client.put("/v1/admin/tenant", headers=admin(settings, tenant), json={"limits": limits})
    ).status_code == 200
    # The PUT above counted once against the tenant; each of alice's three requests counts too.
    alice = bearer(settings, tenant, new_id("u"))
    assert [(await client.get("/v1/documents", headers=alice)).status_code for _ in range(3)] == [200] * 3
    refused = await client.get("/v1/documents", headers=alice)
    assert refused.status_code == 429
    assert 1 <= int(refused.headers["retry-after"]) <= settings.rate_limit_window_seconds
    assert refused.json()["detail"].startswith("This credential has sent too many requests; retry in")

    # Refused requests spend nothing: alice hammering through her 429s leaves the tenant's budget be.
    assert {(await client.get("/v1/documents", headers=alice)).status_code for _ in range(20)} == {429}

    # Bob has his own budget, until the tenant's runs out: PUT 1 + alice 3 + bob 3 + carol 1 = 8.
    bob = bearer(settings, tenant, new_id("u"))
    assert [(await client.get("/v1/documents", headers=bob)).status_code for _ in range(3)] == [200, 200, 200]
    carol = bearer(settings, tenant, new_id("u"))
    assert (await client.get("/v1/documents", headers=carol)).status_code == 200
    tenant_refused = await client.get("/v1/documents", headers=carol)
    assert tenant_refused.status_code == 429
    assert tenant_refused.json()["detail"].startswith("Your organisation has sent too many requests")
    # Another tenant is untouched.
    assert (
        await client.get("/v1/documents", headers=bearer(settings, new_id("t"), new_id("u")))
    ).status_code == 200
