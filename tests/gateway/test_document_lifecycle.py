"""Deleting, retrying and versioning documents through a real gateway on NATS and Valkey."""

import httpx
import pytest
from nats.js import JetStreamContext
from redis.asyncio import Redis

from policypal.config import Settings
from policypal.contracts import DocumentDeleted, DocumentUploaded
from policypal.contracts.streams import DOCS
from policypal.contracts.subjects import DOCS_DELETED, DOCS_UPLOADED
from policypal.state import DocumentCatalog
from tests.pdf_factory import one_page_pdf
from tests.support.gateway_client import bearer, new_id, upload
from tests.support.jetstream import retained_events

pytestmark = pytest.mark.integration


async def test_delete_removes_the_document_and_asks_for_its_chunks_and_bytes(
    client: httpx.AsyncClient, js: JetStreamContext, auth: dict[str, str]
) -> None:
    pdf = one_page_pdf("retention schedule")
    document_id = (await upload(client, auth, pdf)).json()["document_id"]

    response = await client.delete(f"/v1/documents/{document_id}", headers=auth)

    assert response.status_code == 204
    assert (await client.get(f"/v1/documents/{document_id}", headers=auth)).status_code == 404
    assert (await client.get("/v1/documents", headers=auth)).json()["documents"] == []
    [event] = await retained_events(js, DOCS.name, DOCS_DELETED, DocumentDeleted, document_id=document_id)
    assert event.object_name == f"{event.tenant_id}/{document_id}"
    # The same bytes are a new document now, not a duplicate of the deleted one.
    again = await upload(client, auth, pdf)
    assert again.status_code == 202
    assert again.json()["document_id"] != document_id
    assert (await client.delete(f"/v1/documents/{document_id}", headers=auth)).status_code == 404


async def test_nobody_else_can_delete_a_document(
    client: httpx.AsyncClient, settings: Settings, auth: dict[str, str]
) -> None:
    document_id = (await upload(client, auth, one_page_pdf("not yours"))).json()["document_id"]
    stranger = bearer(settings, new_id("t"), new_id("u"))
    assert (await client.delete(f"/v1/documents/{document_id}", headers=stranger)).status_code == 404
    assert (await client.get(f"/v1/documents/{document_id}", headers=auth)).status_code == 200


async def test_only_a_failed_document_is_retried_as_a_new_request(
    client: httpx.AsyncClient, js: JetStreamContext, redis_client: Redis, settings: Settings
) -> None:
    tenant, user = new_id("t"), new_id("u")
    auth = bearer(settings, tenant, user)
    first = (await upload(client, auth, one_page_pdf("retry me"))).json()
    document_id = first["document_id"]
    busy = await client.post(f"/v1/documents/{document_id}/retry", headers=auth)
    assert busy.status_code == 409
    assert busy.json()["detail"] == "Only a failed document can be retried; this one is processing."

    # The ingestor marks it failed, as it does after its last delivery.
    catalog = DocumentCatalog(redis_client)
    record = await catalog.get(tenant, user, document_id)
    assert record is not None
    await catalog.save(
        record.model_copy(update={"status": "failed", "reason_code": "ingest_error", "reason": "x"})
    )

    retried = await client.post(f"/v1/documents/{document_id}/retry", headers=auth)

    assert retried.status_code == 202
    body = retried.json()
    assert (body["document_id"], body["status"]) == (document_id, "processing")
    assert body["request_id"] != first["request_id"]
    assert body["document"]["reason_code"] is None
    events = await retained_events(js, DOCS.name, DOCS_UPLOADED, DocumentUploaded, document_id=document_id)
    assert [e.request_id for e in events] == [first["request_id"], body["request_id"]]


async def test_a_new_version_keeps_the_title_and_the_old_version(
    client: httpx.AsyncClient, auth: dict[str, str]
) -> None:
    v1 = (await upload(client, auth, one_page_pdf("version one"), set_name="EU")).json()["document"]

    form = {"version": "3.0"}
    files = {"file": ("policy-v3.pdf", one_page_pdf("version three"), "application/pdf")}
    response = await client.post(
        f"/v1/documents/{v1['document_id']}/versions", headers=auth, data=form, files=files
    )

    assert response.status_code == 202, response.text
    v3 = response.json()["document"]
    assert v3["document_id"] != v1["document_id"]
    assert (v3["title"], v3["version"], v3["doc_type"], v3["set_name"]) == (
        v1["title"],
        "3.0",
        "policy",
        "EU",
    )
    assert v3["previous_version_id"] == v1["document_id"]
    old = await client.get(f"/v1/documents/{v1['document_id']}", headers=auth)
    assert (old.status_code, old.json()["version"]) == (200, "2.1")

    same = await client.post(
        f"/v1/documents/{v1['document_id']}/versions", headers=auth, data={"version": "2.1"}, files=files
    )
    assert same.status_code == 409
