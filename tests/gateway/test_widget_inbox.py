"""The widget's publications and the reviewers' inbox through the real gateway, and what a customer's
token reaches."""

import asyncio
import json
import time
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest
from nats.js import JetStreamContext
from redis.asyncio import Redis

from policypal.auth import issue_token
from policypal.config import Settings
from policypal.contracts import ResponseEvent
from policypal.contracts.subjects import subject_for
from policypal.state import ConversationRecord, ConversationStore, EscalationStore, EscalationTicket
from policypal.state.escalations import escalation_id_for
from tests.support.gateway_client import admin, bearer, new_id, upload_titled
from tests.support.jetstream import payload, wait_for_messages

pytestmark = pytest.mark.integration


def _reviewer(settings: Settings, tenant: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {issue_token(settings, tenant, new_id('rv'), role='reviewer')}"}


async def test_publishing_is_for_administrators_and_lists_what_customers_read(
    client: httpx.AsyncClient, settings: Settings, redis_client: Redis
) -> None:
    tenant = new_id("t")
    owner = new_id("u")
    document_id = await upload_titled(
        client, bearer(settings, tenant, owner), "Returns Policy", set_name="Help"
    )
    headers = admin(settings, tenant)

    assert (
        await client.post(
            "/v1/admin/widget/publications",
            headers=bearer(settings, tenant, owner),
            json={"document_id": document_id},
        )
    ).status_code == 403
    other_tenant = await client.post(
        "/v1/admin/widget/publications",
        headers=admin(settings, new_id("t")),
        json={"document_id": document_id},
    )
    assert other_tenant.status_code == 404
    assert (await client.post("/v1/admin/widget/publications", headers=headers, json={})).status_code == 422

    created = await client.post(
        "/v1/admin/widget/publications", headers=headers, json={"document_id": document_id}
    )
    assert created.status_code == 201, created.text
    key = created.json()["publication_key"]
    assert (created.json()["owner_id"], key) == (owner, f"document:{document_id}")
    listed = (await client.get("/v1/admin/widget/publications", headers=headers)).json()
    assert [p["publication_key"] for p in listed["publications"]] == [key]
    # Still processing (no ingestor runs here): published, but not served until ready.
    assert listed["documents"] == []

    assert (await client.delete(f"/v1/admin/widget/publications/{key}", headers=headers)).status_code == 204
    assert (await client.delete(f"/v1/admin/widget/publications/{key}", headers=headers)).status_code == 404
    unknown_set = await client.post(
        "/v1/admin/widget/publications", headers=headers, json={"set_name": "Nope"}
    )
    assert unknown_set.status_code == 404


async def _customer_ticket(redis: Redis, tenant: str) -> EscalationTicket:
    visitor = new_id("anon_")
    conversation = ConversationRecord(
        conversation_id=new_id("c"), tenant_id=tenant, user_id=visitor, title="Website chat", widget=True
    )
    await ConversationStore(redis).create(conversation)
    request_id = new_id("r")
    return await EscalationStore(redis).open(
        EscalationTicket(
            escalation_id=escalation_id_for(request_id),
            tenant_id=tenant,
            user_id=visitor,
            thread_id=conversation.conversation_id,
            request_id=request_id,
            question="Can I return worn shoes?",
        )
    )


async def test_a_reviewer_reads_the_ticket_and_the_reply_reaches_the_customer(
    client: httpx.AsyncClient, settings: Settings, redis_client: Redis, js: JetStreamContext
) -> None:
    tenant = new_id("t")
    ticket = await _customer_ticket(redis_client, tenant)
    reviewer = _reviewer(settings, tenant)

    assert (
        await client.get("/v1/inbox/tickets", headers=bearer(settings, tenant, new_id("u")))
    ).status_code == 403
    assert (await client.get("/v1/admin/escalations", headers=reviewer)).status_code == 403  # not an admin
    pending = (await client.get("/v1/inbox/tickets", headers=reviewer)).json()["tickets"]
    assert [t["escalation_id"] for t in pending] == [ticket.escalation_id]
    assert (await client.get("/v1/inbox/tickets", headers=_reviewer(settings, new_id("t")))).json() == {
        "tickets": []
    }
    detail = await client.get(f"/v1/inbox/tickets/{ticket.escalation_id}", headers=reviewer)
    assert detail.status_code == 200
    assert detail.json()["ticket"]["question"] == "Can I return worn shoes?"

    reply = await client.post(
        f"/v1/inbox/tickets/{ticket.escalation_id}/reply",
        headers=reviewer,
        json={"answer": "Worn shoes can be exchanged in store."},
    )
    assert reply.status_code == 200, reply.text
    [published] = await wait_for_messages(js, "EVENTS", f"events.{tenant}.{ticket.thread_id}.response")
    event = ResponseEvent.model_validate(payload(published))
    assert (event.answered_by, event.user_id, event.answer) == (
        "reviewer",
        ticket.user_id,
        "Worn shoes can be exchanged in store.",
    )
    again = await client.post(f"/v1/inbox/tickets/{ticket.escalation_id}/close", headers=reviewer)
    assert again.status_code == 409
    assert (await client.get("/v1/inbox/tickets", headers=reviewer)).json() == {"tickets": []}
    assert (await client.get("/v1/inbox/tickets/esc-unknown", headers=reviewer)).status_code == 404


async def _sse(lines: AsyncIterator[str]) -> AsyncIterator[tuple[str, Any]]:
    kind = ""
    async for line in lines:
        if line.startswith("event:"):
            kind = line[6:].strip()
        elif line.startswith("data:"):
            yield kind, json.loads(line[5:])


async def test_an_open_inbox_stream_receives_new_and_answered_tickets_live(
    client: httpx.AsyncClient,
    settings: Settings,
    redis_client: Redis,
    js: JetStreamContext,
) -> None:
    tenant = new_id("t")
    reviewer = _reviewer(settings, tenant)
    customer = bearer(settings, tenant, new_id("u"))
    assert (await client.get("/v1/inbox/stream", headers=customer)).status_code == 403
    consumers_before = len(await js.consumers_info("EVENTS"))

    async with client.stream("GET", "/v1/inbox/stream", headers=reviewer) as stream:
        assert stream.headers["content-type"].startswith("text/event-stream")
        events = _sse(stream.aiter_lines())
        assert (await asyncio.wait_for(anext(events), 5))[0] == "ready"

        # Another tenant's ticket never reaches this inbox; this tenant's arrives within a second.
        elsewhere = await _customer_ticket(redis_client, new_id("t"))
        ticket = await _customer_ticket(redis_client, tenant)
        for opened in (elsewhere, ticket):
            escalation = opened.pending_event("A person will answer.")
            await js.publish(subject_for(escalation), escalation.model_dump_json().encode())
        published = time.perf_counter()
        kind, data = await asyncio.wait_for(anext(events), 1)
        assert time.perf_counter() - published < 1
        assert (kind, data["escalation_id"], data["status"]) == (
            "ticket",
            ticket.escalation_id,
            "pending_human",
        )

        reply = await client.post(
            f"/v1/inbox/tickets/{ticket.escalation_id}/reply", headers=reviewer, json={"answer": "Yes."}
        )
        assert reply.status_code == 200, reply.text
        kind, data = await asyncio.wait_for(anext(events), 1)
        assert (kind, data["escalation_id"], data["status"]) == ("ticket", ticket.escalation_id, "resolved")

    # A closed inbox leaves no consumer behind.
    for _ in range(50):
        if len(await js.consumers_info("EVENTS")) == consumers_before:
            break
        await asyncio.sleep(0.1)
    assert len(await js.consumers_info("EVENTS")) == consumers_before


async def test_a_customer_token_reaches_its_one_conversation_only(
    client: httpx.AsyncClient, settings: Settings, redis_client: Redis
) -> None:
    tenant = new_id("t")
    await client.put(
        "/v1/admin/tenant", headers=admin(settings, tenant), json={"allowed_domains": ["shop.example.com"]}
    )
    session = await client.post(
        "/v1/widget/sessions", json={"tenant_id": tenant}, headers={"Origin": "https://shop.example.com"}
    )
    assert session.status_code == 201, session.text
    body = session.json()
    assert body["appearance"]["greeting"]
    assert body["messages_url"].endswith(f"/v1/conversations/{body['conversation_id']}/messages")
    customer = {"Authorization": f"Bearer {body['token']}"}

    sent = await client.post(
        f"/v1/conversations/{body['conversation_id']}/messages", headers=customer, json={"text": "hello"}
    )
    assert sent.status_code == 202, sent.text
    stored = await ConversationStore(redis_client).exists(tenant, body["conversation_id"])
    assert stored
    record = await redis_client.get(f"pp:{tenant}:conv:{body['conversation_id']}")
    assert record is not None
    assert ConversationRecord.model_validate_json(record).widget

    other = await client.post(
        f"/v1/conversations/{new_id('c')}/messages", headers=customer, json={"text": "hi"}
    )
    assert other.status_code == 404
    assert (await client.post("/v1/conversations", headers=customer, json={})).status_code == 403
    assert (await client.get("/v1/inbox/tickets", headers=customer)).status_code == 403
    assert (await client.get("/v1/admin/widget/publications", headers=customer)).status_code == 403
