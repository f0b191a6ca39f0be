"""Non-PDF and hostile uploads on the real bus: nats-server 2.15, Valkey, local Qdrant, MiniLM."""

import pytest

from policypal.bus import publish_event
from policypal.contracts import DocumentUploaded
from tests.ingestor import document_factory
from tests.ingestor.bus_harness import Running, until_terminal
from tests.support.document_uploads import make_upload, store_upload

pytestmark = pytest.mark.integration


async def _upload(running: Running, data: bytes, document_id: str, filename: str) -> DocumentUploaded:
    upload = make_upload(document_id, tenant=running.tenant).model_copy(
        update={"filename": filename, "content_type": ""}
    )
    await store_upload(running.js, running.catalog, upload, data)
    return upload


async def test_docx_and_hostile_files_side_by_side_each_end_right(running: Running) -> None:
    uploads = {
        "docx": await _upload(running, document_factory.policy_docx(), "docx", "conduct.docx"),
        "bomb": await _upload(running, document_factory.zip_bomb_docx(), "bomb", "bomb.docx"),
        "blob": await _upload(running, b"\x00\xff" * 5000, "blob", "notes.txt"),
        "md": await _upload(running, document_factory.policy_markdown(), "md", "security.md"),
    }
    subscriptions = {name: await running.events(name) for name in uploads}
    for upload in uploads.values():
        await publish_event(running.broker, upload)
    terminals = {name: (await until_terminal(sub))[-1] for name, sub in subscriptions.items()}

    assert terminals["bomb"]["reason_code"] == "decompression_bomb"
    assert terminals["blob"]["reason_code"] == "corrupt"
    assert terminals["md"]["type"] == "document.ready"
    ready = terminals["docx"]
    assert (ready["type"], ready["parser"]) == ("document.ready", "unstructured-docx")
    probe = [1.0] + [0.0] * 383
    hits = await running.index.search(
        probe, tenant_id=running.tenant, user_id="u1", document_ids=["docx"], limit=50
    )
    assert len(hits) == ready["chunks"]
    gift = next(hit for hit in hits if document_factory.GIFT_RULE in hit.text)
    assert gift.section == "1. Gifts and hospitality"
