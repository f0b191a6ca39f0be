"""Redis down while the gateway runs: requests get 503 with a sentence and Retry-After (never a 500),
from a route or from the tenant-CORS middleware alike; once Redis is back, they succeed again."""

from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest

from gateway.app import create_app
from policypal.auth.state_outage import SENTENCE
from policypal.devstack import ManagedProcess, free_port, start_valkey
from tests.gateway.conftest import stack_settings
from tests.support.gateway_client import bearer, new_id
from tests.support.serving import serve

pytestmark = pytest.mark.integration


@pytest.fixture
async def own_valkey(tmp_path: Path) -> AsyncIterator[ManagedProcess]:
    """A Valkey this test may stop and start again on the same port."""
    proc = start_valkey(tmp_path / "valkey", port=free_port(), log_path=tmp_path / "valkey.log")
    yield proc
    proc.stop()


async def test_redis_down_answers_503_with_a_sentence(
    nats_server: ManagedProcess, own_valkey: ManagedProcess, tmp_path: Path
) -> None:
    settings = stack_settings(nats_server, own_valkey)
    headers = bearer(settings, new_id("t"), new_id("u"))
    async with serve(create_app(settings), settings.port) as url, httpx.AsyncClient(base_url=url) as client:
        assert (await client.get("/v1/documents", headers=headers)).status_code == 200

        own_valkey.stop()
        for request_headers in (headers, headers | {"Origin": "https://intranet.example.com"}):
            response = await client.get("/v1/documents", headers=request_headers)
            assert response.status_code == 503, response.text
            assert response.json() == {"detail": SENTENCE}
            assert response.headers["Retry-After"] == "5"
        assert (await client.get("/readyz")).status_code == 503

        port = int(str(own_valkey.url).rsplit(":", 1)[1].split("/")[0])
        restarted = start_valkey(tmp_path / "valkey", port=port, log_path=tmp_path / "valkey.log")
        try:
            assert (await client.get("/v1/documents", headers=headers)).status_code == 200
        finally:
            restarted.stop()
