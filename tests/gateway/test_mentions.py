"""@-mention autocomplete through a real gateway on NATS and Valkey."""

from typing import Any

import httpx
import pytest
from nats.js import JetStreamContext

from policypal.auth import issue_token
from policypal.config import Settings
from policypal.contracts import ChatRequested
from policypal.contracts.streams import CHAT
from policypal.contracts.subjects import CHAT_REQUESTED
from tests.pdf_factory import one_page_pdf
from tests.support.gateway_client import (
    admin,
    bearer,
    make_key,
    new_conversation,
    new_id,
    upload,
    upload_titled,
)
from tests.support.jetstream import retained_events

pytestmark = pytest.mark.integration


async def suggest(
    client: httpx.AsyncClient, headers: dict[str, str], prefix: str, **params: Any
) -> dict[str, Any]:
    response = await client.get("/v1/mentions", headers=headers, params={"prefix": prefix, **params})
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


def labels(body: dict[str, Any], category: str) -> list[str]:
    return [s["label"] for s in body[category]]


async def test_suggestions_by_category_and_prefix(client: httpx.AsyncClient, auth: dict[str, str]) -> None:
    assert (
        await client.post("/v1/sets", headers=auth, json={"name": "GDPR pack", "colour": "teal"})
    ).status_code == 201
    gdpr = await upload_titled(client, auth, "GDPR", "GDPR pack")
    guidance = await upload_titled(client, auth, "Data guidance", "GDPR pack")
    await upload_titled(client, auth, "Complaints policy")

    everything = await suggest(client, auth, "")
    assert labels(everything, "actions") == ["summarize", "inquire", "compare", "audit"]
    assert labels(everything, "sets") == ["GDPR pack"]
    assert labels(everything, "documents") == ["Complaints policy", "Data guidance", "GDPR"]
    assert labels(everything, "web") == ["web"]

    gd = await suggest(client, auth, "@gD")
    assert gd["prefix"] == "gD"
    assert (labels(gd, "actions"), labels(gd, "web")) == ([], [])
    assert labels(gd, "documents") == ["GDPR"]
    [pack] = gd["sets"]
    assert (pack["colour"], pack["detail"], pack["insert_text"]) == ("teal", "Set · 2 documents", "@GDPRpack")
    assert sorted(pack["document_ids"]) == sorted([gdpr, guidance])
    [document] = gd["documents"]
    assert (document["document_ids"], document["detail"]) == ([gdpr], "Version 1 · policy · processing")

    # A word inside the label matches too; actions carry mentions.action.
    assert labels(await suggest(client, auth, "guid"), "documents") == ["Data guidance"]
    c = await suggest(client, auth, "C")
    assert labels(c, "actions") == ["compare"]
    assert c["actions"][0]["action"] == "compare"
    assert labels(c, "documents") == ["Complaints policy"]
    assert labels(await suggest(client, auth, "we"), "web") == ["web"]
    nothing = await suggest(client, auth, "zzz")
    assert all(nothing[k] == [] for k in ("actions", "sets", "documents", "web"))


async def test_suggestions_are_limited_per_category(client: httpx.AsyncClient, auth: dict[str, str]) -> None:
    for i in range(4):
        await upload_titled(client, auth, f"Policy {i}")
    limited = await suggest(client, auth, "", limit=2)
    assert labels(limited, "documents") == ["Policy 3", "Policy 2"]
    assert len(limited["actions"]) == 2
    for bad in ({"limit": 0}, {"limit": 51}, {"prefix": "x" * 101}):
        assert (await client.get("/v1/mentions", headers=auth, params=bad)).status_code == 422


