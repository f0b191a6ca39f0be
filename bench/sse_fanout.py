"""SSE fan-out: many concurrent clients on one notifier; delivery latency from publish to client.

Starts its own nats-server, Valkey and a notifier process (``python -m notifier``, a fresh one per
pass) on loopback, opens N SSE clients spread over conversations (5 clients each), publishes rounds
of status events that carry their publish time, and measures when each client parses each event. Before the measured
rounds a warm-up event goes to every conversation and the bench waits until every client has it: a
response's headers go out before the notifier has joined the live feed and replayed, so without it
the first rounds measured connection set-up, not delivery (the 1000-client "stalls" of 2026-11-22).
The set-up time (first connection opened to the last client live) is reported on its own. Memory per
client is the notifier's RSS growth from idle to N open streams, divided by N. CPU is what the
notifier and the bench process (clients and publisher) spent from the first publish to the last
stream's end; the bench's peak CPU (per 100 ms) and event-loop lag say whether the clients, rather
than the notifier, were the limit.
A 10-client pass first is the baseline of the same run, then one pass per ``--clients`` value.
Bounded: every phase has a timeout; the run stops by itself.

    .venv/bin/python -m bench.sse_fanout [--clients 100 500] [--rounds 10]
"""

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
import uuid
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlencode, urlsplit

import psutil
from faststream.nats import NatsBroker

from policypal.auth import issue_token
from policypal.bus import build_broker, publish_event
from policypal.config import Settings
from policypal.contracts import ResponseEvent, StatusEvent
from policypal.devstack import ManagedProcess, free_port, start_nats_server, start_valkey
from policypal.state import ConversationRecord, ConversationStore, connect_redis

CLIENTS_PER_CONVERSATION = 5
TENANT = "bench"
USER = "reader"
#: The message of the event that proves a stream live; not a publish time, so not measured.
WARM_UP = "warm-up"
_SAMPLE_SECONDS = 0.1


@dataclass
class Pass:
    """What one pass measured."""

    clients: int
    latencies_ms: list[float]
    expected: int
    rss_per_client_kib: float
    notifier_cpu_ms: float
    clients_cpu_ms: float
    live_after_s: float
    bench_peak_cpu_percent: float
    bench_max_lag_ms: float

    def line(self) -> str:
        """One row of the results table."""
        lat = sorted(self.latencies_ms)
        p50 = statistics.median(lat)
        p99 = lat[min(len(lat) - 1, int(len(lat) * 0.99))]
        return (
            f"| {self.clients} | {len(lat)}/{self.expected} | {p50:.1f} | {p99:.1f} | {lat[-1]:.1f} "
            f"| {self.rss_per_client_kib:.0f} | {self.notifier_cpu_ms:.0f} | {self.clients_cpu_ms:.0f} "
            f"| {self.live_after_s:.2f} | {self.bench_peak_cpu_percent:.0f} | {self.bench_max_lag_ms:.0f} |"
        )


async def _client(
    host: str,
    port: int,
    path: str,
    token: str,
    connected: asyncio.Event,
    live: asyncio.Event,
    out: list[float],
) -> None:
    """One SSE client on a bare asyncio connection (HTTP/1.1, chunked), so the load generator's own
    parsing costs little next to the notifier's work: httpx costs as much CPU per event as the
    notifier does, and on shared cores it would be measured as delivery latency."""
    reader, writer = await asyncio.open_connection(host, port)
    try:
        head = f"GET {path} HTTP/1.1\r\nHost: {host}\r\nAuthorization: Bearer {token}\r\n"
        writer.write(f"{head}Accept: text/event-stream\r\n\r\n".encode())
        status_line = await reader.readline()
        if b" 200 " not in status_line:
            raise RuntimeError(f"stream refused: {status_line!r}")
        while (await reader.readline()) not in (b"\r\n", b""):
            pass  # response headers; the body is chunked
        connected.set()
        while size := int((await reader.readline()).strip() or b"0", 16):
            chunk = await reader.readexactly(size + 2)
            received = time.time()
            # The publish time travels in the event's message: {"type":"status",...,"message":"<t>"}
            if b'"type":"status"' in chunk:
                start = chunk.index(b'"message":"') + 11
                message = chunk[start : chunk.index(b'"', start)]
                if message == WARM_UP.encode():
                    live.set()
                else:
                    out.append((received - float(message)) * 1000)
    finally:
        writer.close()


