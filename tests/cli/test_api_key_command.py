"""`policypal api-key create|list|revoke` against a real gateway: the key it prints works, and stops
working once revoked; a non-admin token is refused with the gateway's sentence."""

import asyncio
from collections.abc import AsyncIterator

import httpx
import pytest

from gateway.app import create_app
from policypal.cli.main import main
from policypal.config import Settings
from policypal.devstack import ManagedProcess
from tests.gateway.conftest import stack_settings
from tests.support.gateway_client import bearer, new_id
from tests.support.serving import serve

pytestmark = pytest.mark.integration


@pytest.fixture(scope="module")
def settings(nats_server: ManagedProcess, valkey_server: ManagedProcess) -> Settings:
    return stack_settings(nats_server, valkey_server)


@pytest.fixture(scope="module")
async def gateway_url(settings: Settings) -> AsyncIterator[str]:
    async with serve(create_app(settings), settings.port) as url:
        yield url


async def _cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    # In a thread: the command's blocking HTTP calls are answered by the gateway on this event loop.
    code = await asyncio.to_thread(main, list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


async def test_create_list_and_revoke_a_key(gateway_url: str, capsys: pytest.CaptureFixture[str]) -> None:
    tenant = new_id("t")
    common = ("api-key", "--tenant", tenant, "--api-url", gateway_url)
    code, out, _ = await _cli(capsys, *common, "create", "--name", "billing-bot", "--scope", "audit")
    assert code == 0
    fields = dict(line.split(":", 1) for line in out.splitlines())
    key_id, api_key = fields["Key id"].strip(), fields["API key"].split()[0]
    assert fields["Scopes"].strip() == "audit"

    async with httpx.AsyncClient(base_url=gateway_url) as client:
        assert (await client.get("/v1/requests/rnone", headers={"X-API-Key": api_key})).status_code == 404

        code, out, _ = await _cli(capsys, *common, "list")
        assert code == 0
        assert out.split("\t")[:4] == [key_id, "billing-bot", "audit", "active\n"]

        code, out, _ = await _cli(capsys, *common, "revoke", key_id)
        assert (code, out) == (0, f"revoked {key_id}\n")
        assert (await client.get("/v1/requests/rnone", headers={"X-API-Key": api_key})).status_code == 401
    code, out, _ = await _cli(capsys, *common, "list")
    assert "\trevoked " in out


async def test_a_user_token_is_refused_with_the_gateways_sentence(
    gateway_url: str, settings: Settings, capsys: pytest.CaptureFixture[str]
) -> None:
    tenant = new_id("t")
    user_token = bearer(settings, tenant, "alice")["Authorization"].removeprefix("Bearer ")
    code, _, err = await _cli(
        capsys, "api-key", "--tenant", tenant, "--api-url", gateway_url, "--token", user_token, "list"
    )
    assert code == 1
    assert err.startswith("the gateway refused (403): ")
