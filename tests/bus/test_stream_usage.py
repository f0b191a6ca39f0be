"""Stream size and DLQ depth gauges against a real nats-server, read through the SDK's in-memory reader."""

from collections.abc import AsyncIterator
from pathlib import Path

import nats
import pytest
from nats.js import JetStreamContext
from opentelemetry.sdk.metrics import MeterProvider
from opentelemetry.sdk.metrics.export import InMemoryMetricReader

from policypal.bus import StreamUsage, dead_letter_source, declare_streams
from policypal.devstack import start_nats_server
from tests.support.telemetry import metric_sum

pytestmark = pytest.mark.integration


@pytest.fixture
async def js(tmp_path: Path) -> AsyncIterator[JetStreamContext]:
    """JetStream of a nats-server of this test alone, so the streams hold only what it publishes."""
    server = start_nats_server(tmp_path / "store", log_path=tmp_path / "nats.log")
    nc = await nats.connect(server.url)
    try:
        context = nc.jetstream()
        await declare_streams(context)
        yield context
    finally:
        await nc.close()
        server.stop()


async def test_stream_bytes_and_dead_letters_by_source_are_observed(js: JetStreamContext) -> None:
    for number in range(3):
        await js.publish("chat.requested", b"x" * 1000, headers={"Nats-Msg-Id": f"c{number}"})
    dead_letters = {
        "dlq.chat.requested": 2,
        "dlq.actions.audit.requested": 1,
        "dlq.actions.audit.requested.acme": 3,  # an external system's request: the tenant is no attribute
        "dlq.docs.uploaded": 1,
    }
    for subject, count in dead_letters.items():
        for number in range(count):
            await js.publish(subject, b"{}", headers={"Nats-Msg-Id": f"{subject}-{number}"})
    reader = InMemoryMetricReader()
    usage = StreamUsage(js, ["CHAT", "DLQ", "EVENTS"], meter=MeterProvider([reader]).get_meter("test"))

    await usage.refresh()

    data = reader.get_metrics_data()
    assert metric_sum(data, "policypal.stream.messages", stream="CHAT") == 3
    chat_bytes = metric_sum(data, "policypal.stream.bytes", stream="CHAT")
    assert 3000 < chat_bytes < 3600, "payloads plus JetStream's per-message overhead"
    assert metric_sum(data, "policypal.stream.messages", stream="EVENTS") == 0
    assert metric_sum(data, "policypal.dlq.depth", source="chat") == 2
    assert metric_sum(data, "policypal.dlq.depth", source="actions.audit") == 4
    assert metric_sum(data, "policypal.dlq.depth", source="docs") == 1
    assert metric_sum(data, "policypal.dlq.depth") == 7
    sources = {
        dict(point.attributes or {})["source"]
        for resource in data.resource_metrics if data
        for scope in resource.scope_metrics
        for metric in scope.metrics if metric.name == "policypal.dlq.depth"
        for point in metric.data.data_points
    }  # fmt: skip
    assert sources == {"chat", "actions.audit", "docs"}

    await js.purge_stream("DLQ", subject="dlq.docs.>")
    await usage.refresh()
    data = reader.get_metrics_data()
    assert metric_sum(data, "policypal.dlq.depth", source="docs") == 0, "a purged source reads 0"
    assert metric_sum(data, "policypal.dlq.depth") == 6


def test_a_dead_letter_source_never_carries_the_tenant() -> None:
    assert dead_letter_source("dlq.actions.inquire.requested.globex") == "actions.inquire"
    assert dead_letter_source("dlq.chat.resumed") == "chat"
