"""The ``units`` collection: the vectors of the sentences (units) of chunks, prepared before questions.

A question's answer is chosen by comparing the sentences of its best candidates with it, and
embedding those sentences was most of an answer's time (docs/benchmarks.md, "Where the time goes").
So the vectors are kept: prepared in the background once a document is ready, and kept again when
a question had to embed a sentence itself (docs/adr/0018-sentence-vectors-prepared-ahead.md).

One point per (chunk, unit text): the dense vector of the text as it is compared, and a payload that
scopes it by tenant, user, document and chunk, plus ``key``, a digest of that text. No text is
stored here: the chunk holds it. Reads filter by tenant and key; deletes by tenant and document, so
a vector stays as long as one chunk of its text does.
"""

import hashlib
import uuid
from dataclasses import dataclass

from policypal.telemetry import service_span
from policypal.vectorstore.chunk_place import ChunkPlace
from policypal.vectorstore.point_store import CollectionSpec, PointStore, Scope, StoredPoint

UNITS_COLLECTION = "units"
_UNIT_NAMESPACE = uuid.UUID("6f1d9a52-0b7e-4c3a-8d21-5e4b9f7c2a10")
_WRITE_BATCH = 256
_READ_BATCH = 512


def unit_key(text: str) -> str:
    """The digest a unit's compared text is stored and found under."""
    return hashlib.blake2b(text.encode(), digest_size=16).hexdigest()


@dataclass(frozen=True)
class UnitVector:
    """The vector of one unit text of one chunk, and where it belongs."""

    tenant_id: str
    user_id: str
    document_id: str
    chunk_index: int
    key: str
    vector: list[float]

    @classmethod
    def of(cls, place: ChunkPlace, text: str, vector: list[float]) -> "UnitVector":
        """The vector of the unit ``text`` of the chunk at ``place``."""
        return cls(
            tenant_id=place.tenant_id,
            user_id=place.user_id,
            document_id=place.document_id,
            chunk_index=place.chunk_index,
            key=unit_key(text),
            vector=vector,
        )

    @property
    def chunk_id(self) -> str:
        """The chunk's id, as ``ChunkPlace.chunk_id``."""
        return f"{self.document_id}:{self.chunk_index}"


def unit_collection(*, model_id: str, dimension: int) -> CollectionSpec:
    """The ``units`` collection of an embedding model (dense vectors only)."""
    return CollectionSpec(
        name=UNITS_COLLECTION,
        dimension=dimension,
        metadata={"embedding_model": model_id, "dimension": dimension},
        keyword_fields=("tenant_id", "document_id", "key"),
        integer_fields=("chunk_index",),
        # Read ~50 points a question and never searched by vector: kept out of the process's memory
        # (at 55k points ~110 MB of RSS instead of ~205 MB; docs/benchmarks.md).
        on_disk=True,
    )


class UnitIndex:
    """Writes and reads unit vectors of one embedding model (the chunks' check guards model and size)."""

    def __init__(self, store: PointStore, *, model_id: str, dimension: int) -> None:
        self._store = store
        self._model_id = model_id
        self._dimension = dimension

    async def ensure_collection(self) -> None:
        """Create the collection when missing: an index made before it gains it, empty."""
        if await self._store.describe(UNITS_COLLECTION) is None:
            await self._store.create(unit_collection(model_id=self._model_id, dimension=self._dimension))

    async def store(self, units: list[UnitVector]) -> None:
        """Keep ``units``; the same text of the same chunk overwrites its earlier vector."""
        points = [
            StoredPoint(
                id=str(uuid.uuid5(_UNIT_NAMESPACE, f"{unit.tenant_id}/{unit.chunk_id}/{unit.key}")),
                dense=unit.vector,
                payload={
                    "tenant_id": unit.tenant_id,
                    "user_id": unit.user_id,
                    "document_id": unit.document_id,
                    "chunk_index": unit.chunk_index,
                    "chunk_id": unit.chunk_id,
                    "key": unit.key,
                },
            )
            for unit in units
        ]
        for start in range(0, len(points), _WRITE_BATCH):
            await self._store.upsert(UNITS_COLLECTION, points[start : start + _WRITE_BATCH])

    async def vectors(self, *, tenant_id: str, keys: list[str]) -> dict[str, list[float]]:
        """The tenant's stored vector of each of these unit texts (by key) that any of its chunks has.

        The same sentence in two chunks (a chunk's overlap with the next, a document's new version)
        has one vector: it is looked up by text within the tenant, wherever it was kept.
        """
        wanted = sorted(set(keys))
        vectors: dict[str, list[float]] = {}
        with service_span("units.read", {"policypal.units": len(wanted)}):
            for start in range(0, len(wanted), _READ_BATCH):
                scope = Scope(
                    equals={"tenant_id": tenant_id}, one_of={"key": wanted[start : start + _READ_BATCH]}
                )
                for point in await self._store.scroll(UNITS_COLLECTION, scope, with_vectors=True):
                    if point.dense is not None:
                        vectors[str(point.payload["key"])] = point.dense
        return vectors

    async def document_keys(self, *, tenant_id: str, document_id: str) -> set[tuple[str, str]]:
        """The (chunk id, unit key) of every vector stored for one document of the tenant."""
        scope = Scope(equals={"tenant_id": tenant_id, "document_id": document_id})
        found = await self._store.scroll(UNITS_COLLECTION, scope, with_vectors=False)
        return {(str(point.payload["chunk_id"]), str(point.payload["key"])) for point in found}

    async def delete_chunks_from(self, *, tenant_id: str, document_id: str, first_index: int) -> None:
        """Remove the vectors of a document's chunks with index >= ``first_index``."""
        scope = Scope(
            equals={"tenant_id": tenant_id, "document_id": document_id}, at_least={"chunk_index": first_index}
        )
        await self._store.delete(UNITS_COLLECTION, scope)

    async def delete_document(self, *, tenant_id: str, document_id: str) -> None:
        """Remove every unit vector of a document."""
        await self._store.delete(
            UNITS_COLLECTION, Scope(equals={"tenant_id": tenant_id, "document_id": document_id})
        )
