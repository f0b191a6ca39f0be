"""The ingestor as OS processes (``python -m ingestor``) on a real nats-server, Valkey and local Qdrant.

- Kill -9 mid-document: the kill lands while the chunks are being embedded, so some points are
  already written; the redelivered message must end in one ``document.ready`` with exactly the
  points of an uninterrupted run of the same bytes (stable point ids: no duplicates, no strays).
- Two replicas share the uploads; one replica works on several documents at once.
"""

import asyncio
import json
from pathlib import Path
from typing import Any

import nats
import pytest
from nats.aio.subscription import Subscription
from nats.js import JetStreamContext
from redis.asyncio import Redis

from ingestor.service import CONSUMER
from policypal.contracts.subjects import DOCS_UPLOADED, thread_events_filter
from policypal.state import DocumentCatalog
from policypal.vectorstore import open_embedded_index
from tests import pdf_factory
from tests.faults.stack import fault_stack, jetstream
from tests.support.document_uploads import make_upload, store_upload
from tests.support.offline_embedder import offline_embedder

pytestmark = [pytest.mark.faults, pytest.mark.integration]

TENANT = "acme"
PAGES = 40


async def _upload(js: JetStreamContext, redis: Redis, document_id: str, data: bytes) -> None:
    """Store the bytes and the record, then publish ``docs.uploaded``, as the gateway does."""
    upload = make_upload(document_id, tenant=TENANT)
    await store_upload(js, DocumentCatalog(redis), upload, data)
    await js.publish(
        DOCS_UPLOADED, upload.model_dump_json().encode(), headers={"Nats-Msg-Id": upload.event_id}
    )


async def _next_event(sub: Subscription, within: float) -> dict[str, Any]:
    event: dict[str, Any] = json.loads((await sub.next_msg(timeout=within)).data)
    return event


async def _until_embedding_started(sub: Subscription) -> None:
    while True:
        event = await _next_event(sub, 120)
        if event["type"] != "ingest.progress":
            raise AssertionError(f"ended before embedding: {event}")
        if event["stage"] == "embedding" and (event.get("done") or 0) > 0:
            return


async def _until_terminal(sub: Subscription, within: float) -> dict[str, Any]:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + within
    while True:
        event = await _next_event(sub, max(deadline - loop.time(), 0.1))
        if event["type"] in ("document.ready", "document.failed"):
            return event


async def _count(qdrant_path: Path, document_id: str) -> int:
    """Points of a document in the embedded index, opened and released again (it is single-process)."""
    embedder = offline_embedder()
    index = await open_embedded_index(qdrant_path, model_id=embedder.model_id, dimension=embedder.dimension)
    try:
        return await index.count(tenant_id=TENANT, document_id=document_id)
    finally:
        await index.aclose()


async def _settled(js: JetStreamContext) -> bool:
    """True once every ``docs.uploaded`` message is acknowledged (the ack follows the terminal event)."""
    for _ in range(200):
        info = await js.consumer_info("DOCS", CONSUMER)
        if (info.num_pending, info.num_ack_pending) == (0, 0):
            return True
        await asyncio.sleep(0.05)
    return False


