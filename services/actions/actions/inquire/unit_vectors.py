"""Vectors of the units of chunks, kept across requests so a chunk seen before costs no embedding."""

from collections import OrderedDict
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from actions.sentences import embed_texts
from policypal.embeddings import Embedder

#: Units remembered (384 float32 each with MiniLM: about 15 MB), the least recently used go first.
CAPACITY = 10_000


class UnitVectors:
    """An LRU cache of unit vectors by embedding model and text, filled through ``embed_texts``."""

    def __init__(self, capacity: int = CAPACITY) -> None:
        self._capacity = capacity
        self._vectors: OrderedDict[tuple[str, str], npt.NDArray[np.float32]] = OrderedDict()

    async def embed(self, embedder: Embedder, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        """One L2-normalised row per text; only texts not seen before are embedded."""
        keys = [(embedder.model_id, text) for text in texts]
        missing = list(dict.fromkeys(key for key in keys if key not in self._vectors))
        if missing:
            vectors = await embed_texts(embedder, [text for _, text in missing])
            for key, vector in zip(missing, vectors, strict=True):
                self._vectors[key] = vector
        rows = []
        for key in keys:
            self._vectors.move_to_end(key)
            rows.append(self._vectors[key])
        while len(self._vectors) > self._capacity:
            self._vectors.popitem(last=False)
        return np.vstack(rows) if rows else np.zeros((0, embedder.dimension), dtype=np.float32)
