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

        A text not in memory is read from ``stored`` when a vector of it was kept for its chunk;
        the rest are embedded, then kept in ``stored`` for the next question that meets them.
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
                        _unit_vector(place, text, vector)
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
    """The vectors ``stored`` keeps of the missing texts, each looked up in its own chunk."""
    found: dict[tuple[str, str], npt.NDArray[np.float32]] = {}
    by_tenant: dict[str, list[str]] = {}
    for place in missing.values():
        by_tenant.setdefault(place.tenant_id, []).append(place.chunk_id)
    kept = {
        (tenant_id, chunk_id, key): vector
        for tenant_id, chunk_ids in by_tenant.items()
        for (chunk_id, key), vector in (
            await stored.vectors(tenant_id=tenant_id, chunk_ids=chunk_ids)
        ).items()
    }
    for (model_id, text), place in missing.items():
        vector = kept.get((place.tenant_id, place.chunk_id, unit_key(text)))
        if vector is not None:
            found[(model_id, text)] = np.asarray(vector, dtype=np.float32)
    return found


def _unit_vector(place: ChunkPlace, text: str, vector: npt.NDArray[np.float32]) -> UnitVector:
    return UnitVector(
        tenant_id=place.tenant_id,
        user_id=place.user_id,
        document_id=place.document_id,
        chunk_index=place.chunk_index,
        key=unit_key(text),
        vector=vector.tolist(),
    )