async def test_a_document_interrupted_by_kill_completes_with_the_same_points(tmp_path: Path) -> None:
    data = pdf_factory.text_pdf(PAGES)
    async with fault_stack(tmp_path) as stack, jetstream(stack.nats_url) as js:
        redis = Redis.from_url(stack.redis_url, decode_responses=True)
        nc = await nats.connect(stack.nats_url)
        killed_events = await nc.subscribe(thread_events_filter(TENANT, "killed"))
        clean_events = await nc.subscribe(thread_events_filter(TENANT, "clean"))

        worker = stack.start_worker("ingestor")
        await _upload(js, redis, "killed", data)
        await _until_embedding_started(killed_events)
        worker.kill()
        # Killed mid-document: still processing, some points written (local Qdrant is free again).
        interrupted = await DocumentCatalog(redis).get(TENANT, "u1", "killed")
        written_before_restart = await _count(tmp_path / "qdrant", "killed")

        stack.start_worker("ingestor")
        killed = await _until_terminal(killed_events, 180)
        await _upload(js, redis, "clean", data)
        clean = await _until_terminal(clean_events, 180)

        settled = await _settled(js)
        record = await DocumentCatalog(redis).get(TENANT, "u1", "killed")
        await redis.aclose()
        await nc.close()
        stack.stop()  # local Qdrant is single-process: release it before reading the points

    assert interrupted is not None
    assert interrupted.status == "processing"
    assert 0 <= written_before_restart < clean["chunks"]
    assert killed["type"] == clean["type"] == "document.ready", (killed, clean)
    assert killed["chunks"] == clean["chunks"] > PAGES
    assert record is not None
    assert record.status == "ready"
    assert settled, "the redelivered message was acknowledged"
    assert await _count(tmp_path / "qdrant", "killed") == clean["chunks"]
    assert await _count(tmp_path / "qdrant", "clean") == clean["chunks"]


async def test_two_ingestor_processes_share_the_uploads(tmp_path: Path) -> None:
    """Two replicas on one durable: every upload is indexed once, by one of them, and both work.

    Local Qdrant is single-process, so each replica gets its own directory here (in production
    both talk to one Qdrant server); which directory holds a document shows who indexed it.
    """
    documents = [f"doc{number}" for number in range(6)]
    async with fault_stack(tmp_path) as stack, jetstream(stack.nats_url) as js:
        redis = Redis.from_url(stack.redis_url, decode_responses=True)
        nc = await nats.connect(stack.nats_url)
        events = {name: await nc.subscribe(thread_events_filter(TENANT, name)) for name in documents}
        for replica in ("a", "b"):
            stack.start_worker("ingestor", POLICYPAL_QDRANT_PATH=str(tmp_path / f"qdrant-{replica}"))
        for number, name in enumerate(documents):
            await _upload(js, redis, name, pdf_factory.text_pdf(8 + number))
        terminals = {name: await _until_terminal(events[name], 180) for name in documents}
        settled = await _settled(js)
        await redis.aclose()
        await nc.close()
        stack.stop()

    assert {name: t["type"] for name, t in terminals.items()} == dict.fromkeys(documents, "document.ready")
    assert settled
    placement: dict[str, list[str]] = {"a": [], "b": []}
    for name in documents:
        counts = {r: await _count(tmp_path / f"qdrant-{r}", name) for r in placement}
        assert sorted(counts.values()) == [0, terminals[name]["chunks"]], (name, counts)
        placement[max(counts, key=lambda r: counts[r])].append(name)
    assert placement["a"], placement
    assert placement["b"], placement


@pytest.mark.parametrize(("concurrency", "first_ready"), [("1", "long"), ("2", "short")])
async def test_one_process_works_on_several_uploads_at_once(
    tmp_path: Path, concurrency: str, first_ready: str
) -> None:
    """A short upload queued behind a long one is ready first when the replica takes both at once
    (and last when it takes one at a time: the control that shows the test can fail)."""
    async with fault_stack(tmp_path) as stack, jetstream(stack.nats_url) as js:
        redis = Redis.from_url(stack.redis_url, decode_responses=True)
        nc = await nats.connect(stack.nats_url)
        ready = await nc.subscribe(f"events.{TENANT}.*.ready")
        await _upload(js, redis, "long", pdf_factory.text_pdf(PAGES))
        await _upload(js, redis, "short", pdf_factory.text_pdf(1))
        stack.start_worker("ingestor", POLICYPAL_INGEST_CONCURRENCY=concurrency)
        order = [(await _next_event(ready, 180))["document_id"] for _ in range(2)]
        await redis.aclose()
        await nc.close()

    assert order[0] == first_ready, order
    assert sorted(order) == ["long", "short"]
