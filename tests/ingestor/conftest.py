"""Fixtures of the ingestor tests: the pipeline harness, and the ingestor's router on the real bus."""

import contextlib
import uuid
from collections.abc import AsyncIterator
from pathlib import Path

import nats
import pytest
from redis.asyncio import Redis

from ingestor.parsing import IngestLimits
from ingestor.service import CONSUMER, build_router
from policypal.bus import build_broker, declare_streams
from policypal.config import Settings
from policypal.devstack import ManagedProcess
from policypal.embeddings import MiniLMEmbedder
from policypal.state import DocumentCatalog
from policypal.vectorstore import ChunkIndex, open_qdrant
from tests.ingestor.bus_harness import Running
from tests.ingestor.fakes import HashEmbedder
from tests.ingestor.pipeline_harness import Harness
from tests.support.jetstream import wait_until_consumed

LIMITS = IngestLimits(max_bytes=2 * 1024 * 1024, max_pages=5, max_unpacked_bytes=32 * 1024 * 1024)


@contextlib.asynccontextmanager
async def _memory_index() -> AsyncIterator[ChunkIndex]:
    """A chunk index of the hash embedder's vectors in an in-memory Qdrant."""
    client = open_qdrant(None)
    index = ChunkIndex(client, model_id=HashEmbedder.model_id, dimension=HashEmbedder.dimension)
    await index.ensure_collection()
    yield index
    await client.close()


@pytest.fixture
async def harness(redis_client: Redis) -> AsyncIterator[Harness]:
    """The pipeline harness over an in-memory Qdrant, with the default limits."""
    async with _memory_index() as index:
        yield Harness(redis_client, index)


@pytest.fixture
async def limited_harness(redis_client: Redis) -> AsyncIterator[Harness]:
    """The pipeline harness with small limits (2 MiB, 5 pages, 32 MiB unpacked) and bigger embed groups."""
    async with _memory_index() as index:
        yield Harness(redis_client, index, embed_group=16, limits=LIMITS)


@pytest.fixture
async def running(
    nats_server: ManagedProcess, redis_client: Redis, embedder: MiniLMEmbedder, tmp_path: Path
) -> AsyncIterator[Running]:
    """The ingestor's router on a started broker of the test NATS, with a local Qdrant and a fresh tenant."""
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
        # Let this test's in-flight uploads settle while the worker still runs: a message cut off by
        # stop() stays unacknowledged for ack_wait and would hold up the next test's wait_until_consumed.
        await wait_until_consumed(js, "DOCS", CONSUMER, within=30.0)
        await broker.stop()
        # close, not drain: drain would wait for events left unread in the tests' subscriptions.
        await nc.close()
        await client.close()
