"""Deleting and retrying documents, seen from the ingestor: no point survives what its document did not."""

import asyncio

import pytest
from nats.js.errors import NotFoundError

from ingestor import rejections
from ingestor.service import DELETIONS_CONSUMER
from policypal.bus import document_store, publish_event
from policypal.contracts import DocumentDeleted, DocumentFailed, DocumentReady
from policypal.contracts.envelope import new_event_id
from policypal.vectorstore import ChunkPoint
from tests import pdf_factory
from tests.ingestor import document_factory
from tests.ingestor.bus_harness import TIMEOUT, Running, until_terminal
from tests.ingestor.fakes import MemorySource
from tests.ingestor.pipeline_harness import Harness
from tests.support.jetstream import wait_until_consumed

pytestmark = pytest.mark.integration


def _stray_point(document_id: str, index: int) -> ChunkPoint:
    return ChunkPoint(
        tenant_id="t1",
        user_id="u1",
        document_id=document_id,
        title="old run",
        version="1",
        doc_type="policy",
        chunk_index=index,
        text="left over from an earlier, longer run",
    )


async def test_a_rerun_removes_chunks_an_earlier_longer_run_left(limited_harness: Harness) -> None:
    await limited_harness.index.upsert([_stray_point("doc1", 500)], [[1.0] + [0.0] * 15])
    terminal = await limited_harness.pipeline.run(await limited_harness.upload(pdf_factory.text_pdf(2)))
    assert isinstance(terminal, DocumentReady)
    assert await limited_harness.index.count(tenant_id="t1", document_id="doc1") == terminal.chunks


async def test_a_rejected_retry_leaves_no_points_of_an_earlier_run(limited_harness: Harness) -> None:
    await limited_harness.index.upsert([_stray_point("doc1", 0)], [[1.0] + [0.0] * 15])
    terminal = await limited_harness.pipeline.run(
        await limited_harness.upload(pdf_factory.drawing_only_pdf(1))
    )
    assert isinstance(terminal, DocumentFailed)
    assert await limited_harness.index.count(tenant_id="t1", document_id="doc1") == 0


class DeletingSource(MemorySource):
    """Hands out the bytes, and meanwhile the owner deletes the document (as the gateway does)."""

    def __init__(self, harness: Harness) -> None:
        super().__init__(harness.source.objects)
        self.harness = harness

    async def fetch(self, object_name: str) -> bytes:
        record = await self.harness.catalog.get("t1", "u1", "doc1")
        assert record is not None
        await self.harness.catalog.delete(record)
        return await super().fetch(object_name)


async def test_a_document_deleted_while_indexed_ends_failed_without_points(limited_harness: Harness) -> None:
    harness = limited_harness
    upload = await harness.upload(pdf_factory.text_pdf(2))
    harness.pipeline._source = DeletingSource(harness)

    terminal = await harness.pipeline.run(upload)

    assert isinstance(terminal, DocumentFailed)
    assert terminal.reason_code == rejections.DELETED
    assert await harness.index.count(tenant_id="t1", document_id="doc1") == 0
    assert await harness.catalog.get("t1", "u1", "doc1") is None


async def test_docs_deleted_removes_chunks_and_bytes_on_the_bus(running: Running) -> None:
    upload = await running.upload(document_factory.policy_docx(), "gone")
    events = await running.events("gone")
    await publish_event(
        running.broker, upload.model_copy(update={"filename": "gone.docx", "content_type": ""})
    )
    final = (await until_terminal(events))[-1]
    assert final["type"] == "document.ready", final["reason"]
    assert await running.index.count(tenant_id=running.tenant, document_id="gone") > 0

    record = await running.catalog.get(running.tenant, "u1", "gone")
    assert record is not None
    await running.catalog.delete(record)
    deleted = DocumentDeleted(
        tenant_id=running.tenant,
        user_id="u1",
        request_id=new_event_id(),
        thread_id="gone",
        document_id="gone",
        object_name=upload.object_name,
    )
    await publish_event(running.broker, deleted)
    await publish_event(
        running.broker, deleted.model_copy(update={"event_id": new_event_id()})
    )  # twice: idempotent

    store = await document_store(running.js)
    for _ in range(200):
        if await running.index.count(tenant_id=running.tenant, document_id="gone") == 0:
            break
        await _pause()
    assert await running.index.count(tenant_id=running.tenant, document_id="gone") == 0
    await wait_until_consumed(running.js, "DOCS", DELETIONS_CONSUMER)
    with pytest.raises(NotFoundError):
        await asyncio.wait_for(store.get(upload.object_name), TIMEOUT)


async def _pause() -> None:
    await asyncio.sleep(0.05)
