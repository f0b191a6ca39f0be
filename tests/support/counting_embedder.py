"""The real embedder, counting the texts it is given: tests that prove work is not done twice."""

from collections.abc import Callable

import numpy as np
import numpy.typing as npt

from policypal.embeddings import MiniLMEmbedder


class CountingEmbedder:
    """Embeds with ``embedder`` and records every text; ``before`` runs ahead of each call."""

    def __init__(self, embedder: MiniLMEmbedder, before: Callable[[], None] = lambda: None) -> None:
        self._embedder = embedder
        self._before = before
        self.texts: list[str] = []

    @property
    def model_id(self) -> str:
        return self._embedder.model_id

    @property
    def dimension(self) -> int:
        return self._embedder.dimension

    def embed(self, texts: list[str]) -> npt.NDArray[np.float32]:
        self._before()
        self.texts += texts
        return self._embedder.embed(texts)
