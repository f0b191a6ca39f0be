"""Trace completeness: the share of chat requests whose one trace holds every expected span.

Starts the whole embedded system (every service its own process, as `make up` does) exporting spans
over OTLP/HTTP to a receiver in this process (tests/support/otlp_collector.py, the one the end-to-end
trace test uses), ingests a generated 3-page PDF, then sends N chat requests, each in a new
conversation, ``--concurrency`` at a time, reading each one's SSE stream to its terminal event. Once
no more spans arrive, each request's trace (found by the ``policypal.request_id`` the services stamp
on their spans) is checked for:

- gateway: the HTTP server span of ``POST /v1/conversations/{id}/messages``
- publish: the gateway's producer span of ``chat.requested``
- resolver: its consumer span of ``chat.requested``
- action worker: its consumer span of ``actions.inquire.requested``
- notifier: an ``sse deliver`` span
and for a single root (the gateway's HTTP span). Prints the share, what incomplete traces lacked, and
the metric names each service exported to the same receiver over OTLP.

    .venv/bin/python -m bench.trace_completeness [--requests 50] [--concurrency 5]
"""

import argparse
import asyncio
import os
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

from bench.chat_document import QUESTIONS, bench_client, ingest_regulation
from policypal.cli.client import PolicyPalClient
from policypal.cli.embedded_system import VECTOR_WORKERS, EmbeddedSystem
from policypal.config import Settings
from policypal.contracts import ResponseEvent
from policypal.devstack import free_port
from tests.support.otlp_collector import ReceivedSpan, SpanCollector
from tests.support.serving import serve

ACTIONS_PROCESS = "+".join(VECTOR_WORKERS)
SpanTest = Callable[[ReceivedSpan], bool]
EXPECTED: dict[str, SpanTest] = {
    "gateway HTTP": lambda s: (
        s.service == "gateway" and s.name.startswith("POST") and s.name.endswith("/messages")
    ),
    "gateway publish": lambda s: (
        s.service == "gateway" and "chat.requested" in s.name and s.name.endswith("publish")
    ),
    "resolver consume": lambda s: (
        s.service == "resolver" and "chat.requested" in s.name and s.name.endswith("process")
    ),
    "action worker consume": lambda s: (
        s.service == ACTIONS_PROCESS and "actions.inquire.requested" in s.name and s.name.endswith("process")
    ),
    "notifier sse deliver": lambda s: s.service == "notifier" and s.name == "sse deliver",
}


def missing_parts(spans: list[ReceivedSpan]) -> list[str]:
    """What a request's trace lacks: expected spans, or a single gateway root."""
    missing = [part for part, found in EXPECTED.items() if not any(found(s) for s in spans)]
    ids = {s.span_id for s in spans}
    roots = [s for s in spans if s.parent_span_id not in ids]
    if len(roots) != 1 or not EXPECTED["gateway HTTP"](roots[0]):
        missing.append(f"single gateway root ({len(roots)} roots)")
    return missing


def trace_of(collector: SpanCollector, request_id: str) -> list[ReceivedSpan]:
    """Every span of the traces that hold a span stamped with ``request_id`` (one trace when complete)."""
    trace_ids = {
        s.trace_id for s in collector.spans if s.attributes.get("policypal.request_id") == request_id
    }
    return [s for s in collector.spans if s.trace_id in trace_ids]


async def _settle(collector: SpanCollector, quiet_seconds: float = 2.0) -> None:
    """Wait until no span has arrived for ``quiet_seconds`` (batch exporters flush every 100 ms here)."""
    count = -1
    while count != len(collector.spans):
        count = len(collector.spans)
        await asyncio.sleep(quiet_seconds)


async def _send(client: PolicyPalClient, document_id: str, i: int) -> str:
    conversation = await client.create_conversation()
    accepted = await client.post_message(
        conversation, QUESTIONS[i % len(QUESTIONS)], action="inquire", documents=[document_id]
    )
    last = None
    async for streamed in client.stream(
        f"/v1/conversations/{conversation}/events", request_id=accepted["request_id"]
    ):
        last = streamed.event
    if not isinstance(last, ResponseEvent):
        raise RuntimeError(f"request {i} ended with {last!r}")
    return str(accepted["request_id"])


async def _measure(
    settings: Settings, collector: SpanCollector, requests: int, concurrency: int, workdir: Path
) -> tuple[list[str], float]:
    client = bench_client(settings)
    try:
        document_id = await ingest_regulation(client, workdir)
        gate = asyncio.Semaphore(concurrency)

        async def one(i: int) -> str:
            async with gate:
                return await _send(client, document_id, i)

        started = time.perf_counter()
        request_ids = await asyncio.gather(*(one(i) for i in range(requests)))
        elapsed = time.perf_counter() - started
    finally:
        await client.aclose()
    await _settle(collector)
    return list(request_ids), elapsed


async def _run(requests: int, concurrency: int) -> None:
    collector = SpanCollector()
    async with serve(collector.app()) as otlp_url:
        with tempfile.TemporaryDirectory() as tmp:
            settings = Settings(
                _env_file=None,
                data_dir=Path(tmp) / "data",
                port=free_port(),
                notifier_port=free_port(),
                otel_exporter_otlp_endpoint=f"{otlp_url}/v1/traces",
                # One bench user sends every request: lift the per-user limit (300 a minute).
                rate_limit_principal_requests=1_000_000,
                rate_limit_tenant_requests=1_000_000,
            )
            # Child processes inherit it: spans leave each service within 100 ms instead of 5 s.
            os.environ["OTEL_BSP_SCHEDULE_DELAY"] = "100"
            os.environ["OTEL_METRIC_EXPORT_INTERVAL"] = "1000"
            system = EmbeddedSystem(settings)
            # The services export to the receiver on this event loop: start them off the loop.
            await asyncio.to_thread(system.start)
            try:
                request_ids, elapsed = await _measure(settings, collector, requests, concurrency, Path(tmp))
            finally:
                await asyncio.to_thread(system.stop)
    lacking: Counter[str] = Counter()
    complete = 0
    for request_id in request_ids:
        missing = missing_parts(trace_of(collector, request_id))
        complete += not missing
        lacking.update(missing)
    print(
        f"trace completeness, offline inquire, {requests} requests, {concurrency} at a time "
        f"({elapsed:.1f} s, {len(collector.spans)} spans received)"
    )
    print(f"  complete traces: {complete}/{requests} = {100 * complete / requests:.1f} %")
    for part, count in lacking.most_common():
        print(f"  missing {part}: {count}")
    for service, names in sorted(collector.metric_names.items()):
        print(f"  metrics from {service}: {', '.join(sorted(names))}")


def main() -> None:
    """Run the benchmark and print the share of complete traces."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--requests", type=int, default=50)
    parser.add_argument("--concurrency", type=int, default=5)
    args = parser.parse_args()
    asyncio.run(_run(args.requests, args.concurrency))


if __name__ == "__main__":
    main()
