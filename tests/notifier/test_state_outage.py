"""Redis down while the notifier runs: a stream request gets 503 with a sentence and Retry-After (never
a 500), from the route or from the tenant-CORS middleware alike; once Redis is back, it is served again."""

from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest

from notifier.app import create_app
from policypal.auth.state_outage import SENTENCE
from policypal.config import Settings
from policypal.devstack import ManagedProcess, free_port, start_valkey
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
    settings = Settings(
        NATS_URL=nats_server.url, REDIS_URL=own_valkey.url, environment="test", notifier_port=free_port()
    )
    headers = bearer(settings, new_id("t"), new_id("u"))
    stream = f"/v1/conversations/{new_id('c')}/events"
    async with (
        serve(create_app(settings), settings.notifier_port) as url,
        httpx.AsyncClient(base_url=url) as client,
    ):
        # Up: a conversation that is not the caller's is simply not found.
        assert (await client.get(stream, headers=headers)).status_code == 404

        own_valkey.stop()
        for request_headers in (headers, headers | {"Origin": "https://intranet.example.com"}):
            response = await client.get(stream, headers=request_headers)
            assert response.status_code == 503, response.text
            assert response.json() == {"detail": SENTENCE}
            assert response.headers["Retry-After"] == "5"

        port = int(str(own_valkey.url).rsplit(":", 1)[1].split("/")[0])
        restarted = start_valkey(tmp_path / "valkey", port=port, log_path=tmp_path / "valkey.log")
        try:
            assert (await client.get(stream, headers=headers)).status_code == 404
        finally:
            restarted.stop()
