"""The embedded infrastructure really starts and serves."""

import socket
from pathlib import Path

import nats
import pytest
from redis.asyncio import Redis

from policypal.devstack import ManagedProcess, start_valkey

pytestmark = pytest.mark.integration


async def test_nats_server_from_wheel_has_jetstream(nats_server: ManagedProcess) -> None:
    nc = await nats.connect(nats_server.url)
    try:
        info = await nc.jetstream().account_info()
        assert info.limits is not None
        assert (nc.connected_server_version.major, nc.connected_server_version.minor) >= (2, 10)
    finally:
        await nc.drain()


async def test_valkey_round_trip(redis_client: Redis) -> None:
    await redis_client.set("pp:t:probe", "1")
    assert await redis_client.get("pp:t:probe") == "1"


async def test_a_restarted_valkey_is_returned_once_it_serves_its_replayed_data(tmp_path: Path) -> None:
    # 250,000 writes make an append-only file whose replay outlasts the first connection: Valkey
    # listens while it replays and answers LOADING until done.
    keys = 250_000
    valkey = start_valkey(tmp_path / "data")
    client = Redis.from_url(valkey.url)
    try:
        for batch in range(keys // 10_000):
            writes = client.pipeline(transaction=False)
            for key in range(10_000):
                writes.set(f"pp:t:{batch}:{key}", "x" * 100)
            await writes.execute()
    finally:
        await client.aclose()
    valkey.stop()

    restarted = start_valkey(tmp_path / "data", port=valkey.port)
    with socket.create_connection(("127.0.0.1", restarted.port or 0)) as conn:
        conn.sendall(b"DBSIZE\r\n")
        reply = conn.recv(64)
    restarted.stop()
    assert reply == f":{keys}\r\n".encode()
