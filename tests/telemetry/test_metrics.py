"""Metrics export by configuration: OTLP/HTTP to a real receiver, or nothing."""

import asyncio

from opentelemetry.sdk.metrics.export import InMemoryMetricReader

from policypal.telemetry import OtlpTarget, build_meter_provider
from tests.support.otlp_collector import SpanCollector
from tests.support.serving import serve
from tests.support.telemetry import metric_sum


async def test_metrics_go_over_otlp_when_an_endpoint_is_configured() -> None:
    collector = SpanCollector()
    async with serve(collector.app()) as url:
        provider = build_meter_provider(
            "resolver", otlp=OtlpTarget(f"{url}/v1/metrics", "http/protobuf"), export_interval_seconds=0.1
        )
        provider.get_meter("test").create_counter("policypal.requests").add(1, {"outcome": "acked"})
        for _ in range(50):
            if collector.metric_names.get("resolver"):
                break
            await asyncio.sleep(0.1)
        # The final export is a blocking HTTP call to a server on this event loop: off the loop.
        await asyncio.to_thread(provider.shutdown)
    assert "policypal.requests" in collector.metric_names["resolver"]


def test_without_an_endpoint_only_the_given_readers_see_the_metrics() -> None:
    reader = InMemoryMetricReader()
    provider = build_meter_provider("gateway", readers=[reader])
    provider.get_meter("test").create_counter("policypal.requests").add(2, {"outcome": "acked"})
    assert metric_sum(reader.get_metrics_data(), "policypal.requests", outcome="acked") == 2
    provider.shutdown()
