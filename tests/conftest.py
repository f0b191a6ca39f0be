"""Shared fixtures: real infrastructure started from the project's own packages, per test session."""

from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
from opentelemetry.sdk.metrics.export import InMemoryMetricReader
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from redis.asyncio import Redis

from policypal.devstack import ManagedProcess, start_nats_server, start_valkey
from policypal.embeddings import MiniLMEmbedder
from tests.support.offline_embedder import offline_embedder
from tests.support.telemetry import installed_metric_reader, installed_span_exporter


@pytest.fixture(scope="session", autouse=True)
def offline_by_default() -> Iterator[None]:
    """Tests choose the LLM and web paths explicitly (scripted servers); keys on the machine must not."""
    with pytest.MonkeyPatch.context() as patch:
        for name in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "POLICYPAL_EMBEDDING_MODEL", "TAVILY_API_KEY"):
            patch.delenv(name, raising=False)
        yield


@pytest.fixture(scope="session")
def nats_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ManagedProcess]:
    """A real nats-server 2.15 with JetStream on a free port and a temporary store."""
    root: Path = tmp_path_factory.mktemp("nats")
    proc = start_nats_server(root / "store", log_path=root / "nats.log")
    yield proc
    proc.stop()


@pytest.fixture(scope="session")
def valkey_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ManagedProcess]:
    """A real Valkey (Redis protocol) on a free port with its own data directory."""
    root: Path = tmp_path_factory.mktemp("valkey")
    proc = start_valkey(root / "data", log_path=root / "valkey.log")
    yield proc
    proc.stop()


@pytest.fixture(scope="session")
def embedder() -> MiniLMEmbedder:
    """The real offline MiniLM embedder, loaded once per session."""
    return offline_embedder()


@pytest.fixture
async def redis_client(valkey_server: ManagedProcess) -> AsyncIterator[Redis]:
    """A client of the test Valkey, emptied before each test."""
    client: Redis = Redis.from_url(valkey_server.url, decode_responses=True)
    await client.flushdb()
    yield client
    await client.aclose()


@pytest.fixture
def finished_spans() -> Iterator[InMemorySpanExporter]:
    """The SDK's in-memory exporter of this process's spans, emptied before and after the test."""
    exporter = installed_span_exporter()
    exporter.clear()
    yield exporter
    exporter.clear()


@pytest.fixture
def metric_reader() -> InMemoryMetricReader:
    """The SDK's in-memory reader of this process's metrics (cumulative: compare before and after)."""
    return installed_metric_reader()


#: Fixtures that start a real server: a test using any of them belongs to the integration lane.
_REAL_SERVERS = frozenset({"nats_server", "valkey_server", "redis_client"})


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark tests that need a real server as ``integration``, so `make test-fast` leaves them out even
    when their module forgot the mark."""
    for item in items:
        if _REAL_SERVERS & set(getattr(item, "fixturenames", ())) and not any(
            item.get_closest_marker(lane) for lane in ("integration", "e2e", "faults")
        ):
            item.add_marker(pytest.mark.integration)
