"""Fixtures of the gateway tests: a real gateway on NATS and Valkey, clients of it, a user's token."""

from collections.abc import AsyncIterator
from typing import Any

import httpx
import nats
import pytest
from nats.aio.client import Client
from nats.js import JetStreamContext
from redis.asyncio import Redis

from gateway.app import create_app
from policypal.config import Settings
from policypal.devstack import ManagedProcess, free_port
from tests.support.gateway_client import bearer, new_id
from tests.support.serving import serve

MAX_UPLOAD_BYTES = 100_000


def stack_settings(nats_server: ManagedProcess, valkey_server: ManagedProcess, **overrides: Any) -> Settings:
    """Settings pointing at the test NATS and Valkey, free ports for the gateway and the notifier."""
    return Settings(
        NATS_URL=nats_server.url,
        REDIS_URL=valkey_server.url,
        environment="test",
        PORT=free_port(),
        notifier_port=free_port(),
        **overrides,
    )


@pytest.fixture(scope="module")
def settings(nats_server: ManagedProcess, valkey_server: ManagedProcess) -> Settings:
    """Settings pointing at the test NATS and Valkey, with a small upload limit."""
    return stack_settings(nats_server, valkey_server, max_upload_bytes=MAX_UPLOAD_BYTES)


@pytest.fixture(scope="module")
async def gateway_url(settings: Settings) -> AsyncIterator[str]:
    """A gateway served by uvicorn in this process."""
    async with serve(create_app(settings), settings.port) as url:
        yield url


@pytest.fixture
async def client(gateway_url: str, redis_client: Redis) -> AsyncIterator[httpx.AsyncClient]:
    """An HTTP client of the gateway; Valkey is emptied first (by ``redis_client``)."""
    async with httpx.AsyncClient(base_url=gateway_url, timeout=10) as http:
        yield http


@pytest.fixture
async def nc(nats_server: ManagedProcess) -> AsyncIterator[Client]:
    """A NATS client to look at what the gateway published."""
    connection = await nats.connect(str(nats_server.url))
    yield connection
    await connection.close()


@pytest.fixture
def js(nc: Client) -> JetStreamContext:
    """JetStream of the test NATS."""
    return nc.jetstream()


@pytest.fixture
def auth(settings: Settings) -> dict[str, str]:
    """Authorization header of a fresh tenant and user."""
    return bearer(settings, new_id("t"), new_id("u"))
