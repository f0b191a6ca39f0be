"""The ingestor on the real bus: nats-server 2.15 (JetStream + Object Store), Valkey, local Qdrant."""

import json
import uuid

import pytest

from ingestor.service import CONSUMER
from policypal.bus import publish_event
from policypal.contracts.envelope import new_event_id
from policypal.contracts.subjects import DOCS_UPLOADED, dead_letter
from tests import pdf_factory
from tests.ingestor.bus_harness import TIMEOUT, Running, until_terminal
from tests.support.document_uploads import make_upload
from tests.support.jetstream import wait_until_consumed

pytestmark = pytest.mark.integration


async def test_upload_is_indexed_with_progress_then_ready(running: Running) -> None:
    upload = await running.upload(pdf_factory.text_pdf(3), "doc3p")
    sub = await running.events("doc3p")
    await publish_event(running.broker, upload)
    events = await until_terminal(sub)

    stages = [e["stage"] for e in events if e["type"] == "ingest.progress"]
    assert stages[0] == "stored"
    assert stages[-1] == "indexed"
    assert {"parsing", "parsed", "chunked", "embedding", "embedded"} <= set(stages)
    ready = events[-1]
    assert (ready["type"], ready["request_id"], ready["pages"], ready["parser"]) == (
        "document.ready",
        upload.request_id,
        3,
        "pdfium",
    )
    chunks = ready["chunks"]
    assert chunks >= 3

    record = await running.catalog.get(running.tenant, "u1", "doc3p")
    assert record is not None
    assert (record.status, record.pages, record.chunks) == ("ready", 3, chunks)
    assert await running.index.count(tenant_id=running.tenant, document_id="doc3p") == chunks
    probe = [1.0] + [0.0] * 383
    hits = await running.index.search(probe, tenant_id=running.tenant, user_id="u1", limit=100)
    assert sorted(hit.chunk_index for hit in hits) == list(range(chunks))
    assert all(f"Page {hit.page} clause" in hit.text for hit in hits)

    # The same upload published again (a new message of the same request): same points, still ready.
    await publish_event(running.broker, upload.model_copy(update={"event_id": new_event_id()}))
    await wait_until_consumed(running.js, "DOCS", CONSUMER)
    assert await running.index.count(tenant_id=running.tenant, document_id="doc3p") == chunks
    record = await running.catalog.get(running.tenant, "u1", "doc3p")
    assert record is not None
    assert record.status == "ready"


@pytest.mark.parametrize(
    ("data", "code"),
    [
        pytest.param(pdf_factory.drawing_only_pdf(2), "no_text_layer", id="scanned"),
        pytest.param(b"%PDF-1.7\n" + b"\x13\x37garbage" * 200, "corrupt", id="garbage"),
    ],
)
async def test_bad_upload_ends_failed_and_the_worker_keeps_serving(
    running: Running, data: bytes, code: str
) -> None:
    bad = await running.upload(data, "bad")
    good = await running.upload(pdf_factory.text_pdf(1), "good")
    bad_events, good_events = await running.events("bad"), await running.events("good")
    await publish_event(running.broker, bad)
    await publish_event(running.broker, good)

    failed = (await until_terminal(bad_events))[-1]
    assert (failed["type"], failed["reason_code"]) == ("document.failed", code)
    record = await running.catalog.get(running.tenant, "u1", "bad")
    assert record is not None
    assert (record.status, record.reason_code) == ("failed", code)
    assert (await until_terminal(good_events))[-1]["type"] == "document.ready"


@pytest.mark.parametrize("shape", ["wrong fields", "not json"])
async def test_invalid_payload_goes_to_the_dead_letter_subject(running: Running, shape: str) -> None:
    dlq = await running.nc.subscribe(dead_letter(DOCS_UPLOADED))
    marker = uuid.uuid4().hex
    payload = (
        json.dumps({"type": "document.uploaded", "marker": marker}).encode()
        if shape == "wrong fields"
        else b"\xff\xfe{not json " + marker.encode()
    )
    await running.js.publish(DOCS_UPLOADED, payload)

    while True:
        msg = await dlq.next_msg(timeout=TIMEOUT)
        if marker.encode() in msg.data:
            break
    assert msg.headers is not None
    # A body that is not JSON is refused on admission; one that is, by the event's model.
    expected = "invalid DocumentUploaded" if shape == "wrong fields" else "invalid: the body is not JSON"
    assert msg.headers["Policypal-Error"].startswith(expected)
    assert msg.headers["Policypal-Error-Code"] == "invalid"
    assert msg.headers["Policypal-Original-Subject"] == DOCS_UPLOADED


async def test_upload_without_a_record_is_dead_lettered(running: Running) -> None:
    dlq = await running.nc.subscribe(dead_letter(DOCS_UPLOADED))
    stray = make_upload("ghost", tenant=running.tenant)
    await publish_event(running.broker, stray)

    while True:
        msg = await dlq.next_msg(timeout=TIMEOUT)
        if stray.event_id.encode() in msg.data:
            break
    assert msg.headers is not None
    assert msg.headers["Policypal-Error"].startswith("unprocessable: no document ghost")


async def test_consumer_is_a_durable_pull_consumer_shared_by_replicas(running: Running) -> None:
    info = await running.js.consumer_info("DOCS", CONSUMER)
    config = info.config
    assert config.durable_name == CONSUMER
    assert config.deliver_subject is None  # pull: every replica fetches from the same consumer
    assert config.max_deliver == 3
    assert config.ack_wait == 60.0
    assert str(config.ack_policy) in ("AckPolicy.EXPLICIT", "explicit")
    assert config.filter_subject == DOCS_UPLOADED
