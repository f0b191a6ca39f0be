"""Bus and state overhead of one @Inquire request, and throughput with one versus two worker processes.

``.venv/bin/python -m bench.bus_overhead [--requests N]``

- **in-process**: ``actions.inquire.handler.answer_inquiry`` (query embedding, retrieval in local
  Qdrant, passage scoring, extractive answer) called directly, one request at a time.
- **through the bus**: the same request published on ``actions.inquire.requested`` to an @Inquire
  worker process (real nats-server, Valkey with AOF, local Qdrant), timed from the publish until its
  response event arrives, one request at a time, interleaved with the in-process calls. The
  difference is what the bus and the state add: JetStream publish and pull, ledger, conversation
  append, status and terminal events, and the handler's own checks.
- **throughput**: a backlog of 2N requests drained by one ``python -m actions.inquire`` process, then
  by two (each worker has its own copy of the local Qdrant directory: local Qdrant is single-process).

No LLM anywhere (offline-extractive answers); embeddings are the real MiniLM in both variants. The
issue's ratio excludes embedding, and each variant's own embedding time is taken out of that same
request: in-process, the ``embed`` calls of that call are timed; through the bus, the worker
(``python -m actions.inquire``, whose every embedding is an ``embed`` span) exports its spans over OTLP/HTTP to a receiver in this process, and the ``embed`` spans in the trace
of the request's ``handle <durable>`` span (both stamped with its ``policypal.request_id``) are summed.
The worker holds its spans until it stops, so no export lands during the timed requests. From the
start of FastStream's consume span until the response's publish starts, minus its embedding, is the
worker's own handling; the rest of the bus latency is transport (the request's publish and ack, its
delivery, the response's publish and its way to the bench). The response publish span (until
JetStream's ack, which the bench need not wait for) and the ``handle`` span (which also holds the
message's ack after the response) are printed too.
"""

import argparse
import asyncio
import json
import shutil
import statistics
import tempfile
import time
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

import nats
import numpy as np
import numpy.typing as npt
from nats.aio.msg import Msg
from nats.js import JetStreamContext
from redis.asyncio import Redis

from actions.inquire.handler import answer_inquiry
from policypal.contracts import ActionRequested
from policypal.embeddings import MiniLMEmbedder
from policypal.telemetry.request_scope import REQUEST_ID
from policypal.vectorstore import ChunkIndex, open_qdrant
from tests.faults.stack import (
    THREAD,
    FaultStack,
    index_policy,
    inquiries,
    jetstream,
    new_conversation,
    publish_request,
)
from tests.support.otlp_collector import ReceivedSpan, SpanCollector
from tests.support.serving import serve

TENANT = "acme"
#: The latency worker keeps every span until it stops (then exports them in one go): an export to
#: this process during the timed requests would slow the in-process variant it runs beside.
HOLD_SPANS_ENV = {
    "OTEL_BSP_SCHEDULE_DELAY": "3600000",
    "OTEL_BSP_MAX_QUEUE_SIZE": "100000",
    "OTEL_BSP_MAX_EXPORT_BATCH_SIZE": "100000",
    "OTEL_METRIC_EXPORT_INTERVAL": "3600000",
}

#: The span of each embedding in the action workers (actions.sentences.embed_texts).
EMBED_SPAN = "embed"


class TimedEmbedder:
    """MiniLM, adding up the seconds spent in ``embed`` (the part the overhead ratio leaves out)."""

    def __init__(self) -> None:
        self._model = MiniLMEmbedder()
        self.seconds = 0.0

    @property
    def model_id(self) -> str:
        """The wrapped model's id."""
        return self._model.model_id

    @property
    def dimension(self) -> int:
        """The wrapped model's dimension."""
        return self._model.dimension

    def embed(self, texts: list[str]) -> npt.NDArray[np.float32]:
        """Embed with the wrapped model, timing it."""
        started = time.perf_counter()
        try:
            return self._model.embed(texts)
        finally:
            self.seconds += time.perf_counter() - started


class InProcess:
    """The inquire logic called directly on its own copy of the index."""

    def __init__(self, qdrant_path: Path) -> None:
        self.embedder = TimedEmbedder()
        self.client = open_qdrant(None, path=qdrant_path)
        self.index = ChunkIndex(
            self.client, model_id=self.embedder.model_id, dimension=self.embedder.dimension
        )

    async def answer_ms(self, event: ActionRequested) -> tuple[float, float]:
        """Milliseconds of one call, and of the embedding within it."""
        self.embedder.seconds = 0.0
        started = time.perf_counter()
        await answer_inquiry(event, index=self.index, embedder=self.embedder)
        return (time.perf_counter() - started) * 1000, self.embedder.seconds * 1000


