"""The colocated worker (ingestor and @Inquire on one broker, one embedder, one embedded index, as
``policypal up`` runs them) under a CPU-heavy ingestion and 50 questions at once: every question is
answered exactly once, and JetStream redelivers none of them (a publish that timed out used to fail a
question, which JetStream then delivered again)."""

import asyncio
import time
import uuid
from pathlib import Path
from typing import Any

import nats
import pytest
from nats.js import JetStreamContext
from redis.asyncio import Redis

from actions.inquire.service import DURABLE, SUBJECT
from actions.inquire.service import build_router as inquire_router
from ingestor.service import CONSUMER
from ingestor.service import build_router as ingestor_router
from policypal.bus import build_broker, publish_event
from policypal.config import Settings
from policypal.contracts import ActionRequested
from policypal.contracts.streams import ACTIONS, DOCS, EVENTS
from policypal.contracts.subjects import DOCS_UPLOADED
from policypal.devstack import ManagedProcess
from policypal.embeddings import MiniLMEmbedder
from policypal.state import ConversationRecord, ConversationStore, DocumentCatalog
from policypal.vectorstore import open_embedded_index
from tests.actions.worker_harness import USER, index_pdf
from tests.pdf_factory import make_pdf
from tests.support.document_uploads import make_upload, store_upload
from tests.support.jetstream import payload, reset_bus, stream_messages, wait_for_messages

pytestmark = pytest.mark.integration

QUESTIONS = 50
#: Pages of the document ingested meanwhile (~5 passages a page, and their rule units).
INGESTED_PAGES = 40
TERMINAL_KINDS = ("response", "error", "interrupt")

HANDBOOK = [
    "Records retention. Customer records must be kept for seven years after the account closes. "
    "Payroll records shall be kept for six years. Email is deleted after two years unless a legal "
    "hold applies.",
    "Breach notification. A personal data breach must be reported to the data protection officer "
    "within 24 hours. The officer shall notify the supervisory authority within 72 hours.",
]
ASKED = [
    "How long are customer records kept?",
    "When must a data breach be reported?",
    "How long is payroll kept?",
    "When is email deleted?",
    "Who notifies the supervisory authority?",
]


def _manual_page(number: int) -> str:
    clause = (
        f"Section {number}.{{k}}. The operator of system {number} must review the access list every "
        "quarter, and shall remove accounts that have not been used for ninety days. Changes to the "
        "production environment may only be made after a second engineer approved them in writing. "
    )
    return "\n".join(clause.format(k=k) * 2 for k in range(1, 8))


async def _terminal_events(js: JetStreamContext, tenant: str, *, within: float) -> list[dict[str, Any]]:
    """The terminal events of the questions' conversations once there is one per question."""
    deadline = time.monotonic() + within
    while True:
        found = [
            payload(m)
            for kind in TERMINAL_KINDS
            for m in await stream_messages(js, EVENTS.name, f"events.{tenant}.*.{kind}")
        ]
        if len(found) >= QUESTIONS or time.monotonic() > deadline:
            return found
        await asyncio.sleep(0.2)


async def test_fifty_questions_during_an_ingestion_are_answered_once_and_never_redelivered(
    nats_server: ManagedProcess, redis_client: Redis, embedder: MiniLMEmbedder, tmp_path: Path
) -> None:
    nc = await nats.connect(str(nats_server.url))
    js = nc.jetstream()
    await reset_bus(
        js,
        durables={DOCS.name: CONSUMER, ACTIONS.name: DURABLE},
        purge={DOCS.name: DOCS_UPLOADED, ACTIONS.name: SUBJECT},
    )
    tenant = f"t{uuid.uuid4().hex[:10]}"
    index = await open_embedded_index(
        tmp_path / "index", model_id=embedder.model_id, dimension=embedder.dimension
    )
    pages = HANDBOOK + [_manual_page(n) for n in range(100, 110)]
    await index_pdf(
        index, embedder, tenant=tenant, document_id="handbook", title="Handbook", version="1", pages=pages
    )
    settings = Settings(_env_file=None, nats_url=nats_server.url, max_deliver=3)
    broker = build_broker(settings)
    broker.include_router(ingestor_router(settings, redis=redis_client, index=index, embedder=embedder))
    broker.include_router(inquire_router(settings, redis=redis_client, index=index, embedder=embedder))
    await broker.start()
    try:
        upload = make_upload("manual", tenant=tenant)
        pdf = make_pdf([_manual_page(n) for n in range(1, INGESTED_PAGES + 1)], title="Operations manual")
        await store_upload(js, DocumentCatalog(redis_client), upload, pdf)
        await publish_event(broker, upload)
        # The questions come once the embedding (the CPU-heavy part) is under way.
        await wait_for_messages(js, EVENTS.name, f"events.{tenant}.manual.progress", count=4, within=60)
        conversations = ConversationStore(redis_client)
        requests = []
        for n in range(QUESTIONS):
            record = ConversationRecord(conversation_id=f"conv{n}", tenant_id=tenant, user_id=USER)
            await conversations.create(record)
            requests.append(
                ActionRequested(
                    tenant_id=tenant,
                    user_id=USER,
                    request_id=f"req-{n}",
                    thread_id=record.conversation_id,
                    action="inquire",
                    # A number of its own: no two questions are the same one (answer cache).
                    query=f"{ASKED[n % len(ASKED)]} (ticket {n})",
                    documents=[],
                )
            )
        before = [
            payload(m)["type"] for m in await stream_messages(js, EVENTS.name, f"events.{tenant}.manual.>")
        ]
        started = time.monotonic()
        await asyncio.gather(*(publish_event(broker, request) for request in requests))
        ended_requests = await _terminal_events(js, tenant, within=120)
        answering = time.monotonic() - started
        consumer = await js.consumer_info(ACTIONS.name, DURABLE)
        [ended] = await wait_for_messages(js, EVENTS.name, f"events.{tenant}.manual.ready", within=180)
    finally:
        await broker.stop()
        await index.aclose()
        await nc.drain()

    # The ingestion was under way when the questions came, and it ended well.
    assert "document.ready" not in before
    assert "ingest.progress" in before
    assert payload(ended)["chunks"] > 100
    # One terminal event per question, none an error (a question may be answered with a PalAssist one).
    assert sorted(body["request_id"] for body in ended_requests) == sorted(r.request_id for r in requests)
    assert {body["type"] for body in ended_requests} <= {"response", "interrupt"}
    assert consumer.num_redelivered == 0, f"{consumer.num_redelivered} questions delivered again"
    assert consumer.delivered.consumer_seq == QUESTIONS
    print(f"{QUESTIONS} questions answered in {answering:.1f} s during the ingestion")
