"""Document sets through a real gateway on NATS and Valkey: palette colours, counts, tenant isolation."""

import httpx
import pytest

from gateway.sets import PALETTE
from policypal.auth import issue_token
from policypal.config import Settings
from tests.support.gateway_client import bearer, new_id, upload_titled

pytestmark = pytest.mark.integration


async def test_create_sets_with_chosen_and_default_colours(
    client: httpx.AsyncClient, auth: dict[str, str]
) -> None:
    chosen = await client.post("/v1/sets", headers=auth, json={"name": "HR policies", "colour": "Teal"})
    assert chosen.status_code == 201, chosen.text
    body = chosen.json()
    assert (body["name"], body["colour"], body["colour_hex"], body["document_count"]) == (
        "HR policies",
        "teal",
        PALETTE["teal"],
        0,
    )
    # Omitted colours go to the least used ones, in palette order (teal is taken).
    defaults = []
    for name in ("Banking", "Privacy", "Security"):
        created = await client.post("/v1/sets", headers=auth, json={"name": name})
        assert created.status_code == 201
        defaults.append(created.json()["colour"])
    assert defaults == ["blue", "green", "orange"]

    listed = (await client.get("/v1/sets", headers=auth)).json()
    assert [(s["name"], s["colour"]) for s in listed["sets"]] == [
        ("Banking", "blue"),
        ("HR policies", "teal"),
        ("Privacy", "green"),
        ("Security", "orange"),
    ]
    assert [c["name"] for c in listed["palette"]] == list(PALETTE)


async def test_unknown_colour_is_422_listing_the_palette(
    client: httpx.AsyncClient, auth: dict[str, str]
) -> None:
    response = await client.post("/v1/sets", headers=auth, json={"name": "HR", "colour": "chartreuse"})
    assert response.status_code == 422
    assert response.json()["detail"] == f"Unknown colour 'chartreuse'; choose one of: {', '.join(PALETTE)}."
    assert (await client.get("/v1/sets", headers=auth)).json()["sets"] == []


@pytest.mark.parametrize(
    "body",
    [{}, {"name": ""}, {"name": "   "}, {"name": "x" * 201}, {"name": "a\x00b"}, {"name": "ok", "x": 1}],
)
async def test_invalid_set_names_are_422(
    client: httpx.AsyncClient, auth: dict[str, str], body: dict[str, str]
) -> None:
    assert (await client.post("/v1/sets", headers=auth, json=body)).status_code == 422


async def test_a_name_is_taken_whatever_its_case(client: httpx.AsyncClient, auth: dict[str, str]) -> None:
    assert (await client.post("/v1/sets", headers=auth, json={"name": "HR policies"})).status_code == 201
    again = await client.post("/v1/sets", headers=auth, json={"name": "hr  POLICIES", "colour": "red"})
    assert again.status_code == 409
    assert again.json()["detail"] == "A set named 'HR policies' already exists."


async def test_counts_are_of_the_callers_documents_and_uploads_join_sets(
    client: httpx.AsyncClient, settings: Settings
) -> None:
    tenant = new_id("t")
    alice, bob = bearer(settings, tenant, new_id("u")), bearer(settings, tenant, new_id("u"))
    assert (
        await client.post("/v1/sets", headers=alice, json={"name": "HR policies", "colour": "pink"})
    ).status_code == 201
    await upload_titled(
        client, alice, "Leave policy", "hr policies"
    )  # joins the existing set, in its spelling
    await upload_titled(client, alice, "Bonus policy", "HR policies")
    await upload_titled(client, alice, "KYC rules", "Banking")  # a new name becomes a set
    await upload_titled(client, alice, "Loose note")
    await upload_titled(client, bob, "Bob's HR memo", "HR Policies")

    alice_sets = (await client.get("/v1/sets", headers=alice)).json()["sets"]
    assert [(s["name"], s["colour"], s["document_count"]) for s in alice_sets] == [
        ("Banking", "blue", 1),
        ("HR policies", "pink", 2),
    ]
    # The same sets for everyone in the tenant; the counts are of one's own documents.
    bob_sets = (await client.get("/v1/sets", headers=bob)).json()["sets"]
    assert [(s["name"], s["document_count"]) for s in bob_sets] == [("Banking", 0), ("HR policies", 1)]

    documents = (await client.get("/v1/documents", headers=alice)).json()["documents"]
    assert {d["title"]: d["set_name"] for d in documents} == {
        "Leave policy": "HR policies",
        "Bonus policy": "HR policies",
        "KYC rules": "Banking",
        "Loose note": None,
    }