class Responses:
    """Arrival times of response events on the test conversation, by request id."""

    def __init__(self) -> None:
        self.arrived: dict[str, float] = {}
        self.changed = asyncio.Event()

    async def on_message(self, msg: Msg) -> None:
        """Note when a response arrived."""
        self.arrived[json.loads(msg.data)["request_id"]] = time.perf_counter()
        self.changed.set()

    async def wait_for(self, request_ids: set[str], within: float = 300.0) -> None:
        """Return once every one of ``request_ids`` has a response."""
        async with asyncio.timeout(within):
            while not request_ids <= set(self.arrived):
                self.changed.clear()
                await self.changed.wait()


@dataclass(frozen=True)
class Timed:
    """One request, timed in both variants (ms)."""

    request_id: str
    in_process: float
    in_process_embed: float
    bus: float


@dataclass(frozen=True)
class WorkerSide:
    """What the worker's spans say about one request (ms)."""

    #: From FastStream's consume (its ``process`` span) until the response's publish starts.
    to_response: float
    #: The response's publish, until JetStream acked it (the bench may have it before then).
    response_publish: float
    #: ``process_delivery``'s ``handle`` span: also the message's ack after the response.
    handle: float
    embed: float
    embed_calls: int


def _ms(start_ns: int, end_ns: int) -> float:
    return (end_ns - start_ns) / 1e6


def worker_sides(spans: list[ReceivedSpan], request_ids: list[str]) -> dict[str, WorkerSide]:
    """The worker's handling and embedding of each request that its spans identify beyond doubt.

    A request counts only with exactly one ``handle`` span (one delivery) stamped with its id, the
    consume span it sits in, one response publish in that trace, and ``embed`` spans in that trace
    stamped with the same id and lying inside the ``handle`` span.
    """
    by_trace: dict[str, list[ReceivedSpan]] = defaultdict(list)
    handles: dict[str, list[ReceivedSpan]] = defaultdict(list)
    for span in spans:
        by_trace[span.trace_id].append(span)
        if span.name.startswith("handle "):
            handles[span.attributes.get(REQUEST_ID, "")].append(span)
    sides: dict[str, WorkerSide] = {}
    for request_id in request_ids:
        if len(handles[request_id]) != 1:
            continue
        handle = handles[request_id][0]
        trace = by_trace[handle.trace_id]
        consumes = [s for s in trace if s.span_id == handle.parent_span_id and s.name.endswith(" process")]
        responses = [s for s in trace if s.name.endswith(".response publish")]
        embeds = [s for s in trace if s.name == EMBED_SPAN and s.attributes.get(REQUEST_ID) == request_id]
        inside = all(handle.start_ns <= s.start_ns and s.end_ns <= handle.end_ns for s in embeds)
        if len(consumes) == 1 and len(responses) == 1 and embeds and inside:
            sides[request_id] = WorkerSide(
                to_response=_ms(consumes[0].start_ns, responses[0].start_ns),
                response_publish=_ms(responses[0].start_ns, responses[0].end_ns),
                handle=_ms(handle.start_ns, handle.end_ns),
                embed=sum(_ms(s.start_ns, s.end_ns) for s in embeds),
                embed_calls=len(embeds),
            )
    return sides


async def _latency(
    stack: FaultStack, root: Path, js: JetStreamContext, responses: Responses, requests: int
) -> tuple[list[Timed], dict[str, WorkerSide]]:
    """Interleaved in-process and bus latency, and the latency worker's spans of the same requests."""
    direct = InProcess(root / "qdrant-inproc")
    await direct.answer_ms(inquiries(TENANT, 1)[0])  # warm-up
    collector = SpanCollector()
    async with serve(collector.app()) as otlp_url:
        worker = stack.start_worker(
            "actions.inquire",
            POLICYPAL_ACK_WAIT_SECONDS="60",
            OTEL_EXPORTER_OTLP_ENDPOINT=f"{otlp_url}/v1/traces",
            **HOLD_SPANS_ENV,
        )
        warm = inquiries(TENANT, 3)
        for event in warm:
            await publish_request(js, event)
        await responses.wait_for({e.request_id for e in warm})

        # Interleaved, so both variants see the same load on a shared machine.
        timed: list[Timed] = []
        for event in inquiries(TENANT, requests):
            total_ms, embed_ms = await direct.answer_ms(event)
            started = time.perf_counter()
            await publish_request(js, event)
            await responses.wait_for({event.request_id})
            bus_ms = (responses.arrived[event.request_id] - started) * 1000
            timed.append(Timed(event.request_id, total_ms, embed_ms, bus_ms))
        await direct.client.close()
        # It exports its spans on the way out, to the receiver on this loop: stop it off the loop.
        await asyncio.to_thread(worker.stop, 40.0)
    return timed, worker_sides(collector.spans, [t.request_id for t in timed])


