"""Readiness of the gateway: NATS, Redis and Qdrant each checked, against the real services."""

import time

import httpx
import pytest

from gateway.app import create_app
from policypal.config import Settings
from policypal.devstack import free_port
from tests.support.serving import serve

pytestmark = pytest.mark.integration


async def test_embedded_qdrant_is_reported_not_opened(client: httpx.AsyncClient, settings: Settings) -> None:
    assert settings.qdrant_url is None
    ready = await client.get("/readyz")
    assert ready.status_code == 200
    assert ready.json() == {"status": "ok", "checks": {"nats": "ok", "redis": "ok", "qdrant": "embedded"}}


async def test_an_unreachable_qdrant_server_makes_the_gateway_unready(settings: Settings) -> None:
    # A port nothing listens on: the check fails fast and says which dependency is down.
    with_server = settings.model_copy(
        update={"qdrant_url": f"http://127.0.0.1:{free_port()}", "port": free_port()}
    )
    async with (
        serve(create_app(with_server), with_server.port) as url,
        httpx.AsyncClient(base_url=url) as http,
    ):
        started = time.monotonic()
        ready = await http.get("/readyz")
        assert time.monotonic() - started < 3
        assert ready.status_code == 503
        assert ready.json() == {
            "status": "unavailable",
            "checks": {"nats": "ok", "redis": "ok", "qdrant": "unavailable"},
        }
        assert (await http.get("/healthz")).status_code == 200


async def test_an_unreachable_redis_makes_the_gateway_unready(settings: Settings) -> None:
    without_redis = settings.model_copy(
        update={"redis_url": f"redis://127.0.0.1:{free_port()}/0", "port": free_port()}
    )
    async with (
        serve(create_app(without_redis), without_redis.port) as url,
        httpx.AsyncClient(base_url=url) as http,
    ):
        ready = await http.get("/readyz")
        assert ready.status_code == 503
        assert ready.json()["checks"] == {"nats": "ok", "redis": "unavailable", "qdrant": "embedded"}
