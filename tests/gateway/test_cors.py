"""CORS only for origins some tenant allows, through a real gateway on NATS and Valkey."""

import httpx
import pytest

from policypal.config import Settings
from tests.support.gateway_client import admin, bearer, new_id

pytestmark = pytest.mark.integration


async def allow(client: httpx.AsyncClient, settings: Settings, tenant: str, domains: list[str]) -> None:
    response = await client.put(
        "/v1/admin/tenant", headers=admin(settings, tenant), json={"allowed_domains": domains}
    )
    assert response.status_code == 200, response.text


def preflight(origin: str, method: str = "GET") -> dict[str, str]:
    return {
        "Origin": origin,
        "Access-Control-Request-Method": method,
        "Access-Control-Request-Headers": "authorization",
    }


@pytest.mark.parametrize(
    "origin",
    [
        "https://shop.example.com",
        "http://shop.example.com:8080",
        "https://eu.brand.example.org",
        "https://a.b.brand.example.org",
        "https://portal.example.net:8443",
    ],
)
async def test_allowed_origins_get_cors(client: httpx.AsyncClient, settings: Settings, origin: str) -> None:
    tenant = new_id("t")
    await allow(
        client, settings, tenant, ["shop.example.com", "*.brand.example.org", "portal.example.net:8443"]
    )

    answered = await client.options("/v1/documents", headers=preflight(origin, "POST"))
    assert answered.status_code == 204
    assert answered.headers["access-control-allow-origin"] == origin
    assert "POST" in answered.headers["access-control-allow-methods"]
    assert "Authorization" in answered.headers["access-control-allow-headers"]
    assert answered.headers["vary"] == "Origin"
    assert "access-control-allow-credentials" not in answered.headers

    # The request itself: CORS headers on success and on errors alike; the token still decides.
    user = bearer(settings, tenant, new_id("u"))
    ok = await client.get("/v1/documents", headers={**user, "Origin": origin})
    assert ok.status_code == 200
    assert ok.headers["access-control-allow-origin"] == origin
    assert "Origin" in ok.headers["vary"]
    refused = await client.get("/v1/documents", headers={"Origin": origin})
    assert refused.status_code == 401
    assert refused.headers["access-control-allow-origin"] == origin


@pytest.mark.parametrize(
    "origin",
    [
        "https://evil.example.net",
        "https://shop.example.com.evil.net",
        "https://brand.example.org",  # *.brand.example.org is subdomains only
        "https://portal.example.net",  # only port 8443 was allowed
        "ftp://shop.example.com",
        "https://shop.example.com/path",
        "null",
        "not an origin",
        "http://[::1",
    ],
)
async def test_other_origins_get_no_cors(client: httpx.AsyncClient, settings: Settings, origin: str) -> None:
    await allow(
        client, settings, new_id("t"), ["shop.example.com", "*.brand.example.org", "portal.example.net:8443"]
    )

    answered = await client.options("/v1/documents", headers=preflight(origin))
    assert answered.status_code == 403
    assert answered.text == "This origin is not allowed to call the PolicyPal API."
    assert not [h for h in answered.headers if h.startswith("access-control-")]

    # The request is served as without CORS (the browser will not let the page read it).
    user = bearer(settings, new_id("t"), new_id("u"))
    response = await client.get("/v1/documents", headers={**user, "Origin": origin})
    assert response.status_code == 200
    assert not [h for h in response.headers if h.startswith("access-control-")]


async def test_changing_the_allowed_domains_moves_cors(client: httpx.AsyncClient, settings: Settings) -> None:
    acme, other = new_id("t"), new_id("t")
    await allow(client, settings, acme, ["old.example.com", "shared.example.com"])
    await allow(client, settings, other, ["shared.example.com"])
    assert (await client.options("/v1/sets", headers=preflight("https://old.example.com"))).status_code == 204

    await allow(client, settings, acme, ["new.example.com"])
    assert (await client.options("/v1/sets", headers=preflight("https://old.example.com"))).status_code == 403
    assert (await client.options("/v1/sets", headers=preflight("https://new.example.com"))).status_code == 204
    # Still allowed by the other tenant.
    assert (
        await client.options("/v1/sets", headers=preflight("https://shared.example.com"))
    ).status_code == 204
    await allow(client, settings, other, [])
    assert (
        await client.options("/v1/sets", headers=preflight("https://shared.example.com"))
    ).status_code == 403


async def test_requests_without_origin_are_untouched(client: httpx.AsyncClient, settings: Settings) -> None:
    response = await client.get("/v1/documents", headers=bearer(settings, new_id("t"), new_id("u")))
    assert response.status_code == 200
    assert not [h for h in response.headers if h.startswith("access-control-")]