async def test_only_the_callers_documents_and_tenants_sets(
    client: httpx.AsyncClient, settings: Settings
) -> None:
    tenant = new_id("t")
    alice, bob = bearer(settings, tenant, new_id("u")), bearer(settings, tenant, new_id("u"))
    stranger = bearer(settings, new_id("t"), new_id("u"))
    await upload_titled(client, alice, "Audit charter", "Assurance")
    await upload_titled(client, bob, "Audit plan", "Assurance")
    await upload_titled(client, stranger, "Audit secrets", "Assurance")

    for headers, title in ((alice, "Audit charter"), (bob, "Audit plan"), (stranger, "Audit secrets")):
        found = await suggest(client, headers, "a")
        assert labels(found, "documents") == [title]
        assert labels(found, "sets") == ["Assurance"]
        assert len(found["sets"][0]["document_ids"]) == 1
    # A set the caller has no document in is not offered: mentioning it would bring nothing.
    carol = bearer(settings, tenant, new_id("u"))
    assert (await suggest(client, carol, "a"))["sets"] == []


async def test_a_widget_visitor_gets_actions_and_web_only(
    client: httpx.AsyncClient, settings: Settings
) -> None:
    tenant = new_id("t")
    await upload_titled(client, bearer(settings, tenant, new_id("u")), "Internal handbook", "Internal")
    visitor = {
        "Authorization": f"Bearer {issue_token(settings, tenant, 'anon_v', role='customer', conversation_id='c')}"
    }
    found = await suggest(client, visitor, "")
    assert (found["sets"], found["documents"]) == ([], [])
    assert labels(found, "actions") == ["summarize", "inquire", "compare", "audit"]
    assert labels(found, "web") == ["web"]


async def test_the_web_suggestion_sets_mentions_web_and_the_message_carries_it(
    client: httpx.AsyncClient, js: JetStreamContext, auth: dict[str, str]
) -> None:
    found = await suggest(client, auth, "w")
    [web] = found["web"]
    assert (web["kind"], web["insert_text"], web["web"], web["action"]) == ("web", "@web", True, None)
    assert not any(s["web"] for s in found["actions"] + found["sets"] + found["documents"])

    # The client puts what the suggestion says into the message's mentions.
    conversation_id = await new_conversation(client, auth)
    text = f"{web['insert_text']} what do the rules say about records?"
    response = await client.post(
        f"/v1/conversations/{conversation_id}/messages",
        headers=auth,
        json={"text": text, "mentions": {"web": web["web"]}},
    )
    assert response.status_code == 202, response.text
    request_id = response.json()["request_id"]
    [event] = await retained_events(js, CHAT.name, CHAT_REQUESTED, ChatRequested, request_id=request_id)
    assert event.mentions.web is True
    assert (event.mentions.action, event.mentions.documents) == (None, [])


async def test_mentions_need_a_valid_chat_credential(client: httpx.AsyncClient, settings: Settings) -> None:
    tenant = new_id("t")
    missing = await client.get("/v1/mentions")
    assert missing.status_code == 401
    expired = bearer(settings, tenant, new_id("u"), ttl_seconds=-60)
    assert (await client.get("/v1/mentions", headers=expired)).status_code == 401
    ingest_only = (await make_key(client, admin(settings, tenant), ["ingest"]))["api_key"]
    refused = await client.get("/v1/mentions", headers={"X-API-Key": ingest_only})
    assert refused.status_code == 403
    assert refused.json()["detail"] == "This credential lacks the 'chat' scope this request needs."


async def test_two_versions_of_one_title_get_labels_unique_per_version(
    client: httpx.AsyncClient, auth: dict[str, str]
) -> None:
    ids = {}
    for version in ("2", "3"):
        response = await upload(
            client,
            auth,
            one_page_pdf(f"licence {version}"),
            filename="l.pdf",
            title="GNU GPL",
            version=version,
        )
        assert response.status_code == 202, response.text
        ids[version] = response.json()["document_id"]
    await upload_titled(client, auth, "Gnu guide")
    documents = (await suggest(client, auth, "gnu"))["documents"]
    by_id = {s["document_ids"][0]: s for s in documents}
    assert (by_id[ids["2"]]["label"], by_id[ids["2"]]["insert_text"]) == ("GNU GPL (2)", "@GNUGPL(2)")
    assert (by_id[ids["3"]]["label"], by_id[ids["3"]]["insert_text"]) == ("GNU GPL (3)", "@GNUGPL(3)")
    # A title with one version reads as before.
    assert "Gnu guide" in labels({"documents": documents}, "documents")
