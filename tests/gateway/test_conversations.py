"""Conversations and chat messages through a real gateway on NATS and Valkey."""

import httpx
import pytest
from nats.js import JetStreamContext
from redis.asyncio import Redis

from policypal.auth import issue_token
from policypal.config import Settings
from policypal.contracts import ChatRequested
from policypal.contracts.streams import CHAT
from policypal.contracts.subjects import CHAT_REQUESTED
from tests.pdf_factory import one_page_pdf
from tests.support.gateway_client import bearer, new_conversation, new_id
from tests.support.jetstream import retained_events

pytestmark = pytest.mark.integration


async def test_create_and_read_a_conversation(client: httpx.AsyncClient, auth: dict[str, str]) -> None:
    untitled = await client.post("/v1/conversations", headers=auth)
    assert untitled.status_code == 201
    assert untitled.json()["title"] == "New conversation"

    conversation_id = await new_conversation(client, auth, "GDPR review")
    response = await client.get(f"/v1/conversations/{conversation_id}", headers=auth)
    assert response.status_code == 200
    assert response.json()["title"] == "GDPR review"
    assert response.json()["messages"] == []


async def test_post_message_stores_the_turn_and_publishes(
    client: httpx.AsyncClient, js: JetStreamContext, settings: Settings, auth: dict[str, str]
) -> None:
    pdf = one_page_pdf("mentioned document")
    document = await client.post(
        "/v1/documents",
        headers=auth,
        data={"title": "Policy", "version": "1", "doc_type": "policy"},
        files={"file": ("p.pdf", pdf, "application/pdf")},
    )
    document_id = document.json()["document_id"]
    conversation_id = await new_conversation(client, auth)

    response = await client.post(
        f"/v1/conversations/{conversation_id}/messages",
        headers=auth,
        json={"text": "Summarize it", "mentions": {"action": "summarize", "documents": [document_id]}},
    )
    assert response.status_code == 202, response.text
    body = response.json()
    request_id = body["request_id"]
    assert body["events_url"] == (
        f"{settings.events_base_url}/v1/conversations/{conversation_id}/events?request_id={request_id}"
    )

    [event] = await retained_events(js, CHAT.name, CHAT_REQUESTED, ChatRequested, request_id=request_id)
    assert event.thread_id == conversation_id
    assert event.message_id == body["message_id"]
    assert event.text == "Summarize it"
    assert event.mentions.action == "summarize"
    assert event.mentions.documents == [document_id]

    history = (await client.get(f"/v1/conversations/{conversation_id}", headers=auth)).json()
    [turn] = history["messages"]
    assert (turn["role"], turn["content"], turn["request_id"], turn["message_id"]) == (
        "user",
        "Summarize it",
        request_id,
        body["message_id"],
    )
    assert history["last_message_at"] is not None


async def test_idempotency_key_makes_a_retry_harmless(
    client: httpx.AsyncClient, js: JetStreamContext, auth: dict[str, str]
) -> None:
    conversation_id = await new_conversation(client, auth)
    url = f"/v1/conversations/{conversation_id}/messages"
    headers = {**auth, "Idempotency-Key": "retry-1"}

    first = await client.post(url, headers=headers, json={"text": "What does article 5 say?"})
    again = await client.post(url, headers=headers, json={"text": "What does article 5 say?"})

    assert first.status_code == again.status_code == 202
    assert again.json() == first.json()
    history = (await client.get(f"/v1/conversations/{conversation_id}", headers=auth)).json()
    assert len(history["messages"]) == 1
    assert (
        len(
            await retained_events(
                js, CHAT.name, CHAT_REQUESTED, ChatRequested, request_id=first.json()["request_id"]
            )
        )
        == 1
    )

    changed = await client.post(url, headers=headers, json={"text": "Something else"})
    assert changed.status_code == 409
    other = await client.post(url, headers={**auth, "Idempotency-Key": "retry-2"}, json={"text": "x"})
    assert other.json()["request_id"] != first.json()["request_id"]


