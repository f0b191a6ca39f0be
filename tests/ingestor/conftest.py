"""Fixtures of the ingestor's bus tests, shared with the other test modules of this folder."""

from collections.abc import AsyncIterator

import pytest
from redis.asyncio import Redis

from ingestor.parsing import IngestLimits
from ingestor.pipeline import ChunkingOptions, IngestPipeline
from policypal.vectorstore import ChunkIndex, open_qdrant
from tests.ingestor.fakes import HashEmbedder
from tests.ingestor.test_pipeline import Harness
from tests.ingestor.test_service import embedder, running

__all__ = ["embedder", "limited_harness", "running"]

LIMITS = IngestLimits(max_bytes=2 * 1024 * 1024, max_pages=5, max_unpacked_bytes=32 * 1024 * 1024)


@pytest.fixture
async def limited_harness(redis_client: Redis) -> AsyncIterator[Harness]:
    """The pipeline harness with small limits (2 MiB, 5 pages, 32 MiB unpacked) and bigger embed groups."""
    client = open_qdrant(None)
    index = ChunkIndex(client, model_id=HashEmbedder.model_id, dimension=HashEmbedder.dimension)
    await index.ensure_collection()
    harness = Harness(redis_client, index)
    harness.pipeline = IngestPipeline(
        catalog=harness.catalog,
        ledger=harness.ledger,
        index=index,
        embedder=harness.embedder,
        source=harness.source,
        sink=harness.sink,
        options=ChunkingOptions(chunk_size=1000, chunk_overlap=150, embed_group=16),
        limits=LIMITS,
        progress_interval=0.0,
    )
    yield harness
    await client.close()
