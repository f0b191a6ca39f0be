"""Bus and state overhead of one @Inquire request, and throughput with one versus two worker processes.

``.venv/bin/python -m bench.bus_overhead [--requests N]``

- **in-process**: ``actions.inquire.handler.answer_inquiry`` (query embedding, retrieval in local
  Qdrant, passage scoring, extractive answer) called directly, one request at a time.
- **through the bus**: the same request published on ``actions.inquire.requested`` to a
  ``python -m actions.inquire`` process (real nats-server, Valkey with AOF, local Qdrant), timed from
  the publish until its response event arrives, one request at a time. The difference is what the
  bus and the state add: JetStream publish and pull, ledger, conversation append, status and terminal
  events, and the handler's own checks.
- **throughput**: a backlog of N requests drained by one worker process, then by two (each worker has
  its own copy of the local Qdrant directory: local Qdrant is single-process).

No LLM anywhere (offline-extractive answers); embeddings are the real MiniLM in both variants. The
issue's ratio excludes embedding: the in-process variant times its own ``embed`` calls, and since the
worker embeds exactly the same texts for the same request, that time is taken out of both variants
(``... excl. embedding``). The ratio with embedding is printed too.
"""

import argparse
import asyncio
import json
import shutil
import statistics
import tempfile
import time
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

TENANT = "acme"


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


async def bus_run(root: Path, requests: int) -> dict[str, float]:
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

        direct = InProcess(root / "qdrant-inproc")
        await direct.answer_ms(inquiries(TENANT, 1)[0])  # warm-up
        results: dict[str, float] = {}

        nc = await nats.connect(stack.nats_url)
        responses = Responses()
        await nc.subscribe(f"events.{TENANT}.{THREAD}.response", cb=responses.on_message)
        async with jetstream(stack.nats_url) as js:
            stack.start_worker("actions.inquire", POLICYPAL_ACK_WAIT_SECONDS="60")
            warm = inquiries(TENANT, 3)
            for event in warm:
                await publish_request(js, event)
            await responses.wait_for({e.request_id for e in warm})

            # Interleaved, so both variants see the same load on a shared machine.
            latencies, inproc, embedding = [], [], []
            for event in inquiries(TENANT, requests):
                total_ms, embed_ms = await direct.answer_ms(event)
                inproc.append(total_ms)
                embedding.append(embed_ms)
                started = time.perf_counter()
                await publish_request(js, event)
                await responses.wait_for({event.request_id})
                latencies.append((responses.arrived[event.request_id] - started) * 1000)
            results["in_process_ms"] = statistics.median(inproc)
            results["bus_ms"] = statistics.median(latencies)
            results["embedding_ms"] = statistics.median(embedding)
            results["in_process_excl_ms"] = statistics.median(
                t - e for t, e in zip(inproc, embedding, strict=True)
            )
            results["bus_excl_ms"] = statistics.median(
                t - e for t, e in zip(latencies, embedding, strict=True)
            )
            await direct.client.close()

            results["one_worker_rps"] = await _drain_rate(js, responses, requests * 2)
            stack.start_worker(
                "actions.inquire",
                POLICYPAL_ACK_WAIT_SECONDS="60",
                POLICYPAL_QDRANT_PATH=str(root / "qdrant-2"),
            )
            second_warm = inquiries(TENANT, 6)
            for event in second_warm:
                await publish_request(js, event)
            await responses.wait_for({e.request_id for e in second_warm})
            results["two_workers_rps"] = await _drain_rate(js, responses, requests * 2)
        await nc.close()
        return results
    finally:
        stack.stop()


async def _drain_rate(js: JetStreamContext, responses: Responses, count: int) -> float:
    """Requests per second answered for a backlog of ``count`` published at once."""
    backlog = inquiries(TENANT, count)
    started = time.perf_counter()
    await asyncio.gather(*(publish_request(js, event) for event in backlog))
    await responses.wait_for({e.request_id for e in backlog})
    return count / (time.perf_counter() - started)


def main() -> None:
    """Run the benchmark and print the ratios."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=40)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="policypal-bus-bench-") as tmp:
        results = asyncio.run(bus_run(Path(tmp), args.requests))
    overhead = results["bus_ms"] - results["in_process_ms"]
    print(f"in-process (median)      {results['in_process_ms']:8.1f} ms")
    print(f"through the bus (median) {results['bus_ms']:8.1f} ms")
    print(
        f"bus + state overhead     {overhead:8.1f} ms  ratio {results['bus_ms'] / results['in_process_ms']:.2f}x"
    )
    print(f"embedding (median)       {results['embedding_ms']:8.1f} ms, left out below")
    print(f"in-process excl. embed   {results['in_process_excl_ms']:8.1f} ms")
    print(
        f"bus excl. embed          {results['bus_excl_ms']:8.1f} ms  "
        f"ratio {results['bus_excl_ms'] / results['in_process_excl_ms']:.2f}x (goal <= 1.5x)"
    )
    print(f"throughput, 1 worker     {results['one_worker_rps']:8.1f} req/s")
    print(
        f"throughput, 2 workers    {results['two_workers_rps']:8.1f} req/s  "
        f"({results['two_workers_rps'] / results['one_worker_rps']:.2f}x)"
    )


if __name__ == "__main__":
    main()