async def test_invalid_messages_are_refused(client: httpx.AsyncClient, auth: dict[str, str]) -> None:
    conversation_id = await new_conversation(client, auth)
    url = f"/v1/conversations/{conversation_id}/messages"
    assert (await client.post(url, headers=auth, json={"text": ""})).status_code == 422
    assert (await client.post(url, headers=auth, json={"text": "x" * 20_001})).status_code == 422
    bad_action = {"text": "hi", "mentions": {"action": "delete"}}
    assert (await client.post(url, headers=auth, json=bad_action)).status_code == 422
    bad_id = await client.post(url, headers=auth, json={"text": "hi", "mentions": {"documents": ["a.b"]}})
    assert bad_id.status_code == 422
    history = (await client.get(f"/v1/conversations/{conversation_id}", headers=auth)).json()
    assert history["messages"] == []


async def test_conversations_of_others_are_not_found(client: httpx.AsyncClient, settings: Settings) -> None:
    tenant = new_id("t")
    owner = bearer(settings, tenant, new_id("u"))
    conversation_id = await new_conversation(client, owner)

    for stranger in (bearer(settings, tenant, new_id("u")), bearer(settings, new_id("t"), new_id("u"))):
        read = await client.get(f"/v1/conversations/{conversation_id}", headers=stranger)
        assert read.status_code == 404
        assert read.json() == {"detail": "No such conversation."}
        post = await client.post(
            f"/v1/conversations/{conversation_id}/messages", headers=stranger, json={"text": "hi"}
        )
        assert post.status_code == 404
        listed = (await client.get("/v1/conversations", headers=stranger)).json()["conversations"]
        assert listed == []
    history = (await client.get(f"/v1/conversations/{conversation_id}", headers=owner)).json()
    assert history["messages"] == []


async def test_list_shows_the_most_recently_active_first(
    client: httpx.AsyncClient, settings: Settings
) -> None:
    owner = bearer(settings, new_id("t"), new_id("u"))
    older = await new_conversation(client, owner, "older")
    newer = await new_conversation(client, owner, "newer")
    listed = (await client.get("/v1/conversations", headers=owner)).json()["conversations"]
    assert [c["conversation_id"] for c in listed] == [newer, older]

    posted = await client.post(f"/v1/conversations/{older}/messages", headers=owner, json={"text": "hello"})
    assert posted.status_code == 202
    listed = (await client.get("/v1/conversations", headers=owner)).json()["conversations"]
    assert [c["conversation_id"] for c in listed] == [older, newer]
    assert listed[0]["last_message_at"] is not None


async def test_list_previews_the_newest_message(client: httpx.AsyncClient, auth: dict[str, str]) -> None:
    conversation_id = await new_conversation(client, auth, "Retention")
    empty = (await client.get("/v1/conversations", headers=auth)).json()["conversations"][0]
    assert (empty["last_message_preview"], empty["last_message_role"]) == (None, None)

    long_text = "How long   must we keep\ncustomer records " + "after the account closes " * 10
    url = f"/v1/conversations/{conversation_id}/messages"
    assert (await client.post(url, headers=auth, json={"text": long_text})).status_code == 202
    listed = (await client.get("/v1/conversations", headers=auth)).json()["conversations"]
    preview = listed[0]["last_message_preview"]
    assert listed[0]["last_message_role"] == "user"
    assert preview.startswith("How long must we keep customer records after the account")
    assert preview.endswith("…")
    assert len(preview) <= 120
    assert "\n" not in preview
    assert "  " not in preview
    # Cut between words, not inside one.
    assert preview[:-1].split(" ")[-1] in long_text.split()

    assert (await client.post(url, headers=auth, json={"text": "Short one"})).status_code == 202
    listed = (await client.get("/v1/conversations", headers=auth)).json()["conversations"]
    assert listed[0]["last_message_preview"] == "Short one"


