"""FastStream shell of the ingestor: ``docs.uploaded`` on DOCS -> ``IngestPipeline``.

A durable pull consumer named "ingestor" shared by every replica (they split the load), manual acks,
and every delivery settled by ``policypal.bus.process_delivery``.
"""

import logging
from typing import Annotated, Any

from faststream import Context
from faststream.nats import NatsRouter
from faststream.nats.annotations import JsClient, NatsBroker, NatsMessage
from nats.js.object_store import ObjectStore
from redis.asyncio import Redis

from ingestor.deletion import remove_document_data
from ingestor.document_admission import DocumentAdmission
from ingestor.document_source import ObjectStoreSource
from ingestor.parsing import IngestLimits
from ingestor.pipeline import ChunkingOptions, IngestPipeline
from ingestor.text_budget import TextLimits
from ingestor.work_turns import FairTurns
from policypal.bus import (
    Unprocessable,
    declare_streams,
    document_store,
    durable_pull_subscriber,
    is_last_delivery,
    process_delivery,
    publish_event,
    publish_terminal,
)
from policypal.bus.delivery import KEEPALIVES_PER_ACK_WAIT, ack_wait_of
from policypal.config import Settings
from policypal.contracts import DocumentDeleted, DocumentUploaded, IngestProgress
from policypal.contracts.envelope import Envelope
from policypal.contracts.streams import DLQ, DOCS, EVENTS
from policypal.contracts.subjects import DOCS_DELETED, DOCS_UPLOADED
from policypal.embeddings import Embedder, background_embedder
from policypal.state import DocumentCatalog, RequestLedger
from policypal.vectorstore import ChunkIndex

logger = logging.getLogger(__name__)

CONSUMER = "ingestor"
DELETIONS_CONSUMER = "ingestor-deletions"


class BusSink:
    """Publishes the pipeline's events on the bus; terminal events once per request (via the ledger)."""

    def __init__(self, broker: NatsBroker, ledger: RequestLedger) -> None:
        self._broker = broker
        self._ledger = ledger

    async def progress(self, event: IngestProgress) -> None:
        """Publish a progress event on events.<tenant>.<document>.progress."""
        await publish_event(self._broker, event)

    async def terminal(self, event: Envelope) -> Envelope:
        """Publish the terminal event of the upload request exactly once."""
        return await publish_terminal(self._broker, self._ledger, event)


def build_router(settings: Settings, *, redis: Redis, index: ChunkIndex, embedder: Embedder) -> NatsRouter:
    """The ingestor's router; include it in a broker (``run_worker`` or a test broker) to serve."""
    router = NatsRouter()
    # Ingestion is bulk work: beside action workers in one process it must not starve their questions.
    embedder = background_embedder(embedder)
    catalog = DocumentCatalog(redis)
    ledger = RequestLedger(redis)
    options = ChunkingOptions(chunk_size=settings.chunk_size, chunk_overlap=settings.chunk_overlap)
    limits = IngestLimits(
        max_bytes=settings.max_upload_bytes,
        max_pages=settings.max_pages,
        max_unpacked_bytes=settings.max_unpacked_bytes,
        text=TextLimits(
            max_chars=settings.max_text_chars,
            max_chunks=settings.max_chunks,
            max_page_chars=settings.max_page_chars,
        ),
    )
    # Looked up once per process, on the first message (both need the connection).
    stores: dict[str, ObjectStore] = {}
    # Up to ingest_concurrency documents at once per replica, admitted one by one as places free up,
    # taking fair turns for every page read and every few passages embedded: a small upload behind a
    # 500-page one is ready in seconds (docs/adr/0008-fair-bounded-ingestion.md). Memory stays bounded
    # by the text limits. Ingestion is CPU-bound, so more replicas, not more concurrency, add throughput.
    admission = DocumentAdmission(settings.ingest_concurrency)
    turns = FairTurns(settings.ingest_work_slots)

    @durable_pull_subscriber(router, DOCS_UPLOADED, stream=DOCS, durable=CONSUMER, settings=settings)
    async def on_document_uploaded(
        msg: NatsMessage, broker: NatsBroker, js: JsClient, subscriber: Annotated[Any, Context("handler_")]
    ) -> None:
        if "store" not in stores:
            # We publish to EVENTS and DLQ; a stream is only declared by its subscribers, which may
            # not have started yet (docs/architecture.md, Platform facts), so declare what we publish to.
            await declare_streams(js, (EVENTS, DLQ), settings=settings)
            stores["store"] = await document_store(js, settings=settings)
        pipeline = IngestPipeline(
            catalog=catalog,
            ledger=ledger,
            index=index,
            embedder=embedder,
            source=ObjectStoreSource(stores["store"]),
            sink=BusSink(broker, ledger),
            options=options,
            limits=limits,
            turns=turns,
        )
        last_delivery = is_last_delivery(msg, settings.max_deliver)

        async def handle(upload: DocumentUploaded) -> None:
            try:
                await pipeline.run(upload)
            except Unprocessable:
                raise
            except Exception:
                if last_delivery:
                    await _give_up(pipeline, upload)
                raise

        async def settle() -> None:
            await process_delivery(
                msg, DocumentUploaded, handle, broker=broker, max_deliver=settings.max_deliver
            )

        keepalive = await ack_wait_of(broker, msg) / KEEPALIVES_PER_ACK_WAIT
        # FastStream's graceful stop waits on the subscriber's lock; admitted work holds it too.
        lock = getattr(subscriber, "lock", None)
        await admission.admit(
            msg, settle, keepalive_seconds=keepalive, lock=lock if hasattr(lock, "acquire") else None
        )

    # Deletions have their own consumer: a long ingestion must not hold up a user's delete.
    @durable_pull_subscriber(router, DOCS_DELETED, stream=DOCS, durable=DELETIONS_CONSUMER, settings=settings)
    async def on_document_deleted(msg: NatsMessage, broker: NatsBroker, js: JsClient) -> None:
        if "store" not in stores:
            stores["store"] = await document_store(js, settings=settings)

        async def handle(event: DocumentDeleted) -> None:
            await remove_document_data(event, catalog=catalog, index=index, store=stores["store"])

        await process_delivery(msg, DocumentDeleted, handle, broker=broker, max_deliver=settings.max_deliver)

    return router


async def _give_up(pipeline: IngestPipeline, upload: DocumentUploaded) -> None:
    # The message is about to be dead-lettered: tell the user instead of leaving "processing" forever.
    try:
        await pipeline.give_up(upload)
    except Exception:
        logger.exception("could not mark document %s failed after the last delivery", upload.document_id)
