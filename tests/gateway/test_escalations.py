"""Admin escalation tickets through the real gateway: list, resolve once, the answer reaches the thread."""

import httpx
import pytest
from nats.js import JetStreamContext
from redis.asyncio import Redis

from policypal.auth import issue_token
from policypal.config import Settings
from policypal.contracts import ResponseEvent
from policypal.state import ConversationRecord, ConversationStore, EscalationStore, EscalationTicket
from tests.support.gateway_client import admin, bearer, make_key, new_id
from tests.support.jetstream import payload, wait_for_messages

pytestmark = pytest.mark.integration


async def open_ticket(redis: Redis, tenant: str, user: str) -> EscalationTicket:
    """A pending ticket in a conversation of ``user``, as the resolver opens it."""
    conversation = ConversationRecord(conversation_id=new_id("c"), tenant_id=tenant, user_id=user)
    await ConversationStore(redis).create(conversation)
    request_id = new_id("r")
    return await EscalationStore(redis).open(
        EscalationTicket(
            escalation_id=f"esc-{request_id}",
            tenant_id=tenant,
            user_id=user,
            thread_id=conversation.conversation_id,
            request_id=request_id,
            question="How long must customer records be kept?",
        )
    )


async def test_a_reviewer_answer_lands_in_the_thread_once(
    client: httpx.AsyncClient, settings: Settings, redis_client: Redis, js: JetStreamContext
) -> None:
    tenant, user = new_id("t"), new_id("u")
    ticket = await open_ticket(redis_client, tenant, user)
    headers = admin(settings, tenant)

    listed = (await client.get("/v1/admin/escalations?status=pending_human", headers=headers)).json()
    assert [(e["escalation_id"], e["status"]) for e in listed["escalations"]] == [
        (ticket.escalation_id, "pending_human")
    ]
    resolved = await client.post(
        f"/v1/admin/escalations/{ticket.escalation_id}/resolve",
        headers=headers,
        json={"answer": "Six years after the account closes (Retention Policy 4.2)."},
    )
    assert resolved.status_code == 200, resolved.text
    assert resolved.json()["status"] == "resolved"

    [published] = await wait_for_messages(js, "EVENTS", f"events.{tenant}.{ticket.thread_id}.response")
    event = ResponseEvent.model_validate(payload(published))
    assert (event.answered_by, event.escalation_id, event.model) == (
        "reviewer",
        ticket.escalation_id,
        "human-reviewer",
    )
    assert event.answer == "Six years after the account closes (Retention Policy 4.2)."
    history = (
        await client.get(f"/v1/conversations/{ticket.thread_id}", headers=bearer(settings, tenant, user))
    ).json()["messages"]
    assert [(m["role"], m["metadata"].get("answered_by")) for m in history] == [("assistant", "reviewer")]

    again = await client.post(
        f"/v1/admin/escalations/{ticket.escalation_id}/resolve", headers=headers, json={"answer": "Other"}
    )
    assert again.status_code == 409
    assert (await client.get("/v1/admin/escalations?status=pending_human", headers=headers)).json() == {
        "escalations": []
    }
    done = (await client.get("/v1/admin/escalations?status=resolved", headers=headers)).json()["escalations"]
    assert done[0]["answer"].startswith("Six years")


async def test_tenants_roles_and_credentials_are_enforced(
    client: httpx.AsyncClient, settings: Settings, redis_client: Redis
) -> None:
    tenant, user = new_id("t"), new_id("u")
    ticket = await open_ticket(redis_client, tenant, user)
    resolve = f"/v1/admin/escalations/{ticket.escalation_id}/resolve"
    answer = {"answer": "Six years."}
    other_admin = admin(settings, new_id("t"))
    audit_key = (await make_key(client, admin(settings, tenant), ["audit"]))["api_key"]
    expired = {"Authorization": f"Bearer {issue_token(settings, tenant, 'a1', -10, role='admin')}"}

    assert (await client.post(resolve, headers=other_admin, json=answer)).status_code == 404
    assert (await client.get("/v1/admin/escalations", headers=other_admin)).json() == {"escalations": []}
    assert (
        await client.get("/v1/admin/escalations", headers=bearer(settings, tenant, user))
    ).status_code == 403
    assert (await client.post(resolve, headers={"X-API-Key": audit_key}, json=answer)).status_code == 403
    assert (await client.post(resolve, headers=expired, json=answer)).status_code == 401
    assert (await client.get("/v1/admin/escalations")).status_code == 401
    assert (
        await client.post(resolve, headers=admin(settings, tenant), json={"answer": "  "})
    ).status_code == 422
    assert (
        await client.get("/v1/admin/escalations?status=bogus", headers=admin(settings, tenant))
    ).status_code == 422
    # None of that resolved it.
    assert (await EscalationStore(redis_client).get(tenant, ticket.escalation_id)).status == "pending_human"  # type: ignore[union-attr]
    admin_key = (await make_key(client, admin(settings, tenant), ["admin"]))["api_key"]
    assert (await client.post(resolve, headers={"X-API-Key": admin_key}, json=answer)).status_code == 200
