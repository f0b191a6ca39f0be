"""Audits for other systems through the real gateway: queue, publish, poll the status and the result.

Real nats-server and Valkey. The request is finished by the actions' own request lifecycle (the code
every action worker runs) with a composed audit, so the status read back is the one a worker records.
"""

import asyncio
from typing import Any

import httpx
import pytest
from faststream.nats import NatsBroker
from nats.js import JetStreamContext
from redis.asyncio import Redis

from actions.lifecycle.request import ActionAnswer, run_action_request
from policypal.bus import build_broker
from policypal.config import Settings
from policypal.contracts import ActionRequested, CompanyContext
from policypal.contracts.audit import AuditFinding, AuditResult
from policypal.state import (
    CompanyProfile,
    DocumentCatalog,
    DocumentRecord,
    DocumentStatus,
    ProfileStore,
    Refusal,
)
from tests.support.gateway_client import admin, bearer, make_key, new_id
from tests.support.jetstream import payload, stream_messages

pytestmark = pytest.mark.integration


async def add_document(
    redis: Redis, tenant: str, user: str, title: str, status: DocumentStatus = "ready"
) -> str:
    """A document of ``user`` in the catalog, as the ingestor leaves it."""
    document_id = new_id("d")
    await DocumentCatalog(redis).create(
        DocumentRecord(
            document_id=document_id,
            tenant_id=tenant,
            user_id=user,
            title=title,
            version="2024",
            doc_type="regulatory",
            filename="f.pdf",
            content_type="application/pdf",
            size_bytes=1,
            sha256=document_id,
            status=status,
            request_id="upload",
        )
    )
    return document_id


async def published_audit(js: JetStreamContext, request_id: str) -> dict[str, Any]:
    """The ``actions.audit.requested`` message of ``request_id`` (waits up to 5 s)."""
    for _ in range(100):
        for msg in await stream_messages(js, "ACTIONS", "actions.audit.requested"):
            if payload(msg)["request_id"] == request_id:
                return payload(msg)
        await asyncio.sleep(0.05)
    raise AssertionError(f"no audit request {request_id} on the bus")


@pytest.fixture
async def broker(settings: Settings) -> Any:
    """A broker for finishing requests the way a worker does."""
    connected: NatsBroker = build_broker(settings)
    await connected.start()
    yield connected
    await connected.stop()


def audit_answer(event: ActionRequested) -> ActionAnswer:
    """A finished audit of ``event``'s first target with one finding."""
    target = next(d for d in event.documents if d.document_id in event.target_document_ids)
    result = AuditResult(
        overall_status="Major Violations",
        findings=[
            AuditFinding(
                target_doc_id=target.document_id,
                target_doc_title=target.title,
                severity="High",
                consequence="Records kept beyond the retention limit.",
                source_quote="kept for 10 years",
                target_quote="no longer than necessary",
                suggestion="Shorten the retention period.",
                confidence_score=0.71,
            )
        ],
        summary="One retention conflict.",
        targets_checked=1,
        mode="text",
    )
    return ActionAnswer(
        answer="One retention conflict [1].", citations=[], result=result.model_dump(mode="json")
    )


