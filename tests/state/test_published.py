"""The widget's published documents against a real Valkey: exactly what was published, in its newest
ready version; deleted, unpublished or private documents never."""

from datetime import UTC, datetime, timedelta

import pytest
from redis.asyncio import Redis

from policypal.state import DocumentCatalog, DocumentRecord
from policypal.state.published import Publication, PublishedLibrary, revision_fingerprint

pytestmark = pytest.mark.integration
T0 = datetime(2026, 1, 1, tzinfo=UTC)


def _record(document_id: str, owner: str = "alice", **fields: object) -> DocumentRecord:
    values: dict[str, object] = {
        "document_id": document_id,
        "tenant_id": "acme",
        "user_id": owner,
        "title": f"Title {document_id}",
        "version": "1",
        "doc_type": "policy",
        "filename": "f.pdf",
        "content_type": "application/pdf",
        "size_bytes": 1,
        "sha256": f"sha-{document_id}",
        "status": "ready",
        "request_id": f"req-{document_id}",
        "created_at": T0 + timedelta(minutes=len(document_id)),
    }
    return DocumentRecord.model_validate(values | fields)


def _document(document_id: str, owner: str = "alice") -> Publication:
    return Publication(kind="document", document_id=document_id, owner_id=owner, published_by="admin")


async def test_only_published_ready_documents_are_covered(redis_client: Redis) -> None:
    catalog, library = DocumentCatalog(redis_client), PublishedLibrary(redis_client)
    for record in (
        _record("pub"),
        _record("private"),
        _record("bobs", owner="bob"),
        _record("busy", status="processing"),
    ):
        await catalog.create(record)
    for publication in (_document("pub"), _document("bobs", owner="bob"), _document("busy")):
        await library.publish("acme", publication)

    assert [r.document_id for r in await library.documents("acme")] == ["bobs", "pub"]
    assert await library.documents("globex") == []

    assert await library.unpublish("acme", "document:bobs")
    assert not await library.unpublish("acme", "document:bobs")
    assert [r.document_id for r in await library.documents("acme")] == ["pub"]


async def test_deleted_documents_drop_out_and_replaced_ones_are_served_in_their_newest_ready_version(
    redis_client: Redis,
) -> None:
    catalog, library = DocumentCatalog(redis_client), PublishedLibrary(redis_client)
    await catalog.create(_record("v1"))
    await library.publish("acme", _document("v1"))
    before = revision_fingerprint(await library.documents("acme"))

    await catalog.create(_record("v2", version="2", previous_version_id="v1", status="processing"))
    assert [r.document_id for r in await library.documents("acme")] == ["v1"]  # v2 not ready yet

    v2 = await catalog.get("acme", "alice", "v2")
    assert v2 is not None
    await catalog.save(v2.model_copy(update={"status": "ready"}))
    now = await library.documents("acme")
    assert [r.document_id for r in now] == ["v2"]
    assert revision_fingerprint(now) != before

    await catalog.delete(v2)
    v1 = await catalog.get("acme", "alice", "v1")
    assert v1 is not None
    assert [r.document_id for r in await library.documents("acme")] == ["v1"]
    await catalog.delete(v1)
    assert await library.documents("acme") == []


async def test_a_published_set_covers_its_owners_documents_in_it(redis_client: Redis) -> None:
    catalog, library = DocumentCatalog(redis_client), PublishedLibrary(redis_client)
    await catalog.create(_record("faq", set_name="Help Centre"))
    await catalog.create(_record("faq2", version="2", set_name="Help Centre", previous_version_id="faq"))
    await catalog.create(_record("terms", set_name="help centre"))
    await catalog.create(_record("memo", set_name="Internal"))
    await catalog.create(_record("other", owner="bob", set_name="Help Centre"))
    publication = Publication(kind="set", set_name="Help Centre", owner_id="alice", published_by="alice")
    await library.publish("acme", publication)
    await library.publish("acme", publication)  # the same publication once

    assert len(await library.publications("acme")) == 1
    assert sorted(r.document_id for r in await library.documents("acme")) == ["faq2", "terms"]
    assert await library.unpublish("acme", publication.key)
    assert await library.documents("acme") == []
