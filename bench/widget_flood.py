"""A widget-session flood against a real gateway, while the tenant's signed-in users keep working.

Starts nats-server and Valkey, serves the gateway with the deployment's default limits, and runs the
signed-in users' workload (list conversations, start one; 8 users) twice: alone (the baseline) and
during a flood of 2,000 anonymous ``POST /v1/widget/sessions`` from the tenant's allowed Origin, half
from one address, half from 1,000 addresses (as a trusted proxy reports them in X-Forwarded-For).
Prints the users' success rate and latency against the baseline, what the flood got, and what it left
in Redis.

    .venv/bin/python -m bench.widget_flood [--flood 2000] [--users 8] [--requests 50]
"""

import argparse
import asyncio
import statistics
import tempfile
import time
from collections import Counter
from pathlib import Path

import httpx
from redis.asyncio import Redis

from gateway.app import create_app
from policypal.config import Settings
from policypal.devstack import free_port, start_nats_server, start_valkey
from tests.support.gateway_client import admin, bearer, new_id
from tests.support.serving import serve

ORIGIN = "https://shop.example.com"


async def users_workload(
    client: httpx.AsyncClient, users: list[dict[str, str]], requests: int
) -> list[tuple[int, float]]:
    """Each user alternates listing and starting conversations; (status, seconds) per request."""

    async def one_user(headers: dict[str, str]) -> list[tuple[int, float]]:
        done = []
        for n in range(requests):
            started = time.perf_counter()
            if n % 2:
                response = await client.post("/v1/conversations", headers=headers, json={"title": "Review"})
            else:
                response = await client.get("/v1/conversations", headers=headers)
            done.append((response.status_code, time.perf_counter() - started))
        return done

    results = await asyncio.gather(*(one_user(headers) for headers in users))
    return [result for per_user in results for result in per_user]


async def flood(client: httpx.AsyncClient, tenant: str, count: int, concurrency: int) -> list[int]:
    """``count`` session requests, half from one address and half from as many addresses."""
    gate = asyncio.Semaphore(concurrency)

    async def one(n: int) -> int:
        address = "203.0.113.7" if n % 2 else f"198.51.{n // 500}.{n % 250 + 1}"
        async with gate:
            response = await client.post(
                "/v1/widget/sessions",
                headers={"Origin": ORIGIN, "X-Forwarded-For": address},
                json={"tenant_id": tenant},
            )
        return response.status_code

    return await asyncio.gather(*(one(n) for n in range(count)))


def summary(results: list[tuple[int, float]]) -> tuple[float, float, float]:
    """Success rate (2xx), p50 and p95 latency in ms."""
    ok = sum(1 for status, _ in results if 200 <= status < 300) / len(results)
    latencies = sorted(seconds * 1000 for _, seconds in results)
    return ok, statistics.median(latencies), latencies[int(len(latencies) * 0.95) - 1]


async def run(count: int, user_count: int, requests: int) -> None:
    """Start the stack, measure the baseline, then the flood, and print both."""
    with tempfile.TemporaryDirectory() as root:
        nats = start_nats_server(Path(root) / "nats", log_path=Path(root) / "nats.log")
        valkey = start_valkey(Path(root) / "valkey", log_path=Path(root) / "valkey.log")
        try:
            settings = Settings(
                NATS_URL=nats.url,
                REDIS_URL=valkey.url,
                environment="test",
                PORT=free_port(),
                notifier_port=free_port(),
            )
            window = settings.rate_limit_window_seconds
            if time.time() % window > window - 30:  # start the flood inside one window
                await asyncio.sleep(window - time.time() % window + 0.1)
            redis = Redis.from_url(str(valkey.url), decode_responses=True)
            async with (
                serve(create_app(settings), settings.port) as url,
                httpx.AsyncClient(
                    base_url=url, timeout=30, limits=httpx.Limits(max_connections=100)
                ) as client,
            ):
                tenant = new_id("t")
                put = await client.put(
                    "/v1/admin/tenant",
                    headers=admin(settings, tenant),
                    json={"allowed_domains": ["shop.example.com"]},
                )
                assert put.status_code == 200, put.text
                users = [bearer(settings, tenant, new_id("u")) for _ in range(user_count)]
                baseline = await users_workload(client, users, requests)
                conversations_before = len(
                    [k async for k in redis.scan_iter(f"pp:{tenant}:conv:*") if k.count(":") == 3]
                )
                keys_before = await redis.dbsize()

                started = time.perf_counter()
                flooded, during = await asyncio.gather(
                    flood(client, tenant, count, 64), users_workload(client, users, requests)
                )
                flood_seconds = time.perf_counter() - started
                conversations_after = len(
                    [k async for k in redis.scan_iter(f"pp:{tenant}:conv:*") if k.count(":") == 3]
                )
                flood_keys = [k async for k in redis.scan_iter(f"pp:{tenant}:rl:widget_sessions*")]
                keys_after = await redis.dbsize()
            await redis.aclose()
        finally:
            nats.stop()
            valkey.stop()

    base_ok, base_p50, base_p95 = summary(baseline)
    ok, p50, p95 = summary(during)
    outcome = Counter(flooded)
    users_added = user_count * (requests // 2)
    print(f"Widget flood: {count} session requests ({count / flood_seconds:.0f}/s) against one tenant")
    print(
        f"  flood answers: {dict(sorted(outcome.items()))}  (limits: {settings.widget_sessions_per_tenant}/tenant, "
        f"{settings.widget_sessions_per_address}/address per {settings.rate_limit_window_seconds} s)"
    )
    print(f"  signed-in users, {len(baseline)} requests each run:")
    print(f"    baseline (no flood): success {base_ok:.1%}  p50 {base_p50:.1f} ms  p95 {base_p95:.1f} ms")
    print(
        f"    during the flood:    success {ok:.1%}  p50 {p50:.1f} ms  p95 {p95:.1f} ms  "
        f"(p50 x{p50 / base_p50:.2f}, p95 x{p95 / base_p95:.2f} of baseline)"
    )
    visitors_conversations = conversations_after - conversations_before - users_added
    print(
        f"  left behind by the flood: {visitors_conversations} conversations, "
        f"{len(flood_keys)} rate counters (expire in {2 * settings.rate_limit_window_seconds} s); "
        f"Redis keys added during the flood besides the users' {users_added} conversations: "
        f"{keys_after - keys_before - users_added}"
    )


def main() -> None:
    """Parse the arguments and run."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--flood", type=int, default=2000)
    parser.add_argument("--users", type=int, default=8)
    parser.add_argument("--requests", type=int, default=50)
    args = parser.parse_args()
    asyncio.run(run(args.flood, args.users, args.requests))


if __name__ == "__main__":
    main()
