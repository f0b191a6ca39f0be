"""The embedded infrastructure really starts and serves."""

import nats
import pytest
from redis.asyncio import Redis

from policypal.devstack import ManagedProcess

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