async def test_an_audit_is_queued_published_and_its_result_read_back(
    client: httpx.AsyncClient,
    settings: Settings,
    redis_client: Redis,
    js: JetStreamContext,
    broker: NatsBroker,
) -> None:
    tenant, user = new_id("t"), new_id("u")
    headers = bearer(settings, tenant, user)
    gdpr = await add_document(redis_client, tenant, user, "GDPR")
    accepted = await client.post(
        "/v1/audits",
        headers=headers,
        json={"source_text": "Customer records are kept for 10 years.", "target_document_ids": [gdpr]},
    )
    assert accepted.status_code == 202, accepted.text
    request_id = accepted.json()["request_id"]

    event = ActionRequested.model_validate(await published_audit(js, request_id))
    assert (event.action, event.tenant_id, event.user_id) == ("audit", tenant, user)
    assert event.target_document_ids == [gdpr]
    assert event.source_text == "Customer records are kept for 10 years."
    assert event.thread_id == accepted.json()["thread_id"]
    status = await client.get(f"/v1/requests/{request_id}", headers=headers)
    assert (status.status_code, status.json()["status"], status.json()["result"]) == (200, "queued", None)

    started = asyncio.Event()
    release = asyncio.Event()

    async def compose(request: ActionRequested, *_: Any) -> ActionAnswer:
        started.set()
        await release.wait()
        return audit_answer(request)

    work = asyncio.create_task(
        run_action_request(event, compose, broker=broker, redis=redis_client, final_delivery=False)
    )
    await asyncio.wait_for(started.wait(), 5)
    assert (await client.get(f"/v1/requests/{request_id}", headers=headers)).json()["status"] == "running"
    release.set()
    await work

    done = (await client.get(f"/v1/requests/{request_id}", headers=headers)).json()
    assert done["status"] == "completed"
    result = AuditResult.model_validate(done["result"])
    assert result.overall_status == "Major Violations"
    assert result.findings[0].target_doc_id == gdpr
    # The answer is in the audit's conversation as well.
    history = (await client.get(f"/v1/conversations/{event.thread_id}", headers=headers)).json()["messages"]
    assert [m["role"] for m in history] == ["user", "assistant"]


async def test_an_audit_carries_the_requesters_company_profile(
    client: httpx.AsyncClient, settings: Settings, redis_client: Redis, js: JetStreamContext
) -> None:
    tenant, user = new_id("t"), new_id("u")
    await ProfileStore(redis_client).put(
        tenant, user, CompanyProfile(company_name=" Acme Bank ", industry="Banking", country="Malaysia")
    )
    gdpr = await add_document(redis_client, tenant, user, "GDPR")
    accepted = await client.post(
        "/v1/audits",
        headers=bearer(settings, tenant, user),
        json={"source_text": "Customer records are kept for 10 years.", "target_document_ids": [gdpr]},
    )
    assert accepted.status_code == 202, accepted.text

    event = ActionRequested.model_validate(await published_audit(js, accepted.json()["request_id"]))
    assert event.company == CompanyContext(company_name="Acme Bank", industry="Banking", country="Malaysia")


async def test_a_failed_audit_reports_its_reason(
    client: httpx.AsyncClient,
    settings: Settings,
    redis_client: Redis,
    js: JetStreamContext,
    broker: NatsBroker,
) -> None:
    tenant, user = new_id("t"), new_id("u")
    headers = bearer(settings, tenant, user)
    source = await add_document(redis_client, tenant, user, "Retention Policy")
    gdpr = await add_document(redis_client, tenant, user, "GDPR")
    accepted = await client.post(
        "/v1/audits", headers=headers, json={"source_document_id": source, "target_document_ids": [gdpr]}
    )
    request_id = accepted.json()["request_id"]
    event = ActionRequested.model_validate(await published_audit(js, request_id))
    assert event.source_document_id == source
    assert [d.document_id for d in event.documents] == [source, gdpr]

    async def refuse(request: ActionRequested, *_: Any) -> ActionAnswer:
        raise Refusal("audit_source_empty", "No indexed text was found in the policy.")

    await run_action_request(event, refuse, broker=broker, redis=redis_client, final_delivery=False)
    failed = (await client.get(f"/v1/requests/{request_id}", headers=headers)).json()
    assert failed["status"] == "failed"
    assert failed["error"]["code"] == "audit_source_empty"


async def test_an_api_key_audits_a_users_documents_in_its_tenant(
    client: httpx.AsyncClient, settings: Settings, redis_client: Redis, js: JetStreamContext
) -> None:
    tenant, owner = new_id("t"), new_id("u")
    gdpr = await add_document(redis_client, tenant, owner, "GDPR")
    key = (await make_key(client, admin(settings, tenant), ["audit"]))["api_key"]
    accepted = await client.post(
        "/v1/audits",
        headers={"X-API-Key": key},
        json={"source_text": "We keep logs forever.", "target_document_ids": [gdpr]},
    )
    assert accepted.status_code == 202, accepted.text
    event = await published_audit(js, accepted.json()["request_id"])
    # The worker searches the owner's chunks, and answers in the owner's conversation.
    assert event["user_id"] == owner
    history = await client.get(
        f"/v1/conversations/{event['thread_id']}", headers=bearer(settings, tenant, owner)
    )
    assert history.status_code == 200
    status = await client.get(f"/v1/requests/{event['request_id']}", headers={"X-API-Key": key})
    assert status.json()["status"] == "queued"


