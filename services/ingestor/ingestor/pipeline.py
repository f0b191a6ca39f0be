"""One uploaded document, end to end: fetch, parse, chunk, embed, index, then ready or failed.

Its rule units are not found here: the audit worker finds them once the document is ready
(docs/adr/0019-rule-units-after-ready.md).

Broker-free: the bus is reached only through the ``EventSink`` and ``DocumentSource`` given to it, so
the whole flow runs in tests with fakes or with the real stores.
"""

import asyncio
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from ingestor import rejections
from ingestor.chunking import TextChunk
from ingestor.parsing import IngestLimits, UploadedFile, parse_document
from ingestor.progress import ProgressReporter
from ingestor.rejections import DocumentRejected
from ingestor.work_turns import DocumentSteps, FairTurns
from policypal.bus import Unprocessable
from policypal.contracts import DocumentFailed, DocumentReady, DocumentUploaded, IngestProgress
from policypal.contracts.envelope import Envelope
from policypal.embeddings import Embedder
from policypal.rules import boilerplate_chunks
from policypal.state import DocumentCatalog, DocumentRecord
from policypal.telemetry import service_span
from policypal.vectorstore import ChunkIndex, ChunkPoint, sparse_vectors

logger = logging.getLogger(__name__)


class DocumentSource(Protocol):
    """Where the uploaded bytes are kept."""

    async def fetch(self, object_name: str) -> bytes:
        """The bytes; raises ``DocumentRejected`` (missing_object) when they are gone."""
        ...


class EventSink(Protocol):
    """Where the pipeline's events go (the bus, in the service)."""

    async def progress(self, event: IngestProgress) -> None:
        """Publish a progress event (best effort)."""
        ...

    async def terminal(self, event: Envelope) -> Envelope:
        """Publish the request's one terminal event; returns the one that stands (an earlier one wins)."""
        ...


class TerminalLookup(Protocol):
    """Finds the terminal event already recorded for a request (``policypal.state.RequestLedger``)."""

    async def terminal(self, tenant_id: str, request_id: str) -> Envelope | None:
        """The recorded terminal event, if the request already ended."""
        ...


@dataclass(frozen=True)
class ChunkingOptions:
    """How to cut and embed: sizes in characters, ``embed_group`` chunks per embed+upsert round.

    Texts are embedded in fair turns (``work_turns``) of at most ``turn_chars`` characters each: 16
    passages, about a second of CPU with the offline model. Counted in characters, not texts: the
    embedder's cost follows the length of what it reads (docs/benchmarks.md, "Ingestion inside the
    colocated worker").
    """

    chunk_size: int = 1000
    chunk_overlap: int = 150
    embed_group: int = 64
    turn_chars: int = 16_000