async def run_pass(
    settings: Settings, notifier: ManagedProcess, broker: NatsBroker, clients: int, rounds: int
) -> Pass:
    """Open ``clients`` streams, publish ``rounds`` events per conversation, then end every stream."""
    redis = connect_redis(settings.redis_url)
    conversations = [uuid.uuid4().hex for _ in range(max(1, clients // CLIENTS_PER_CONVERSATION))]
    for conversation in conversations:
        record = ConversationRecord(conversation_id=conversation, tenant_id=TENANT, user_id=USER)
        await ConversationStore(redis).create(record)
    await redis.aclose()
    token = issue_token(settings, TENANT, USER)
    request_id = uuid.uuid4().hex
    process = psutil.Process(notifier.popen.pid)
    await asyncio.sleep(0.5)
    idle_rss = process.memory_info().rss

    latencies: list[float] = []
    query = urlencode({"request_id": request_id})
    address = urlsplit(str(notifier.url))
    host, port = address.hostname or "127.0.0.1", address.port or 80
    connected = [asyncio.Event() for _ in range(clients)]
    live = [asyncio.Event() for _ in range(clients)]
    opened = time.monotonic()
    tasks = [
        asyncio.create_task(
            _client(
                host,
                port,
                f"/v1/conversations/{conversations[i % len(conversations)]}/events?{query}",
                token,
                connected[i],
                live[i],
                latencies,
            )
        )
        for i in range(clients)
    ]
    async with asyncio.timeout(60):
        await asyncio.gather(*(event.wait() for event in connected))
    for conversation in conversations:
        await publish_event(broker, _status(conversation, request_id, "warm-up", WARM_UP))
    async with asyncio.timeout(60):
        await asyncio.gather(*(event.wait() for event in live))
    live_after = time.monotonic() - opened
    await asyncio.sleep(1.0)
    rss_per_client = (process.memory_info().rss - idle_rss) / clients / 1024

    notifier_cpu, clients_cpu = _cpu_seconds(process), _cpu_seconds(psutil.Process())
    samples: list[tuple[float, float]] = []
    sampler = asyncio.create_task(_sample_bench(samples))
    for round_index in range(rounds):
        for conversation in conversations:
            event = _status(conversation, request_id, f"round-{round_index}", f"{time.time():.6f}")
            await publish_event(broker, event)
        await asyncio.sleep(0.25)  # rounds apart: latency, not a backlog, is measured
    for conversation in conversations:
        end = ResponseEvent(
            tenant_id=TENANT,
            user_id=USER,
            thread_id=conversation,
            request_id=request_id,
            message_id=f"m-{conversation}",
            action="inquire",
            answer="end",
            model="offline-extractive",
        )
        await publish_event(broker, end)
    async with asyncio.timeout(60):
        await asyncio.gather(*tasks)
    sampler.cancel()
    notifier_cpu = _cpu_seconds(process) - notifier_cpu
    clients_cpu = _cpu_seconds(psutil.Process()) - clients_cpu
    return Pass(
        clients,
        latencies,
        clients * rounds,
        rss_per_client,
        notifier_cpu * 1000,
        clients_cpu * 1000,
        live_after,
        max(cpu for cpu, _ in samples),
        max(lag for _, lag in samples),
    )


def _status(conversation: str, request_id: str, stage: str, message: str) -> StatusEvent:
    return StatusEvent(
        tenant_id=TENANT,
        user_id=USER,
        thread_id=conversation,
        request_id=request_id,
        stage=stage,
        message=message,
    )


async def _sample_bench(samples: list[tuple[float, float]]) -> None:
    """Every 100 ms: the bench process's CPU % over it and how late its event loop woke (ms)."""
    me = psutil.Process()
    cpu = _cpu_seconds(me)
    while True:
        asleep = time.perf_counter()
        await asyncio.sleep(_SAMPLE_SECONDS)
        elapsed = time.perf_counter() - asleep
        now = _cpu_seconds(me)
        samples.append(((now - cpu) / elapsed * 100, (elapsed - _SAMPLE_SECONDS) * 1000))
        cpu = now


def _start_notifier(settings: Settings, root: Path) -> ManagedProcess:
    env = {**settings.as_environment(), "POLICYPAL_LOG_LEVEL": "WARNING"}
    return ManagedProcess.start(
        "notifier",
        [sys.executable, "-m", "notifier"],
        port=settings.notifier_port,
        url=f"http://127.0.0.1:{settings.notifier_port}",
        env=env,
        log_path=root / "notifier.log",
    )


def _cpu_seconds(process: psutil.Process) -> float:
    times = process.cpu_times()
    return float(times.user + times.system)


async def main(clients: list[int], rounds: int) -> None:
    """Start the stack, run the baseline pass and the measured passes, print the table."""
    with tempfile.TemporaryDirectory(prefix="pp-sse-bench-") as tmp:
        root = Path(tmp)
        nats = start_nats_server(root / "nats", log_path=root / "nats.log")
        valkey = start_valkey(root / "valkey", log_path=root / "valkey.log")
        port = free_port()
        settings = Settings(NATS_URL=nats.url, REDIS_URL=valkey.url, environment="test", notifier_port=port)
        broker = build_broker(settings)
        await broker.start()
        passes = []
        try:
            for n in (10, *clients):
                # A fresh notifier per pass: memory a larger pass reuses from a smaller one's (freed,
                # not returned to the OS) would not show as RSS growth.
                notifier = _start_notifier(settings, root)
                try:
                    passes.append(await run_pass(settings, notifier, broker, n, rounds))
                finally:
                    notifier.stop()
        finally:
            await broker.stop()
            valkey.stop()
            nats.stop()
    print(
        "| clients | events received/expected | p50 ms | p99 ms | max ms | notifier RSS per client KiB "
        "| notifier CPU ms | bench clients CPU ms | all streams live after s | bench peak CPU % "
        "| bench max loop lag ms |"
    )
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for measured in passes:
        print(measured.line())
    base, big = passes[0], passes[-1]
    ratio = statistics.median(big.latencies_ms) / statistics.median(base.latencies_ms)
    print(f"p50 at {big.clients} clients is {ratio:.1f}x the 10-client baseline")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--clients", type=int, nargs="+", default=[100, 500])
    parser.add_argument("--rounds", type=int, default=10)
    args = parser.parse_args()
    asyncio.run(asyncio.wait_for(main(args.clients, args.rounds), timeout=300))