async def test_an_idempotency_key_repeats_the_same_request(
    client: httpx.AsyncClient, settings: Settings, redis_client: Redis
) -> None:
    tenant, user = new_id("t"), new_id("u")
    gdpr = await add_document(redis_client, tenant, user, "GDPR")
    body = {"source_text": "We keep logs forever.", "target_document_ids": [gdpr]}
    headers = {**bearer(settings, tenant, user), "Idempotency-Key": "k1"}
    first = await client.post("/v1/audits", headers=headers, json=body)
    thread = first.json()["thread_id"]
    again = await client.post("/v1/audits", headers=headers, json={**body, "thread_id": thread})
    assert again.json()["request_id"] == first.json()["request_id"]


async def test_bad_audits_get_a_clear_4xx(
    client: httpx.AsyncClient, settings: Settings, redis_client: Redis
) -> None:
    tenant, user = new_id("t"), new_id("u")
    headers = bearer(settings, tenant, user)
    gdpr = await add_document(redis_client, tenant, user, "GDPR")
    pending = await add_document(redis_client, tenant, user, "CCPA", status="processing")
    other_tenant_doc = await add_document(redis_client, new_id("t"), user, "Theirs")
    text = {"source_text": "We keep logs forever."}

    cases: list[tuple[dict[str, Any], int]] = [
        ({**text, "target_document_ids": [other_tenant_doc]}, 404),
        ({**text, "target_document_ids": [gdpr, "nosuchdoc"]}, 404),
        ({**text, "target_document_ids": [pending]}, 409),
        ({**text, "target_document_ids": [gdpr], "thread_id": "notmine"}, 404),
        ({"target_document_ids": [gdpr]}, 422),
        ({**text, "source_document_id": gdpr, "target_document_ids": [gdpr]}, 422),
        ({**text, "target_document_ids": []}, 422),
        ({**text, "target_document_ids": [gdpr] * 6}, 422),
    ]
    for body, expected in cases:
        response = await client.post("/v1/audits", headers=headers, json=body)
        assert response.status_code == expected, (body, response.text)
        assert response.json()["detail"]


async def test_credentials_scopes_and_tenants_are_enforced(
    client: httpx.AsyncClient, settings: Settings, redis_client: Redis
) -> None:
    tenant, user = new_id("t"), new_id("u")
    gdpr = await add_document(redis_client, tenant, user, "GDPR")
    body = {"source_text": "We keep logs forever.", "target_document_ids": [gdpr]}
    request_id = (await client.post("/v1/audits", headers=bearer(settings, tenant, user), json=body)).json()[
        "request_id"
    ]
    ingest_key = (await make_key(client, admin(settings, tenant), ["ingest"]))["api_key"]
    expired = bearer(settings, tenant, user, ttl_seconds=-10)

    assert (await client.post("/v1/audits", json=body)).status_code == 401
    assert (await client.post("/v1/audits", headers=expired, json=body)).status_code == 401
    assert (await client.get(f"/v1/requests/{request_id}", headers=expired)).status_code == 401
    assert (await client.post("/v1/audits", headers={"X-API-Key": ingest_key}, json=body)).status_code == 403
    assert (
        await client.get(f"/v1/requests/{request_id}", headers={"X-API-Key": ingest_key})
    ).status_code == 403
    # Another tenant's request id, and another user of the same tenant: not found.
    assert (
        await client.get(f"/v1/requests/{request_id}", headers=bearer(settings, new_id("t"), user))
    ).status_code == 404
    assert (
        await client.get(f"/v1/requests/{request_id}", headers=bearer(settings, tenant, new_id("u")))
    ).status_code == 404
    assert (
        await client.get("/v1/requests/nosuchrequest", headers=bearer(settings, tenant, user))
    ).status_code == 404
