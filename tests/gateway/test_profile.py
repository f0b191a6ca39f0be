"""The company profile through a real gateway on NATS and Valkey: onboarding, editing, isolation."""

import httpx
import pytest
from redis.asyncio import Redis

from policypal.auth import issue_token
from policypal.config import Settings
from policypal.state import keys
from tests.support.gateway_client import bearer, new_id

pytestmark = pytest.mark.integration

ACME = {
    "company_name": "Acme Bank Berhad",
    "country": "Malaysia",
    "industry": "Banking",
    "description": "A retail bank with 40 branches.",
}


async def test_a_new_user_has_no_profile_then_saves_and_edits_one(
    client: httpx.AsyncClient, auth: dict[str, str]
) -> None:
    empty = await client.get("/v1/profile", headers=auth)
    assert empty.status_code == 200, empty.text
    assert empty.json() == {
        "company_name": None,
        "country": None,
        "industry": None,
        "description": None,
        "completed": False,
        "updated_at": None,
    }

    saved = await client.put("/v1/profile", headers=auth, json={**ACME, "country": "  Malaysia "})
    assert saved.status_code == 200, saved.text
    body = saved.json()
    assert {k: body[k] for k in ACME} == ACME  # stripped
    assert body["completed"] is True
    assert body["updated_at"]
    assert (await client.get("/v1/profile", headers=auth)).json() == body

    # Editing later replaces the whole profile; a cleared field is no longer given.
    edited = await client.put(
        "/v1/profile", headers=auth, json={**ACME, "industry": "Insurance", "description": ""}
    )
    assert (edited.json()["industry"], edited.json()["description"]) == ("Insurance", None)
    assert edited.json()["updated_at"] >= body["updated_at"]


async def test_a_profile_without_a_company_name_is_not_complete(
    client: httpx.AsyncClient, auth: dict[str, str]
) -> None:
    saved = await client.put("/v1/profile", headers=auth, json={"country": "France"})
    assert saved.status_code == 200
    assert (saved.json()["country"], saved.json()["completed"]) == ("France", False)


@pytest.mark.parametrize(
    "body",
    [
        {**ACME, "company_name": "x" * 201},
        {**ACME, "country": "Line\nbreak"},
        {**ACME, "description": "d" * 2001},
        {**ACME, "website": "https://acme.example"},
    ],
    ids=["long-name", "control-char", "long-description", "unknown-field"],
)
async def test_invalid_profiles_are_refused(
    client: httpx.AsyncClient, auth: dict[str, str], body: dict[str, str]
) -> None:
    refused = await client.put("/v1/profile", headers=auth, json=body)
    assert refused.status_code == 422
    assert (await client.get("/v1/profile", headers=auth)).json()["completed"] is False


async def test_profiles_are_per_user_and_per_tenant(
    client: httpx.AsyncClient, settings: Settings, redis_client: Redis
) -> None:
    tenant = new_id("t")
    alice, bob = bearer(settings, tenant, "alice"), bearer(settings, tenant, "bob")
    stranger = bearer(settings, new_id("t"), "alice")
    assert (await client.put("/v1/profile", headers=alice, json=ACME)).status_code == 200
    assert (await client.get("/v1/profile", headers=bob)).json()["completed"] is False
    assert (await client.get("/v1/profile", headers=stranger)).json()["company_name"] is None
    # Stored under the tenant's own prefix, as every key of a tenant.
    assert await redis_client.exists(keys.user_profile(tenant, "alice")) == 1


async def test_the_profile_is_for_signed_in_users_not_widget_visitors(
    client: httpx.AsyncClient, settings: Settings
) -> None:
    assert (await client.get("/v1/profile")).status_code == 401
    visitor = issue_token(settings, new_id("t"), new_id("v"), role="customer", conversation_id="c1")
    refused = await client.put("/v1/profile", headers={"Authorization": f"Bearer {visitor}"}, json=ACME)
    assert refused.status_code == 403