async def bus_run(root: Path, requests: int) -> tuple[list[Timed], dict[str, WorkerSide], dict[str, float]]:
    """Start the stack; measure sequential latency through the bus and backlog throughput."""
    stack = FaultStack(root)
    try:
        stack.start_nats()
        stack.start_valkey()
        await index_policy(root / "qdrant", TENANT)
        shutil.copytree(root / "qdrant", root / "qdrant-2")
        shutil.copytree(root / "qdrant", root / "qdrant-inproc")
        redis = Redis.from_url(stack.redis_url, decode_responses=True)
        await new_conversation(redis, TENANT)
        await redis.aclose()

        nc = await nats.connect(stack.nats_url)
        responses = Responses()
        await nc.subscribe(f"events.{TENANT}.{THREAD}.response", cb=responses.on_message)
        throughput: dict[str, float] = {}
        async with jetstream(stack.nats_url) as js:
            timed, sides = await _latency(stack, root, js, responses, requests)
            for name, qdrant in (("one_worker_rps", "qdrant"), ("two_workers_rps", "qdrant-2")):
                stack.start_worker(
                    "actions.inquire",
                    POLICYPAL_ACK_WAIT_SECONDS="60",
                    POLICYPAL_QDRANT_PATH=str(root / qdrant),
                )
                warm = inquiries(TENANT, 6)
                for event in warm:
                    await publish_request(js, event)
                await responses.wait_for({e.request_id for e in warm})
                throughput[name] = await _drain_rate(js, responses, requests * 2)
        await nc.close()
        return timed, sides, throughput
    finally:
        stack.stop()


async def _drain_rate(js: JetStreamContext, responses: Responses, count: int) -> float:
    """Requests per second answered for a backlog of ``count`` published at once."""
    backlog = inquiries(TENANT, count)
    started = time.perf_counter()
    await asyncio.gather(*(publish_request(js, event) for event in backlog))
    await responses.wait_for({e.request_id for e in backlog})
    return count / (time.perf_counter() - started)


def _p50_p90(values: list[float]) -> tuple[float, float]:
    return statistics.median(values), statistics.quantiles(values, n=10, method="inclusive")[-1]


def report(timed: list[Timed], sides: dict[str, WorkerSide], throughput: dict[str, float]) -> None:
    """Print medians and p90 of each measure over the requests the worker's spans identified."""
    matched = [t for t in timed if t.request_id in sides]
    calls = sorted({sides[t.request_id].embed_calls for t in matched})
    print(f"requests {len(timed)}, matched to the worker's spans {len(matched)} (embed calls each: {calls})")
    if len(matched) < 2:
        raise SystemExit("too few requests matched to the worker's spans; see its log")
    rows: dict[str, list[float]] = {
        "in-process": [t.in_process for t in matched],
        "in-process embedding": [t.in_process_embed for t in matched],
        "in-process excl. embed": [t.in_process - t.in_process_embed for t in matched],
        "bus": [t.bus for t in matched],
        "worker embedding": [sides[t.request_id].embed for t in matched],
        "bus excl. own embed": [t.bus - sides[t.request_id].embed for t in matched],
        "worker, to response publish, excl. embed": [
            sides[t.request_id].to_response - sides[t.request_id].embed for t in matched
        ],
        "worker handle span excl. embed": [
            sides[t.request_id].handle - sides[t.request_id].embed for t in matched
        ],
        "worker response publish": [sides[t.request_id].response_publish for t in matched],
        "transport (bus - worker)": [t.bus - sides[t.request_id].to_response for t in matched],
    }
    print(f"{'ms per request':42} {'median':>8} {'p90':>8}")
    for name, values in rows.items():
        p50, p90 = _p50_p90(values)
        print(f"{name:42} {p50:8.1f} {p90:8.1f}")
    base50, base90 = _p50_p90(rows["in-process excl. embed"])
    bus50, bus90 = _p50_p90(rows["bus excl. own embed"])
    per_request = [
        b / i for b, i in zip(rows["bus excl. own embed"], rows["in-process excl. embed"], strict=True)
    ]
    print(
        f"ratio excl. embedding: medians {bus50 / base50:.2f}x, p90s {bus90 / base90:.2f}x, "
        f"median per request {statistics.median(per_request):.2f}x (goal <= 1.5x)"
    )
    with_embed = statistics.median(rows["bus"]) / statistics.median(rows["in-process"])
    print(f"ratio with embedding (medians) {with_embed:.2f}x")
    one, two = throughput["one_worker_rps"], throughput["two_workers_rps"]
    print(f"throughput, 1 worker {one:.1f} req/s, 2 workers {two:.1f} req/s ({two / one:.2f}x)")


def main() -> None:
    """Run the benchmark and print the measures and ratios."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=40)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="policypal-bus-bench-") as tmp:
        report(*asyncio.run(bus_run(Path(tmp), args.requests)))


if __name__ == "__main__":
    main()
