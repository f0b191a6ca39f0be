"""What the chunk and rule indexes need from a vector engine, independent of which engine it is.

Two engines implement ``PointStore``: a Qdrant server or local-mode Qdrant through qdrant-client
(``QdrantClientStore``), and Qdrant Edge embedded in the process (``EdgeStore``), the embedded default
(docs/adr/0013-embedded-vector-engine.md). Both are given the same neutral scopes and points, so the
indexes above them behave alike whichever engine holds the data.
"""

from dataclasses import dataclass, field
from typing import Any, Protocol

from qdrant_client import models

#: The name of the unnamed (default) dense vector of every collection.
DENSE_VECTOR = ""


@dataclass(frozen=True)
class Scope:
    """Which points an operation touches: every condition must hold (a conjunction).

    ``equals``: a payload field has this value; ``one_of``: a field has one of these values;
    ``at_least``: an integer field is at least this; ``at_most``: at most this.
    """

    equals: dict[str, str] = field(default_factory=dict)
    one_of: dict[str, list[str]] = field(default_factory=dict)
    at_least: dict[str, int] = field(default_factory=dict)
    at_most: dict[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class CollectionSpec:
    """A collection to create: one dense cosine vector, optionally a sparse IDF vector, indexed fields."""

    name: str
    dimension: int
    metadata: dict[str, Any]
    sparse_vector: str | None = None
    keyword_fields: tuple[str, ...] = ()
    integer_fields: tuple[str, ...] = ()
    #: Read a few points at a time, never searched by vector: vectors, payload and ids stay on disk
    #: (the page cache holds what is read) instead of in the process's memory.
    on_disk: bool = False


@dataclass(frozen=True)
class CollectionState:
    """An existing collection as the engine reports it."""

    dimension: int | None
    metadata: dict[str, Any]
    sparse_vectors: tuple[str, ...]


@dataclass(frozen=True)
class StoredPoint:
    """A point to write: its id (a UUID string or an integer), dense vector, sparse vectors, payload."""

    id: str | int
    dense: list[float]
    payload: dict[str, Any]
    sparse: dict[str, models.SparseVector] = field(default_factory=dict)


@dataclass(frozen=True)
class FoundPoint:
    """A point read back: payload, score (0 for a scroll) and dense vector when asked for."""

    payload: dict[str, Any]
    score: float = 0.0
    dense: list[float] | None = None


class PointStore(Protocol):
    """The operations the indexes use; every read and delete is limited by a ``Scope``."""

    async def describe(self, collection: str) -> CollectionState | None:
        """The collection's configuration, or None when it does not exist."""
        ...

    async def create(self, spec: CollectionSpec) -> None:
        """Create the collection with its payload indexes."""
        ...

    async def upsert(self, collection: str, points: list[StoredPoint]) -> None:
        """Write points; an existing id is overwritten. Returns once they are searchable."""
        ...

    async def nearest(
        self, collection: str, vector: list[float], scope: Scope, limit: int
    ) -> list[FoundPoint]:
        """The ``limit`` points in ``scope`` nearest to ``vector`` (cosine), best first."""
        ...

    async def dense_and_keywords(
        self,
        collection: str,
        vector: list[float],
        keywords: tuple[str, models.SparseVector],
        scope: Scope,
        limit: int,
    ) -> tuple[list[FoundPoint], list[FoundPoint]]:
        """The dense and the sparse search in ``scope``, each best first, in one request, dense vectors included.

        ``keywords`` names the sparse vector and gives the query; IDF is measured over ``scope``. The
        caller fuses the two (``rank_fusion``), so that fusion and its ties are the same on every engine.
        """
        ...

    async def scroll(self, collection: str, scope: Scope, *, with_vectors: bool) -> list[FoundPoint]:
        """Every point in ``scope`` (read in pages), in no particular order."""
        ...

    async def count(self, collection: str, scope: Scope) -> int:
        """How many points are in ``scope`` (exact)."""
        ...

    async def delete(self, collection: str, scope: Scope) -> None:
        """Remove every point in ``scope``."""
        ...

    async def close(self) -> None:
        """Release the engine (an embedded one releases its directory)."""
        ...
