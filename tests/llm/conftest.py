"""The scripted OpenAI-compatible server and an adapter pointed at it."""

from collections.abc import AsyncIterator, Callable

import pytest

from policypal.config import Settings, StructuredMode
from policypal.llm import LLM
from tests.support.openai_server import ScriptedOpenAI

API_KEY = "sk-test-secret-0123456789"

LLMFactory = Callable[..., LLM]


@pytest.fixture
async def openai_server() -> AsyncIterator[ScriptedOpenAI]:
    async with ScriptedOpenAI() as server:
        yield server


@pytest.fixture
async def llama_like_server() -> AsyncIterator[ScriptedOpenAI]:
    """A server that, like llama-cpp-python 0.3, rejects json_schema with HTTP 500 and streams no usage."""
    async with ScriptedOpenAI(json_schema_rejection=500, stream_usage=False) as server:
        yield server


@pytest.fixture
async def make_llm(openai_server: ScriptedOpenAI) -> AsyncIterator[LLMFactory]:
    made: list[LLM] = []

    def make(
        *,
        timeout_seconds: float = 5.0,
        max_retries: int = 2,
        structured_mode: StructuredMode = "auto",
        server: ScriptedOpenAI | None = None,
    ) -> LLM:
        """A client of ``server`` (default: ``openai_server``), closed when the test ends."""
        settings = Settings(
            _env_file=None,
            openai_api_key=API_KEY,
            openai_base_url=(server or openai_server).base_url,
            llm_timeout_seconds=timeout_seconds,
            llm_max_retries=max_retries,
            llm_structured_mode=structured_mode,
        )
        llm = LLM.from_settings(settings)
        made.append(llm)
        return llm

    yield make
    for llm in made:
        await llm.aclose()
