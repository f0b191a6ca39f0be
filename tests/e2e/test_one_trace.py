"""One trace from the HTTP request through every service to the last SSE event (docs/architecture.md,
Invariant: one trace).

The system runs as `make up` runs it, exporting spans over OTLP/HTTP to a receiver the test starts.
"""

import asyncio
from pathlib import Path

import pytest

from policypal.cli.client import PolicyPalClient
from policypal.cli.embedded_system import VECTOR_WORKERS
from policypal.contracts import ResponseEvent
from tests.e2e.system import policypal_up
from tests.pdf_factory import make_pdf
from tests.support.otlp_collector import ReceivedSpan, SpanCollector
from tests.support.serving import serve

pytestmark = pytest.mark.e2e

# The ingestor and the action workers share one process (local Qdrant), named after all of them.
EXPECTED_SERVICES = {"gateway", "resolver", "+".join(VECTOR_WORKERS), "notifier"}


async def test_a_chat_request_is_one_trace_across_every_service(tmp_path: Path) -> None:
    collector = SpanCollector()
    pdf = tmp_path / "rules.pdf"
    pdf.write_bytes(make_pdf(["Records must be kept for seven years after the end of the contract."]))
    async with serve(collector.app()) as otlp_url:
        env = {"OTEL_EXPORTER_OTLP_ENDPOINT": f"{otlp_url}/v1/traces", "OTEL_BSP_SCHEDULE_DELAY": "100"}
        with policypal_up(tmp_path / "data", extra_env=env) as system:
            client = PolicyPalClient(system.api_url, system.events_url, system.token("acme", "alice"))
            try:
                upload = (await client.upload(pdf, title="Rules", version="1", doc_type="policy")).json()
                async for _ in client.stream(
                    f"/v1/documents/{upload['document_id']}/events", request_id=upload["request_id"]
                ):
                    pass
                conversation = await client.create_conversation()
                accepted = await client.post_message(
                    conversation,
                    "How long must records be kept?",
                    action="inquire",
                    documents=[upload["document_id"]],
                )
                events = [
                    e
                    async for e in client.stream(
                        f"/v1/conversations/{conversation}/events", request_id=accepted["request_id"]
                    )
                ]
                assert isinstance(events[-1].event, ResponseEvent)
            finally:
                await client.aclose()
            trace = await _trace_of_post(collector)
        services = {span.service for span in trace}
        assert services >= EXPECTED_SERVICES, services
        names = {(span.service, span.name) for span in trace}
        assert ("notifier", "sse deliver") in names
        # The worker's steps (docs/architecture.md, Invariant: one trace: spans for embed, search), stamped with the request.
        worker = "+".join(VECTOR_WORKERS)
        steps = [span for span in trace if span.service == worker and span.name in {"embed", "search"}]
        assert {span.name for span in steps} == {"embed", "search"}, names
        assert all(span.attributes.get("policypal.request_id") == accepted["request_id"] for span in steps)
        span_ids = {span.span_id for span in trace}
        roots = [span for span in trace if span.parent_span_id not in span_ids]
        assert len(roots) == 1, roots
        assert roots[0].service == "gateway"


async def _trace_of_post(collector: SpanCollector) -> list[ReceivedSpan]:
    """Spans of the trace holding the gateway's POST .../messages span, once every service exported."""
    for _ in range(100):
        for trace_id, spans in collector.by_trace().items():
            posted = any(
                s.service == "gateway" and s.name.startswith("POST") and "messages" in s.name for s in spans
            )
            if posted and {s.service for s in spans} >= EXPECTED_SERVICES:
                return await _settled(collector, trace_id)
        await asyncio.sleep(0.1)
    traces = [sorted({s.service for s in t}) for t in collector.by_trace().values()]
    raise AssertionError(f"no trace reached every service: {traces}")


async def _settled(collector: SpanCollector, trace_id: str) -> list[ReceivedSpan]:
    """The trace's spans once no more arrive for half a second (parents end after their children)."""
    count = -1
    while count != len(collector.by_trace()[trace_id]):
        count = len(collector.by_trace()[trace_id])
        await asyncio.sleep(0.5)
    return collector.by_trace()[trace_id]
