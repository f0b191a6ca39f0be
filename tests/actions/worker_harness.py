"""Running an action worker in tests: real nats-server, Valkey, local Qdrant and the real embedder.

Documents are real PDFs (reportlab), read back page by page with pypdf and chunked with the ingestor's
own splitter, embedded with MiniLM and indexed as the ingestor would.
"""

import contextlib
import io
import re
import uuid
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import nats
import pypdf
from faststream.nats import NatsBroker, NatsRouter
from nats.js import JetStreamContext
from redis.asyncio import Redis

from ingestor.chunking import normalize_text, split_text
from policypal.bus import build_broker, declare_streams, publish_event
from policypal.config import Settings
from policypal.contracts import ActionName, ActionRequested, DocType, ResolvedDocument
from policypal.embeddings import MiniLMEmbedder
from policypal.llm import LLM
from policypal.state import ConversationRecord, ConversationStore
from policypal.vectorstore import ChunkIndex, ChunkPoint, open_qdrant
from tests.pdf_factory import make_pdf
from tests.support.jetstream import (
    payload,
    reset_bus,
    stream_messages,
    wait_for_messages,
)
from tests.support.openai_server import RecordedRequest

USER = "alice"
THREAD = "conv1"


@dataclass(frozen=True)
class IndexedDocument:
    """A document as indexed: what a request names it by, and its chunks."""

    resolved: ResolvedDocument
    chunks: list[ChunkPoint]

    def chunk_text(self, chunk_id: str) -> str:
        """The text of one of its chunks."""
        return next(c.text for c in self.chunks if c.chunk_id == chunk_id)


async def index_pdf(
    index: ChunkIndex,
    embedder: MiniLMEmbedder,
    *,
    tenant: str,
    document_id: str,
    title: str,
    version: str,
    pages: list[str],
    doc_type: DocType = "regulatory",
    user: str = USER,
) -> IndexedDocument:
    """Make a PDF of ``pages``, read it back, chunk it (1000/150) and index it for ``tenant``."""
    reader = pypdf.PdfReader(io.BytesIO(make_pdf(pages, title=title)))
    chunks: list[ChunkPoint] = []
    for number, page in enumerate(reader.pages, start=1):
        for piece in split_text(normalize_text(page.extract_text()), size=1000, overlap=150):
            chunks.append(
                ChunkPoint(
                    tenant_id=tenant,
                    user_id=user,
                    document_id=document_id,
                    title=title,
                    version=version,
                    doc_type=doc_type,
                    page=number,
                    chunk_index=len(chunks),
                    text=piece,
                )
            )
    await index.upsert(chunks, embedder.embed([c.text for c in chunks]).tolist())
    resolved = ResolvedDocument(document_id=document_id, title=title, version=version, doc_type=doc_type)
    return IndexedDocument(resolved=resolved, chunks=chunks)


@contextlib.asynccontextmanager
async def local_index(path: Path, embedder: MiniLMEmbedder) -> AsyncIterator[ChunkIndex]:
    """A chunk index of ``embedder``'s vectors in local Qdrant at ``path``, collection made; closed after."""
    client = open_qdrant(None, path=path)
    index = ChunkIndex(client, model_id=embedder.model_id, dimension=embedder.dimension)
    try:
        await index.ensure_collection()
        yield index
    finally:
        await client.close()


