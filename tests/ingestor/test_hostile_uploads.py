"""Attacks on ingestion, each against real nats-server, Valkey and Qdrant: too much text on a page,
a billion-laughs DOCX, a forged deletion, a deletion that must stop a running ingestion, and a
large document that must not hold up a small one behind it."""

import asyncio
import json
import time
from typing import Any

import pytest
from nats.aio.subscription import Subscription
from redis.asyncio import Redis

from ingestor import rejections
from ingestor.parsing import IngestLimits
from ingestor.service import DELETIONS_CONSUMER
from ingestor.text_budget import TextLimits
from policypal.bus import document_store, publish_event
from policypal.contracts import DocumentDeleted
from policypal.contracts.envelope import new_event_id
from policypal.contracts.subjects import DOCS_DELETED, dead_letter
from tests import hostile_documents, pdf_factory
from tests.ingestor import document_factory
from tests.ingestor.bus_harness import TIMEOUT, Running, until_terminal
from tests.ingestor.pipeline_harness import Harness
from tests.support.document_uploads import make_upload, record_for
from tests.support.jetstream import wait_until_consumed

pytestmark = pytest.mark.integration


async def test_a_page_with_megabytes_of_words_fails_fast_as_too_much_text(harness: Harness) -> None:
    upload = await harness.upload(hostile_documents.words_page_pdf(3_000_000))
    started = time.monotonic()
    result = await harness.pipeline.run(upload)
    took = time.monotonic() - started

    assert result.type == "document.failed"
    assert result.reason_code == rejections.TOO_MUCH_TEXT  # type: ignore[attr-defined]
    assert "Page 1 holds more than 100,000 characters" in result.reason  # type: ignore[attr-defined]
    # Refused from the page's content stream, before PDFium extracted 3 M characters (~1 s, ~500 MB).
    assert took < 1.0, took
    assert not [e for e in harness.sink.progress_events if e.stage == "embedding"]
    assert await harness.index.count(tenant_id=upload.tenant_id, document_id=upload.document_id) == 0


@pytest.mark.parametrize(
    ("limits", "reason"),
    [
        pytest.param(TextLimits(max_chars=10_000), "more than the limit of 10,000", id="characters"),
        pytest.param(TextLimits(max_chunks=8), "more than 8 passages", id="passages"),
    ],
)
async def test_a_document_over_a_text_limit_stops_while_it_is_read(
    harness: Harness, redis_client: Redis, limits: TextLimits, reason: str
) -> None:
    limited = Harness(redis_client, harness.index, limits=IngestLimits(text=limits))
    # 10 pages of ~4,000 characters (3 passages) each.
    upload = await limited.upload(pdf_factory.text_pdf(10))
    result = await limited.pipeline.run(upload)
    assert (result.type, result.reason_code) == ("document.failed", rejections.TOO_MUCH_TEXT)  # type: ignore[attr-defined]
    assert reason in result.reason  # type: ignore[attr-defined]
    read = [e.done for e in limited.sink.progress_events if e.stage == "parsed" and e.done]
    assert max(read, default=0) < 5, "the pages after the limit were read anyway"
    assert not [e for e in limited.sink.progress_events if e.stage == "embedding"]


async def test_a_billion_laughs_docx_is_refused_for_its_entities(harness: Harness) -> None:
    bomb = hostile_documents.billion_laughs_docx(document_factory.policy_docx())
    upload = make_upload("laughs").model_copy(update={"filename": "laughs.docx", "content_type": ""})
    harness.source.objects[upload.object_name] = bomb
    await harness.catalog.create(record_for(upload))
    result = await harness.pipeline.run(upload)
    assert (result.type, result.reason_code) == ("document.failed", rejections.XML_ENTITIES)  # type: ignore[attr-defined]
    assert "word/document.xml" in result.reason  # type: ignore[attr-defined]


async def test_a_forged_deletion_of_a_ready_document_changes_nothing(running: Running) -> None:
    upload = await running.upload(pdf_factory.text_pdf(1), "kept")
    events = await running.events("kept")
    await publish_event(running.broker, upload)
    assert (await until_terminal(events))[-1]["type"] == "document.ready"
    points = await running.index.count(tenant_id=running.tenant, document_id="kept")

    dlq = await running.nc.subscribe(dead_letter(DOCS_DELETED))
    forged = DocumentDeleted(
        tenant_id=running.tenant,
        user_id="someone-else",
        request_id=new_event_id(),
        thread_id="kept",
        document_id="kept",
        object_name=upload.object_name,
    )
    await publish_event(running.broker, forged)
    while True:
        msg = await dlq.next_msg(timeout=TIMEOUT)
        if forged.event_id.encode() in msg.data:
            break
    assert msg.headers is not None
    assert "still in the catalog (ready)" in msg.headers["Policypal-Error"]
    await wait_until_consumed(running.js, "DOCS", DELETIONS_CONSUMER)
    assert await running.index.count(tenant_id=running.tenant, document_id="kept") == points
    store = await document_store(running.js)
    assert (await asyncio.wait_for(store.get(upload.object_name), TIMEOUT)).data
    record = await running.catalog.get(running.tenant, "u1", "kept")
    assert record is not None
    assert record.status == "ready"


async def _until_embedding(sub: Subscription) -> dict[str, Any]:
    while True:
        event: dict[str, Any] = json.loads((await sub.next_msg(timeout=60)).data)
        assert event["type"] == "ingest.progress", event
        if event["stage"] == "embedding" and (event.get("done") or 0) > 0:
            return event


async def test_deleting_a_document_stops_its_ingestion_and_removes_what_it_wrote(running: Running) -> None:
    upload = await running.upload(pdf_factory.text_pdf(40), "big")
    events = await running.events("big")
    await publish_event(running.broker, upload)
    embedding = await _until_embedding(events)

    record = await running.catalog.get(running.tenant, "u1", "big")
    assert record is not None
    await running.catalog.delete(record)  # what the gateway does first when the owner deletes
    deleted_at = time.monotonic()
    final = (await until_terminal(events))[-1]
    stopped_in = time.monotonic() - deleted_at

    assert (final["type"], final["reason_code"]) == ("document.failed", rejections.DELETED)
    # Embedding the rest (~200 passages at ~14/s on two cores) would take far longer.
    assert stopped_in < 5.0, f"ingestion went on for {stopped_in:.1f} s after the deletion"
    assert embedding["total"] > 100
    assert await running.index.count(tenant_id=running.tenant, document_id="big") == 0


async def test_a_small_upload_behind_a_large_one_is_ready_in_seconds(running: Running) -> None:
    large = await running.upload(pdf_factory.text_pdf(60), "large")
    small = await running.upload(pdf_factory.text_pdf(1), "small")
    large_events, small_events = await running.events("large"), await running.events("small")
    await publish_event(running.broker, large)
    await _until_embedding(large_events)  # the large one holds the worker now

    published = time.monotonic()
    await publish_event(running.broker, small)
    small_final = (await until_terminal(small_events))[-1]
    small_took = time.monotonic() - published

    assert small_final["type"] == "document.ready"
    assert small_took < 10.0, f"the small document waited {small_took:.1f} s"
    large_record = await running.catalog.get(running.tenant, "u1", "large")
    assert large_record is not None
    assert large_record.status == "processing", "the large document was already done: nothing was shown"
    # Let the large one finish so the shared consumer is idle for the next test.
    await running.catalog.delete(large_record)
    await until_terminal(large_events)
