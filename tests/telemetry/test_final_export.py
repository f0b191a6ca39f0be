"""A stopping HTTP service exports what it counted since the last interval (no metrics lost on stop)."""

import asyncio
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest

from policypal.devstack import ManagedProcess, free_port
from tests.support.local_http import LocalHTTPServer
from tests.support.otlp_collector import SpanCollector

pytestmark = pytest.mark.integration


@pytest.fixture
async def collector() -> AsyncIterator[tuple[SpanCollector, int]]:
    received = SpanCollector()
    port = free_port()
    server = LocalHTTPServer(received.app(), port, "OTLP receiver")
    await server.start()
    yield received, port
    await server.stop()


async def test_the_gateway_exports_its_last_metrics_when_stopped(
    collector: tuple[SpanCollector, int],
    nats_server: ManagedProcess,
    valkey_server: ManagedProcess,
    tmp_path: Path,
) -> None:
    received, otlp_port = collector
    port = free_port()
    gateway = ManagedProcess.start(
        "gateway",
        [sys.executable, "-m", "gateway"],
        port,
        env={
            "NATS_URL": str(nats_server.url),
            "REDIS_URL": str(valkey_server.url),
            "PORT": str(port),
            "POLICYPAL_DATA_DIR": str(tmp_path),
            # The collector's base URL, as OpenTelemetry defines it: metrics go to /v1/metrics under it.
            "OTEL_EXPORTER_OTLP_ENDPOINT": f"http://127.0.0.1:{otlp_port}",
            # Far beyond the test: only the export on shutdown can deliver the metrics.
            "OTEL_METRIC_EXPORT_INTERVAL": "600000",
        },
        log_path=tmp_path / "gateway.log",
    )
    try:
        async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}") as client:
            assert (await client.get("/healthz")).status_code == 200
        assert received.metric_names["gateway"] == set()
    finally:
        # In a thread: the receiver answers the gateway's last export from this event loop.
        await asyncio.to_thread(gateway.stop, 20.0)

    assert any(name.startswith("http.server") for name in received.metric_names["gateway"])
