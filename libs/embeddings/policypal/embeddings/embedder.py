"""What every embedder offers."""

from typing import Protocol

import numpy as np
import numpy.typing as npt


class Embedder(Protocol):
    """Turns texts into L2-normalised vectors of a fixed dimension."""

    @property
    def model_id(self) -> str:
        """Stable name of the model; vectors of different models are never mixed."""
        ...

    @property
    def dimension(self) -> int:
        """Length of every vector."""
        ...

    def embed(self, texts: list[str]) -> npt.NDArray[np.float32]:
        """One row per text, L2-normalised. CPU-bound: call it from a worker thread in async code."""
        ...
