"""Embeddings from OpenAI (or any OpenAI-compatible server) when configured.

Batched; retries with back-off on 429, 5xx and timeouts are the SDK's own (``max_retries``). Vectors
are L2-normalised so scores compare with the offline model's (cosine). The collection records the
model, so vectors of two models are never mixed (``ChunkIndex.ensure_collection``).
"""

import numpy as np
import numpy.typing as npt
import openai

#: Output sizes of OpenAI's embedding models (without the ``dimensions`` parameter).
KNOWN_DIMENSIONS = {
    "text-embedding-3-small": 1536,
    "text-embedding-3-large": 3072,
    "text-embedding-ada-002": 1536,
}


class OpenAIEmbedder:
    """Calls ``/v1/embeddings``; thread-safe (meant to run in a worker thread like every embedder)."""

    def __init__(
        self, client: openai.OpenAI, *, model: str, dimensions: int | None = None, batch_size: int = 128
    ) -> None:
        size = dimensions or KNOWN_DIMENSIONS.get(model)
        if size is None:
            raise ValueError(f"unknown size of embedding model {model!r}: set POLICYPAL_EMBEDDING_DIMENSIONS")
        self._client = client
        self._model = model
        self._dimension = size
        # Only the text-embedding-3 family accepts a requested size; others give their native one.
        self._request_dimensions = dimensions if dimensions and model.startswith("text-embedding-3") else None
        self._batch_size = batch_size

    @property
    def model_id(self) -> str:
        """The model name, recorded with the collection."""
        return self._model

    @property
    def dimension(self) -> int:
        """Length of every vector."""
        return self._dimension

    def embed(self, texts: list[str]) -> npt.NDArray[np.float32]:
        """One L2-normalised row per text, in order."""
        rows: list[list[float]] = []
        for start in range(0, len(texts), self._batch_size):
            batch = texts[start : start + self._batch_size]
            if self._request_dimensions is not None:
                response = self._client.embeddings.create(
                    model=self._model, input=batch, dimensions=self._request_dimensions
                )
            else:
                response = self._client.embeddings.create(model=self._model, input=batch)
            ordered = sorted(response.data, key=lambda item: item.index)
            rows.extend(item.embedding for item in ordered)
        vectors = np.asarray(rows, dtype=np.float32).reshape(len(rows), self._dimension)
        norms = np.linalg.norm(vectors, axis=1, keepdims=True)
        result: npt.NDArray[np.float32] = vectors / np.clip(norms, 1e-12, None)
        return result
