"""OpenAI embeddings over real HTTP against a scripted OpenAI-compatible server."""

import asyncio
from pathlib import Path

import numpy as np
import numpy.typing as npt
import openai
import pytest

from policypal.config import Settings
from policypal.embeddings import MiniLMEmbedder, OpenAIEmbedder, embedder_from_settings
from policypal.vectorstore import ChunkIndex, EmbeddingModelMismatch, open_qdrant
from tests.support.openai_server import Reply, ScriptedOpenAI


def _client(server: ScriptedOpenAI, *, retries: int = 2) -> openai.OpenAI:
    return openai.OpenAI(api_key="sk-test", base_url=server.base_url, max_retries=retries, timeout=5)


async def test_batches_are_sent_in_order_and_vectors_normalised() -> None:
    async with ScriptedOpenAI() as server:
        embedder = OpenAIEmbedder(
            _client(server), model="text-embedding-3-small", dimensions=64, batch_size=2
        )
        texts = [
            "records kept seven years",
            "records kept seven years",
            "liquidity stress",
            "board duties",
            "x",
        ]
        vectors = await _in_thread(embedder, texts)
    assert vectors.shape == (5, 64)
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0)
    assert float(vectors[0] @ vectors[1]) == pytest.approx(1.0)
    assert float(vectors[0] @ vectors[2]) < 0.5
    assert [len(r.body["input"]) for r in server.embedding_requests] == [2, 2, 1]
    assert all(r.body["dimensions"] == 64 for r in server.embedding_requests)


async def test_rate_limit_and_server_errors_are_retried() -> None:
    async with ScriptedOpenAI() as server:
        server.fail_embeddings(Reply.failure(429, retry_after=0.1), Reply.failure(500))
        embedder = OpenAIEmbedder(_client(server), model="text-embedding-3-small", dimensions=32)
        vectors = await _in_thread(embedder, ["one text"])
    assert vectors.shape == (1, 32)
    assert len(server.embedding_requests) == 3


async def test_persistent_failure_raises_after_the_retries() -> None:
    async with ScriptedOpenAI() as server:
        server.fail_embeddings(*[Reply.failure(503)] * 3)
        embedder = OpenAIEmbedder(_client(server, retries=1), model="text-embedding-3-small", dimensions=32)
        with pytest.raises(openai.APIStatusError):
            await _in_thread(embedder, ["one text"])
    assert len(server.embedding_requests) == 2


def test_unknown_model_needs_its_size() -> None:
    with pytest.raises(ValueError, match="EMBEDDING_DIMENSIONS"):
        OpenAIEmbedder(openai.OpenAI(api_key="k"), model="my-embedder")


def test_settings_choose_the_embedder() -> None:
    offline = embedder_from_settings(Settings(_env_file=None, openai_api_key=None, openai_base_url=None))
    assert isinstance(offline, MiniLMEmbedder)
    no_model = Settings(_env_file=None, openai_base_url="http://127.0.0.1:9/v1", embedding_model=None)
    assert isinstance(embedder_from_settings(no_model), MiniLMEmbedder)
    chosen = embedder_from_settings(
        Settings(
            _env_file=None, openai_base_url="http://127.0.0.1:9/v1", embedding_model="text-embedding-3-small"
        )
    )
    assert isinstance(chosen, OpenAIEmbedder)
    assert (chosen.model_id, chosen.dimension) == ("text-embedding-3-small", 1536)


async def test_a_collection_of_the_offline_model_refuses_openai_vectors(
    tmp_path: Path, embedder: MiniLMEmbedder
) -> None:
    offline = embedder
    index = ChunkIndex(
        open_qdrant(None, path=tmp_path / "q"), model_id=offline.model_id, dimension=offline.dimension
    )
    await index.ensure_collection()
    await index.aclose()
    other = ChunkIndex(
        open_qdrant(None, path=tmp_path / "q"), model_id="text-embedding-3-small", dimension=1536
    )
    with pytest.raises(EmbeddingModelMismatch):
        await other.ensure_collection()
    await other.aclose()


async def _in_thread(embedder: OpenAIEmbedder, texts: list[str]) -> npt.NDArray[np.float32]:
    # The SDK client is synchronous: workers call embedders in a thread, and so does the test.
    return await asyncio.to_thread(embedder.embed, texts)
