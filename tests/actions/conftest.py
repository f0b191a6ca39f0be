"""Fixtures of every action worker's LLM path: the scripted OpenAI-compatible server and a client of it."""

from collections.abc import AsyncIterator

import pytest

from policypal.config import Settings
from policypal.llm import LLM
from tests.support.openai_server import ScriptedOpenAI

API_KEY = "sk-actions-test-0123456789"


@pytest.fixture
async def openai_server() -> AsyncIterator[ScriptedOpenAI]:
    async with ScriptedOpenAI() as server:
        yield server


@pytest.fixture
async def llm(openai_server: ScriptedOpenAI) -> AsyncIterator[LLM]:
    """The client the workers use, pointed at ``openai_server``, with one retry and a short timeout."""
    settings = Settings(
        _env_file=None,
        openai_api_key=API_KEY,
        openai_base_url=openai_server.base_url,
        llm_max_retries=1,
        llm_timeout_seconds=5,
    )
    model = LLM.from_settings(settings)
    yield model
    await model.aclose()
