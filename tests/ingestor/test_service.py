"""The ingestor on the real bus: nats-server 2.15 (JetStream + Object Store), Valkey, local Qdrant."""

import asyncio
import json
import uuid
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import nats
import pytest
from faststream.nats import NatsBroker
from nats.aio.client import Client
from nats.aio.subscription import Subscription
from nats.js import JetStreamContext
from redis.asyncio import Redis

from ingestor.service import CONSUMER, build_router
from policypal.bus import build_broker, declare_streams, document_store, publish_event
from policypal.config import Settings
from policypal.contracts import DocumentUploaded
from policypal.contracts.envelope import new_event_id
from policypal.contracts.subjects import DOCS_UPLOADED, dead_letter, thread_events_filter
from policypal.devstack import ManagedProcess
from policypal.embeddings import MiniLMEmbedder
from policypal.state import DocumentCatalog
from policypal.vectorstore import ChunkIndex, open_qdrant
from tests import pdf_factory
from tests.ingestor.test_pipeline import make_upload, record_for

pytestmark = pytest.mark.integration

TIMEOUT = 20.0


@pytest.fixture(scope="session")
def embedder() -> MiniLMEmbedder:
    return MiniLMEmbedder(batch_size=8)


@dataclass
class Running:
    broker: NatsBroker
    nc: Client
    js: JetStreamContext
    catalog: DocumentCatalog
    index: ChunkIndex
    tenant: str

    async def upload(self, data: bytes, document_id: str) -> DocumentUploaded:
        """Store the bytes and the record as the gateway does; the caller publishes the event."""
        upload = make_upload(document_id, tenant=self.tenant)
        await (await document_store(self.js)).put(upload.object_name, data)
        await self.catalog.create(record_for(upload))
        return upload

    async def events(self, document_id: str) -> Subscription:
        return await self.nc.subscribe(thread_events_filter(self.tenant, document_id))


@pytest.fixture
async def running(
    nats_server: ManagedProcess, redis_client: Redis, embedder: MiniLMEmbedder, tmp_path: Path
) -> AsyncIterator[Running]:
    settings = Settings(nats_url=nats_server.url, max_deliver=3)
    client = open_qdrant(None, path=tmp_path / "q")
    index = ChunkIndex(client, model_id=embedder.model_id, dimension=embedder.dimension)
    await index.ensure_collection()
    assert nats_server.url is not None
    nc = await nats.connect(nats_server.url)
    js = nc.jetstream()
    broker = build_broker(settings)
    broker.include_router(build_router(settings, redis=redis_client, index=index, embedder=embedder))
    await broker.start()
    await declare_streams(js)
    # A fresh tenant per test: the server (and its durable consumer) lives for the whole session.
    tenant = f"t{uuid.uuid4().hex[:8]}"
    try:
        yield Running(broker, nc, js, DocumentCatalog(redis_client), index, tenant)
    finally:
        await broker.stop()
        # close, not drain: drain would wait for events left unread in the tests' subscriptions.
        await nc.close()
        await client.close()


async def _until_terminal(sub: Subscription) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = []
    while True:
        msg = await sub.next_msg(timeout=TIMEOUT)
        event: dict[str, Any] = json.loads(msg.data)
        events.append(event)
        if event["type"] in ("document.ready", "document.failed"):
            return events


async def _wait_until_settled(js: JetStreamContext, consumer: str = CONSUMER) -> None:
    for _ in range(400):
        info = await js.consumer_info("DOCS", consumer)
        if info.num_pending == 0 and info.num_ack_pending == 0:
            return
        await asyncio.sleep(0.05)
    raise AssertionError("the ingestor did not settle its messages")


async def test_upload_is_indexed_with_progress_then_ready(running: Running) -> None:
    upload = await running.upload(pdf_factory.text_pdf(3), "doc3p")
    sub = await running.events("doc3p")
    await publish_event(running.broker, upload)
    events = await _until_terminal(sub)

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
    await _wait_until_settled(running.js)
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

    failed = (await _until_terminal(bad_events))[-1]
    assert (failed["type"], failed["reason_code"]) == ("document.failed", code)
    record = await running.catalog.get(running.tenant, "u1", "bad")
    assert record is not None
    assert (record.status, record.reason_code) == ("failed", code)
    assert (await _until_terminal(good_events))[-1]["type"] == "document.ready"


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
    assert msg.headers["Policypal-Error"].startswith("invalid DocumentUploaded")
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
