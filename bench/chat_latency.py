"""Chat latency on the offline path: POST message → first status event, and → response.

Starts the whole embedded system (every service its own process, as `make up` does), ingests a
generated 3-page PDF, then sends N questions one after another, each in a new conversation so the SSE
replay holds only that request's events. Prints p50/p95 in milliseconds.

    .venv/bin/python -m bench.chat_latency [--requests 50]
"""

import argparse
import asyncio
import statistics
import tempfile
import time
from pathlib import Path

from bench.chat_document import QUESTIONS, bench_client, ingest_regulation
from policypal.cli.embedded_system import EmbeddedSystem
from policypal.config import Settings
from policypal.contracts import ResponseEvent, StatusEvent
from policypal.devstack import free_port


def _percentile(values: list[float], q: float) -> float:
    return statistics.quantiles(values, n=100, method="inclusive")[int(q) - 1]


async def _measure(settings: Settings, requests: int, workdir: Path) -> tuple[list[float], list[float]]:
    client = bench_client(settings)
    try:
        document_id = await ingest_regulation(client, workdir)
        first_status: list[float] = []
        response: list[float] = []
        for i in range(requests):
            conversation = await client.create_conversation()
            started = time.perf_counter()
            accepted = await client.post_message(
                conversation,
                QUESTIONS[i % len(QUESTIONS)],
                action="inquire",
                documents=[document_id],
            )
            seen_status = False
            async for streamed in client.stream(
                f"/v1/conversations/{conversation}/events", request_id=accepted["request_id"]
            ):
                elapsed_ms = (time.perf_counter() - started) * 1000
                if isinstance(streamed.event, StatusEvent) and not seen_status:
                    first_status.append(elapsed_ms)
                    seen_status = True
                if isinstance(streamed.event, ResponseEvent):
                    response.append(elapsed_ms)
        return first_status, response
    finally:
        await client.aclose()


def main() -> None:
    """Run the benchmark and print the percentiles."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--requests", type=int, default=50)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        settings = Settings(
            _env_file=None, data_dir=Path(tmp) / "data", port=free_port(), notifier_port=free_port()
        )
        system = EmbeddedSystem(settings)
        system.start()
        try:
            first_status, response = asyncio.run(_measure(settings, args.requests, Path(tmp)))
        finally:
            system.stop()
    print(f"chat latency, offline path, {args.requests} sequential requests (ms)")
    for name, values in (("POST → first status", first_status), ("POST → response", response)):
        print(f"  {name:22s} p50 {_percentile(values, 50):7.1f}   p95 {_percentile(values, 95):7.1f}")


if __name__ == "__main__":
    main()