async def test_rename_a_conversation(client: httpx.AsyncClient, auth: dict[str, str]) -> None:
    conversation_id = await new_conversation(client, auth, "Draft")
    url = f"/v1/conversations/{conversation_id}"
    assert (await client.post(f"{url}/messages", headers=auth, json={"text": "hi"})).status_code == 202

    renamed = await client.patch(url, headers=auth, json={"title": "  GDPR retention review "})
    assert renamed.status_code == 200, renamed.text
    assert renamed.json()["title"] == "GDPR retention review"
    detail = (await client.get(url, headers=auth)).json()
    assert detail["title"] == "GDPR retention review"
    # The rename kept the rest of the record and the history.
    assert detail["last_message_at"] is not None
    assert [m["content"] for m in detail["messages"]] == ["hi"]
    listed = (await client.get("/v1/conversations", headers=auth)).json()["conversations"]
    assert [c["title"] for c in listed] == ["GDPR retention review"]

    for bad in ({"title": ""}, {"title": "   "}, {"title": "x" * 201}, {}, {"title": "ok", "extra": 1}):
        assert (await client.patch(url, headers=auth, json=bad)).status_code == 422


async def test_delete_a_conversation(
    client: httpx.AsyncClient, auth: dict[str, str], redis_client: Redis
) -> None:
    kept = await new_conversation(client, auth, "kept")
    doomed = await new_conversation(client, auth, "doomed")
    url = f"/v1/conversations/{doomed}"
    assert (await client.post(f"{url}/messages", headers=auth, json={"text": "hi"})).status_code == 202
    assert await redis_client.keys(f"pp:*:conv:{doomed}*")

    assert (await client.delete(url, headers=auth)).status_code == 204
    assert (await client.get(url, headers=auth)).status_code == 404
    assert (await client.patch(url, headers=auth, json={"title": "back"})).status_code == 404
    assert (await client.post(f"{url}/messages", headers=auth, json={"text": "hi"})).status_code == 404
    assert (await client.delete(url, headers=auth)).status_code == 404
    listed = (await client.get("/v1/conversations", headers=auth)).json()["conversations"]
    assert [c["conversation_id"] for c in listed] == [kept]
    # Nothing of it is left in Redis: record, messages, message ids, memory.
    assert await redis_client.keys(f"pp:*:conv:{doomed}*") == []


async def test_rename_and_delete_of_others_are_not_found(
    client: httpx.AsyncClient, settings: Settings
) -> None:
    tenant = new_id("t")
    owner = bearer(settings, tenant, new_id("u"))
    conversation_id = await new_conversation(client, owner, "Mine")
    url = f"/v1/conversations/{conversation_id}"
    for stranger in (bearer(settings, tenant, new_id("u")), bearer(settings, new_id("t"), new_id("u"))):
        patched = await client.patch(url, headers=stranger, json={"title": "Theirs"})
        assert patched.status_code == 404
        assert patched.json() == {"detail": "No such conversation."}
        assert (await client.delete(url, headers=stranger)).status_code == 404
    detail = (await client.get(url, headers=owner)).json()
    assert detail["title"] == "Mine"


@pytest.mark.parametrize("method", ["PATCH", "DELETE"])
async def test_rename_and_delete_need_a_valid_chat_credential(
    client: httpx.AsyncClient, settings: Settings, method: str
) -> None:
    tenant = new_id("t")
    owner = bearer(settings, tenant, new_id("u"))
    conversation_id = await new_conversation(client, owner, "Mine")
    url = f"/v1/conversations/{conversation_id}"
    body = {"title": "New"} if method == "PATCH" else None
    missing = await client.request(method, url, json=body)
    assert missing.status_code == 401
    expired = bearer(settings, tenant, new_id("u"), ttl_seconds=-60)
    assert (await client.request(method, url, headers=expired, json=body)).status_code == 401
    no_scopes = {"Authorization": f"Bearer {issue_token(settings, tenant, new_id('s'), role='service')}"}
    refused = await client.request(method, url, headers=no_scopes, json=body)
    assert refused.status_code == 403
    assert refused.json()["detail"] == "This credential lacks the 'chat' scope this request needs."
    assert (await client.get(url, headers=owner)).json()["title"] == "Mine"
