"""Another system lists the documents it audits: an API key with the ``documents`` scope lists the
documents of a user of its tenant (``?owner=``); without the scope, or for a person naming another
user, the answer is 403 with a sentence."""

import httpx
import pytest
from redis.asyncio import Redis

from policypal.config import Settings
from policypal.state import DocumentCatalog, DocumentRecord
from tests.support.gateway_client import admin, bearer, make_key, new_id

pytestmark = pytest.mark.integration


async def _document(redis: Redis, tenant: str, user: str, title: str) -> str:
    """A ready document of ``user`` in the catalog, as the ingestor leaves it."""
    document_id = new_id("d")
    await DocumentCatalog(redis).create(
        DocumentRecord(
            document_id=document_id,
            tenant_id=tenant,
            user_id=user,
            title=title,
            version="1",
            doc_type="regulatory",
            filename="d.pdf",
            content_type="application/pdf",
            size_bytes=1,
            sha256=document_id,
            status="ready",
            request_id="upload",
        )
    )
    return document_id


async def test_a_documents_key_lists_an_owners_documents_to_audit(
    client: httpx.AsyncClient, settings: Settings, redis_client: Redis
) -> None:
    tenant, owner = new_id("t"), new_id("u")
    gdpr = await _document(redis_client, tenant, owner, "GDPR")
    await _document(redis_client, new_id("t"), owner, "Another tenant's")
    key = (await make_key(client, admin(settings, tenant), ["audit", "documents"]))["api_key"]

    response = await client.get("/v1/documents", params={"owner": owner}, headers={"X-API-Key": key})

    assert response.status_code == 200, response.text
    assert [(d["document_id"], d["title"]) for d in response.json()["documents"]] == [(gdpr, "GDPR")]


async def test_a_key_without_the_scope_or_without_an_owner_is_told_what_is_missing(
    client: httpx.AsyncClient, settings: Settings, redis_client: Redis
) -> None:
    tenant, owner = new_id("t"), new_id("u")
    await _document(redis_client, tenant, owner, "GDPR")
    audit_only = (await make_key(client, admin(settings, tenant), ["audit"]))["api_key"]
    refused = await client.get("/v1/documents", params={"owner": owner}, headers={"X-API-Key": audit_only})
    assert refused.status_code == 403
    assert "'documents' scope" in refused.json()["detail"]

    lister = (await make_key(client, admin(settings, tenant), ["documents"]))["api_key"]
    unnamed = await client.get("/v1/documents", headers={"X-API-Key": lister})
    assert unnamed.status_code == 422
    assert "owner=" in unnamed.json()["detail"]


async def test_a_person_lists_only_their_own_documents(
    client: httpx.AsyncClient, settings: Settings, redis_client: Redis
) -> None:
    tenant, alice, bob = new_id("t"), new_id("u"), new_id("u")
    mine = await _document(redis_client, tenant, alice, "Mine")
    await _document(redis_client, tenant, bob, "Bob's")
    headers = bearer(settings, tenant, alice)

    own = await client.get("/v1/documents", params={"owner": alice}, headers=headers)
    assert [d["document_id"] for d in own.json()["documents"]] == [mine]
    other = await client.get("/v1/documents", params={"owner": bob}, headers=headers)
    assert other.status_code == 403