class IngestPipeline:
    """Runs ingestion of one ``DocumentUploaded`` at a time; safe to re-run on the same upload."""

    def __init__(
        self,
        *,
        catalog: DocumentCatalog,
        ledger: TerminalLookup,
        index: ChunkIndex,
        embedder: Embedder,
        source: DocumentSource,
        sink: EventSink,
        options: ChunkingOptions = ChunkingOptions(),
        limits: IngestLimits | None = None,
        progress_interval: float = 0.5,
        turns: FairTurns | None = None,
        wanted_check_seconds: float = 1.0,
    ) -> None:
        self._catalog = catalog
        self._ledger = ledger
        self._index = index
        self._embedder = embedder
        self._source = source
        self._sink = sink
        self._options = options
        self._limits = limits or IngestLimits()
        self._progress_interval = progress_interval
        # One per process in the service (shared by every document); a pipeline of its own otherwise.
        self._turns = turns or FairTurns()
        self._wanted_check_seconds = wanted_check_seconds

    async def run(self, upload: DocumentUploaded) -> Envelope:
        """Ingest ``upload``; returns the terminal event (DocumentReady or DocumentFailed) that stands.

        Raises ``Unprocessable`` when the document record is missing or belongs to someone else, and
        lets transient errors (Qdrant, NATS, Redis) through so the delivery is retried.
        """
        record = await self._catalog.get(upload.tenant_id, upload.user_id, upload.document_id)
        if record is None:
            raise Unprocessable(
                f"no document {upload.document_id} of tenant {upload.tenant_id} and user {upload.user_id}"
            )
        standing = await self._ledger.terminal(record.tenant_id, upload.request_id)
        if standing is not None:
            # A redelivery after the work was done: settle the catalog and re-publish, nothing else.
            return await self._finish(record, standing)
        try:
            terminal: Envelope = await self._ingest(upload, record)
        except DocumentRejected as rejection:
            logger.info("document %s rejected: %s", upload.document_id, rejection)
            # A retry that fails must not leave the points of an earlier, interrupted run searchable.
            await self._index.delete_document(tenant_id=record.tenant_id, document_id=record.document_id)
            terminal = _failed(upload.request_id, record, rejection)
        return await self._finish(record, terminal)

    async def give_up(self, upload: DocumentUploaded) -> Envelope | None:
        """Mark the document failed after the last retry of an internal error; None if there is no record."""
        record = await self._catalog.get(upload.tenant_id, upload.user_id, upload.document_id)
        if record is None:
            return None
        return await self._finish(record, _failed(upload.request_id, record, rejections.gave_up()))

    async def _finish(self, record: DocumentRecord, terminal: Envelope) -> Envelope:
        # The catalog is written before the terminal event: a crash in between leaves no ledger entry,
        # so the redelivery redoes the work. An earlier recorded terminal event always wins.
        recorded = await self._ledger.terminal(record.tenant_id, terminal.request_id)
        if await self._catalog.get(record.tenant_id, record.user_id, record.document_id) is None:
            # Deleted while we indexed: the deletion may have run before our last upsert, so the
            # points go now, and the record is not brought back by settling it.
            await self._index.delete_document(tenant_id=record.tenant_id, document_id=record.document_id)
            deleted = _failed(terminal.request_id, record, rejections.deleted())
            return await self._sink.terminal(recorded or deleted)
        standing = recorded or terminal
        await self._settle(record, standing)
        return await self._sink.terminal(standing)

    def _steps(self, record: DocumentRecord) -> DocumentSteps:
        async def still_wanted() -> bool:
            # The gateway removes the record when the owner deletes the document.
            return await self._catalog.get(record.tenant_id, record.user_id, record.document_id) is not None

        return DocumentSteps(
            self._turns,
            tenant_id=record.tenant_id,
            document_id=record.document_id,
            still_wanted=still_wanted,
            check_every=self._wanted_check_seconds,
        )

    async def _ingest(self, upload: DocumentUploaded, record: DocumentRecord) -> DocumentReady:
        progress = ProgressReporter(upload, self._sink.progress, min_interval=self._progress_interval)
        steps = self._steps(record)
        data = await self._source.fetch(upload.object_name)
        await progress.report("stored", f"Received {upload.filename} ({len(data)} bytes).")
        with service_span(
            "parse", {"policypal.document_id": record.document_id, "file.size": len(data)}
        ) as span:
            parsed = await parse_document(
                UploadedFile(data, upload.filename, upload.content_type),
                size=self._options.chunk_size,
                overlap=self._options.chunk_overlap,
                limits=self._limits,
                progress=progress,
                steps=steps,
            )
            span.set_attributes(
                {
                    "policypal.pages": parsed.pages,
                    "policypal.chunks": len(parsed.chunks),
                    "policypal.parser": parsed.parser,
                }
            )
        chunks = parsed.chunks
        await progress.report(
            "chunked", f"Split into {len(chunks)} passages.", done=len(chunks), total=len(chunks)
        )
        points = [_point(record, chunk) for chunk in chunks]
        boilerplate = await asyncio.to_thread(boilerplate_chunks, points)
        points = [
            p.model_copy(update={"boilerplate": True}) if p.chunk_index in boilerplate else p for p in points
        ]

        await self._embed_and_index(points, progress, steps)
        # An earlier run of this document (before a retry) may have written more chunks than this one.
        await self._index.delete_chunks_from(
            tenant_id=record.tenant_id, document_id=record.document_id, first_index=len(chunks)
        )
        # Its rule units are found once it is ready, by the audit worker on the model's idle lane
        # (docs/adr/0019): only an audit reads them, and they were a quarter of the ingestion.
        await progress.report(
            "indexed",
            "The document is searchable; its rules (must, should, may…) are found for audits next.",
            done=len(chunks),
            total=len(chunks),
        )
        return DocumentReady(
            tenant_id=record.tenant_id,
            user_id=record.user_id,
            request_id=upload.request_id,
            thread_id=record.document_id,
            document_id=record.document_id,
            pages=parsed.pages,
            chunks=len(chunks),
            parser=parsed.parser,
        )

    async def _embed_and_index(
        self, chunks: Sequence[ChunkPoint], progress: ProgressReporter, steps: DocumentSteps
    ) -> None:
        total = len(chunks)
        group = max(1, self._options.embed_group)
        groups = [chunks[i : i + group] for i in range(0, total, group)]
        await progress.report("embedding", f"Embedding {total} passages.", done=0, total=total)
        # Embed group k+1 in a thread while group k is written to Qdrant: the two overlap.
        pending = asyncio.create_task(self._embed([chunk.text for chunk in groups[0]], steps))
        done = 0
        try:
            for k, current in enumerate(groups):
                vectors = await pending
                if k + 1 < len(groups):
                    pending = asyncio.create_task(self._embed([chunk.text for chunk in groups[k + 1]], steps))
                # BM25 keyword vectors beside the dense ones, for hybrid search; off the event loop.
                sparse = await asyncio.to_thread(sparse_vectors, list(current))
                await self._index.upsert(list(current), vectors, sparse)
                done += len(current)
                await progress.report(
                    "embedding", f"Embedded {done} of {total} passages.", done=done, total=total
                )
        finally:
            if not pending.done():
                pending.cancel()
        await progress.report("embedded", f"Embedded {total} passages.", done=total, total=total)

    async def _embed(self, texts: Sequence[str], steps: DocumentSteps) -> list[list[float]]:
        vectors: list[list[float]] = []
        with service_span(
            "embed", {"policypal.embedding.model": self._embedder.model_id, "policypal.chunks": len(texts)}
        ):
            for turn in turn_slices(texts, max_chars=self._options.turn_chars):
                async with steps.step():
                    matrix = await asyncio.to_thread(self._embedder.embed, turn)
                vectors.extend(matrix.tolist())
        return vectors

    async def _settle(self, record: DocumentRecord, terminal: Envelope) -> None:
        """Bring the catalog record in line with the terminal event (idempotent)."""
        if isinstance(terminal, DocumentReady):
            update: dict[str, object] = {
                "status": "ready",
                "pages": terminal.pages,
                "chunks": terminal.chunks,
                "parser": terminal.parser,
                "reason_code": None,
                "reason": None,
            }
        elif isinstance(terminal, DocumentFailed):
            update = {"status": "failed", "reason_code": terminal.reason_code, "reason": terminal.reason}
        else:
            return
        if all(getattr(record, key) == value for key, value in update.items()):
            return
        await self._catalog.save(record.model_copy(update=update))