async def test_documents_grouped_by_set(client: httpx.AsyncClient, auth: dict[str, str]) -> None:
    assert (
        await client.post("/v1/sets", headers=auth, json={"name": "Privacy", "colour": "purple"})
    ).status_code == 201
    older_privacy = await upload_titled(client, auth, "Cookie policy", "Privacy")
    loose = await upload_titled(client, auth, "Loose note")
    newer_privacy = await upload_titled(client, auth, "DPA", "privacy")
    banking = await upload_titled(client, auth, "AML rules", "Banking")

    flat = (await client.get("/v1/documents", headers=auth)).json()
    assert flat["groups"] is None
    grouped = (await client.get("/v1/documents", headers=auth, params={"group_by": "set"})).json()
    assert [d["document_id"] for d in grouped["documents"]] == [banking, newer_privacy, loose, older_privacy]
    assert [
        (g["set_name"], g["colour"], [d["document_id"] for d in g["documents"]]) for g in grouped["groups"]
    ] == [
        ("Banking", "blue", [banking]),
        ("Privacy", "purple", [newer_privacy, older_privacy]),
        (None, None, [loose]),
    ]
    assert (await client.get("/v1/documents", headers=auth, params={"group_by": "owner"})).status_code == 422


async def test_another_tenants_sets_are_invisible(client: httpx.AsyncClient, settings: Settings) -> None:
    mine, theirs = bearer(settings, new_id("t"), new_id("u")), bearer(settings, new_id("t"), new_id("u"))
    assert (await client.post("/v1/sets", headers=theirs, json={"name": "Secret project"})).status_code == 201
    await upload_titled(client, theirs, "Merger plan", "Secret project")

    assert (await client.get("/v1/sets", headers=mine)).json()["sets"] == []
    # The name is free in my tenant, and my set gets the first default colour.
    created = await client.post("/v1/sets", headers=mine, json={"name": "Secret project"})
    assert created.status_code == 201
    assert (created.json()["colour"], created.json()["document_count"]) == ("blue", 0)
    theirs_listed = (await client.get("/v1/sets", headers=theirs)).json()["sets"]
    assert [(s["name"], s["document_count"]) for s in theirs_listed] == [("Secret project", 1)]


@pytest.mark.parametrize(("method", "body"), [("GET", None), ("POST", {"name": "HR"})])
async def test_sets_need_a_valid_ingest_credential(
    client: httpx.AsyncClient, settings: Settings, method: str, body: dict[str, str] | None
) -> None:
    tenant = new_id("t")
    missing = await client.request(method, "/v1/sets", json=body)
    assert missing.status_code == 401
    assert missing.headers["www-authenticate"] == "Bearer"
    expired = bearer(settings, tenant, new_id("u"), ttl_seconds=-60)
    assert (await client.request(method, "/v1/sets", headers=expired, json=body)).status_code == 401
    customer = issue_token(settings, tenant, "anon_x", role="customer", conversation_id="c1")
    refused = await client.request(
        method, "/v1/sets", headers={"Authorization": f"Bearer {customer}"}, json=body
    )
    assert refused.status_code == 403
    assert refused.json()["detail"] == "This credential lacks the 'ingest' scope this request needs."
