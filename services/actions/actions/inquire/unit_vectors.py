"""Vectors of the units of chunks: kept in memory across requests, read from the index when they were
prepared ahead (``unit_preparation``), embedded only when neither has them, and then kept in both."""

from collections import OrderedDict
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from actions.sentences import embed_texts
from policypal.embeddings import Embedder
from policypal.vectorstore import ChunkPlace, UnitIndex, UnitVector, unit_key

#: Units remembered (384 float32 each with MiniLM: about 15 MB), the least recently used go first.
CAPACITY = 10_000


class UnitVectors:
    """An LRU cache of unit vectors by embedding model and text, filled from the index or by embedding."""

    def __init__(self, capacity: int = CAPACITY) -> None:
        self._capacity = capacity
        self._vectors: OrderedDict[tuple[str, str], npt.NDArray[np.float32]] = OrderedDict()

    async def embed(
        self,
        embedder: Embedder,
        wanted: Sequence[tuple[ChunkPlace, str]],
        *,
        stored: UnitIndex | None = None,
    ) -> npt.NDArray[np.float32]:
        """One L2-normalised row per (chunk, unit text) of ``wanted``, in order.

        A text not in memory is read from ``stored`` when its tenant kept a vector of it; the rest
        are embedded, then kept in ``stored`` (for their chunks) for the next question that meets them.
        """
        keys = [(embedder.model_id, text) for _, text in wanted]
        missing = {
            key: place for key, (place, _) in zip(keys, wanted, strict=True) if key not in self._vectors
        }
        if missing and stored is not None:
            for key, vector in (await _read(stored, missing)).items():
                self._vectors[key] = vector
                del missing[key]
        if missing:
            vectors = await embed_texts(embedder, [text for _, text in missing])
            for key, vector in zip(missing, vectors, strict=True):
                self._vectors[key] = vector
            if stored is not None:
                await stored.store(
                    [
                        UnitVector.of(place, text, vector.tolist())
                        for ((_, text), place), vector in zip(missing.items(), vectors, strict=True)
                    ]
                )
        rows = []
        for key in keys:
            self._vectors.move_to_end(key)
            rows.append(self._vectors[key])
        while len(self._vectors) > self._capacity:
            self._vectors.popitem(last=False)
        return np.vstack(rows) if rows else np.zeros((0, embedder.dimension), dtype=np.float32)


async def _read(
    stored: UnitIndex, missing: dict[tuple[str, str], ChunkPlace]
) -> dict[tuple[str, str], npt.NDArray[np.float32]]:
    """The vectors ``stored`` keeps of the missing texts, each looked up within its chunk's tenant."""
    by_tenant: dict[str, dict[str, tuple[str, str]]] = {}
    for (model_id, text), place in missing.items():
        by_tenant.setdefault(place.tenant_id, {})[unit_key(text)] = (model_id, text)
    found: dict[tuple[str, str], npt.NDArray[np.float32]] = {}
    for tenant_id, wanted in by_tenant.items():
        for key, vector in (await stored.vectors(tenant_id=tenant_id, keys=list(wanted))).items():
            found[wanted[key]] = np.asarray(vector, dtype=np.float32)
    return found