def turn_slices(texts: Sequence[str], *, max_chars: int) -> list[list[str]]:
    """``texts`` in order, cut into runs of at most ``max_chars`` characters (a longer text alone)."""
    turns: list[list[str]] = []
    current: list[str] = []
    size = 0
    for text in texts:
        if current and size + len(text) > max_chars:
            turns.append(current)
            current, size = [], 0
        current.append(text)
        size += len(text)
    if current:
        turns.append(current)
    return turns


def _point(record: DocumentRecord, chunk: TextChunk) -> ChunkPoint:
    # Tenant, user and document metadata come from the catalog record, not the event: the record is
    # what the gateway checked and stored.
    return ChunkPoint(
        tenant_id=record.tenant_id,
        user_id=record.user_id,
        document_id=record.document_id,
        title=record.title,
        version=record.version,
        doc_type=record.doc_type,
        set_name=record.set_name,
        page=chunk.page,
        chunk_index=chunk.index,
        section=chunk.section,
        text=chunk.text,
    )


def _failed(request_id: str, record: DocumentRecord, rejection: DocumentRejected) -> DocumentFailed:
    return DocumentFailed(
        tenant_id=record.tenant_id,
        user_id=record.user_id,
        request_id=request_id,
        thread_id=record.document_id,
        document_id=record.document_id,
        reason_code=rejection.reason_code,
        reason=rejection.reason,
    )
