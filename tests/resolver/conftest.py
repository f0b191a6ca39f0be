"""A scripted OpenAI-compatible server and the resolver's LLM deciders pointed at it; the declared
streams and a connected publishing broker (modules that run the resolver's router override these)."""

from collections.abc import AsyncIterator

import nats
import pytest
from faststream.nats import NatsBroker
from nats.js import JetStreamContext

from policypal.bus import build_broker, declare_streams
from policypal.config import Settings
from policypal.devstack import ManagedProcess
from policypal.llm import LLM
from resolver.pipeline import Deciders
from resolver.service import llm_deciders
from tests.support.openai_server import ScriptedOpenAI

API_KEY = "sk-resolver-test-0123456789"


@pytest.fixture
async def openai_server() -> AsyncIterator[ScriptedOpenAI]:
    async with ScriptedOpenAI() as server:
        yield server


def llm_settings(server: ScriptedOpenAI, **overrides: object) -> Settings:
    """Settings with the scripted server as the model; one retry, so failures end quickly."""
    values: dict[str, object] = {
        "openai_api_key": API_KEY,
        "openai_base_url": server.base_url,
        "llm_max_retries": 1,
        "llm_timeout_seconds": 5.0,
        **overrides,
    }
    return Settings(_env_file=None, **values)  # type: ignore[arg-type]


@pytest.fixture
async def llm(openai_server: ScriptedOpenAI) -> AsyncIterator[LLM]:
    model = LLM.from_settings(llm_settings(openai_server))
    yield model
    await model.aclose()


@pytest.fixture
def deciders(llm: LLM) -> Deciders:
    return llm_deciders(llm)


@pytest.fixture
async def js(nats_server: ManagedProcess) -> AsyncIterator[JetStreamContext]:
    """JetStream with the system's streams declared."""
    nc = await nats.connect(str(nats_server.url))
    await declare_streams(nc.jetstream())
    yield nc.jetstream()
    await nc.drain()


@pytest.fixture
async def broker(nats_server: ManagedProcess, js: JetStreamContext) -> AsyncIterator[NatsBroker]:
    """A connected broker that publishes (no subscriber runs)."""
    broker = build_broker(Settings(_env_file=None, nats_url=nats_server.url))
    await broker.connect()
    yield broker
    await broker.stop()
