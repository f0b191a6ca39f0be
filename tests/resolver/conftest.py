"""A scripted OpenAI-compatible server and the resolver's LLM deciders pointed at it."""

from collections.abc import AsyncIterator

import pytest

from policypal.config import Settings
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