@dataclass
class WorkerHarness:
    """One action worker on the test bus, and helpers to ask it and read what it published."""

    js: JetStreamContext
    redis: Redis
    nats_url: str
    durable: str
    subject: str
    build_router: Callable[..., NatsRouter]
    brokers: list[NatsBroker] = field(default_factory=list)

    async def start(
        self, index: ChunkIndex, embedder: MiniLMEmbedder, *, max_deliver: int = 3, llm: LLM | None = None
    ) -> NatsBroker:
        """Reset this worker's consumer and subject, then start the worker (drafting with ``llm`` if given)."""
        await reset_bus(self.js, durables={"ACTIONS": self.durable}, purge={"ACTIONS": self.subject})
        settings = Settings(nats_url=self.nats_url, max_deliver=max_deliver)
        broker = build_broker(settings)
        options = {"llm": llm} if llm is not None else {}
        broker.include_router(
            self.build_router(settings, redis=self.redis, index=index, embedder=embedder, **options)
        )
        await broker.start()
        self.brokers.append(broker)
        return broker

    async def stop(self) -> None:
        """Stop every broker started."""
        for broker in self.brokers:
            await broker.stop()

    async def new_conversation(self, tenant: str) -> None:
        """A fresh test thread: the conversation the requests belong to, with no events yet."""
        await declare_streams(self.js)
        await self.js.purge_stream("EVENTS", subject=f"events.{tenant}.>")
        await ConversationStore(self.redis).create(
            ConversationRecord(conversation_id=THREAD, tenant_id=tenant, user_id=USER)
        )

    async def ask(self, broker: NatsBroker, event: ActionRequested, *, copies: int = 1) -> None:
        """Publish ``event`` as ``copies`` distinct stream messages (a redelivered request)."""
        for copy in range(copies):
            await publish_event(broker, event, msg_id=f"{event.request_id}-{copy}")

    async def terminal(self, tenant: str, kind: str = "response", *, within: float = 60.0) -> dict[str, Any]:
        """The one terminal event of ``kind`` on the thread (fails if there are more)."""
        [message] = await wait_for_messages(
            self.js, "EVENTS", f"events.{tenant}.{THREAD}.{kind}", within=within
        )
        return payload(message)

    async def tokens(self, tenant: str) -> list[dict[str, Any]]:
        """The token events published on the thread, in order."""
        return [
            payload(m) for m in await stream_messages(self.js, "EVENTS", f"events.{tenant}.{THREAD}.token")
        ]

    async def statuses(self, tenant: str) -> list[str]:
        """The stages of the status events published on the thread, in order."""
        return [
            payload(m)["stage"]
            for m in await stream_messages(self.js, "EVENTS", f"events.{tenant}.{THREAD}.status")
        ]


def request(
    tenant: str, action: ActionName, query: str, documents: list[IndexedDocument], **extra: Any
) -> ActionRequested:
    """An action request of ``tenant``'s user on the test thread."""
    return ActionRequested(
        tenant_id=tenant,
        user_id=USER,
        request_id=f"req-{uuid.uuid4().hex[:8]}",
        thread_id=THREAD,
        action=action,
        query=query,
        documents=[d.resolved for d in documents],
        **extra,
    )


def assert_citations_verbatim(body: dict[str, Any], documents: list[IndexedDocument]) -> None:
    """Every citation's quote is ≤ 300 chars and verbatim in the chunk it names; every marker is in the text."""
    by_id = {d.resolved.document_id: d for d in documents}
    assert body["citations"], body["answer"]
    for citation in body["citations"]:
        assert len(citation["quote"]) <= 300
        assert citation["quote"] in by_id[citation["document_id"]].chunk_text(citation["chunk_id"])
        assert f"[{citation['marker']}]" in body["answer"]
    assert [c["marker"] for c in body["citations"]] == list(range(1, len(body["citations"]) + 1))


def prompt_passages(request: RecordedRequest) -> dict[int, str]:
    """The passages a request showed the model, by their number ``[N] “Title” (version V), page P:``."""
    user = request.messages[-1]["content"]
    found = re.findall(
        r"^\[(\d+)\] “[^”]+” \(version [^)]+\)(?:, page \d+)?:\n(.+?)(?=\n\n|\Z)", user, re.M | re.S
    )
    return {int(number): text for number, text in found}


def assert_llm_citations(
    body: dict[str, Any], request: RecordedRequest, documents: list[IndexedDocument]
) -> None:
    """Each citation quotes, verbatim and in ≤ 300 chars, the chunk the prompt numbered with its marker."""
    by_id = {d.resolved.document_id: d for d in documents}
    passages = prompt_passages(request)
    assert body["citations"], body["answer"]
    for citation in body["citations"]:
        chunk = by_id[citation["document_id"]].chunk_text(citation["chunk_id"])
        assert citation["quote"] in chunk
        assert len(citation["quote"]) <= 300
        assert passages[citation["marker"]] == chunk.strip()
        assert f"[{citation['marker']}]" in body["answer"]


@contextlib.asynccontextmanager
async def worker_harness(
    nats_url: str,
    redis: Redis,
    tenant: str,
    *,
    durable: str,
    subject: str,
    build_router: Callable[..., NatsRouter],
) -> AsyncIterator[WorkerHarness]:
    """The harness of one action worker, with a fresh test thread of ``tenant``; its brokers stopped after."""
    nc = await nats.connect(nats_url)
    worker = WorkerHarness(nc.jetstream(), redis, nats_url, durable, subject, build_router)
    try:
        await worker.new_conversation(tenant)
        yield worker
    finally:
        await worker.stop()
        await nc.drain()
