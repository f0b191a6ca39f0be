"""``PointStore`` over qdrant-client: a Qdrant server (``QDRANT_URL``, production) or local-mode Qdrant."""

import warnings
from pathlib import Path
from typing import Any

from qdrant_client import AsyncQdrantClient, models

from policypal.vectorstore.point_store import (
    DENSE_VECTOR,
    CollectionSpec,
    CollectionState,
    FoundPoint,
    Scope,
    StoredPoint,
)

_PAGE = 256


def open_qdrant(
    url: str | None, *, path: Path | None = None, api_key: str | None = None
) -> AsyncQdrantClient:
    """A client of a Qdrant server at ``url``, else of local (embedded) Qdrant under ``path``.

    Local mode is single-process: only one process may open a given ``path``.
    """
    if url:
        return AsyncQdrantClient(url=url, api_key=api_key)
    if path is None:
        return AsyncQdrantClient(location=":memory:")
    path.mkdir(parents=True, exist_ok=True)
    return AsyncQdrantClient(path=str(path))


class QdrantClientStore:
    """The point store of a qdrant-client (server or local mode)."""

    def __init__(self, client: AsyncQdrantClient) -> None:
        self.client = client

    async def describe(self, collection: str) -> CollectionState | None:
        """The collection's configuration, or None when it does not exist."""
        if not await self.client.collection_exists(collection):
            return None
        info = await self.client.get_collection(collection)
        vectors = info.config.params.vectors
        return CollectionState(
            dimension=vectors.size if isinstance(vectors, models.VectorParams) else None,
            metadata=dict(info.config.metadata or {}),
            sparse_vectors=tuple(info.config.params.sparse_vectors or {}),
        )

    async def create(self, spec: CollectionSpec) -> None:
        """Create the collection with its payload indexes (a server needs them for filtered search)."""
        sparse = (
            {spec.sparse_vector: models.SparseVectorParams(modifier=models.Modifier.IDF)}
            if spec.sparse_vector
            else None
        )
        await self.client.create_collection(
            spec.name,
            vectors_config=models.VectorParams(
                size=spec.dimension, distance=models.Distance.COSINE, on_disk=spec.on_disk or None
            ),
            sparse_vectors_config=sparse,
            on_disk_payload=spec.on_disk or None,
            metadata=spec.metadata,
        )
        # Local mode ignores payload indexes and warns; say nothing about it.
        with warnings.catch_warnings():
            warnings.filterwarnings("ignore", message="Payload indexes have no effect in the local Qdrant")
            for name in spec.keyword_fields:
                await self.client.create_payload_index(spec.name, name, models.PayloadSchemaType.KEYWORD)

    async def upsert(self, collection: str, points: list[StoredPoint]) -> None:
        """Write points and wait until they are searchable."""
        structs = [
            models.PointStruct(
                id=point.id,
                vector={DENSE_VECTOR: point.dense, **point.sparse} if point.sparse else point.dense,
                payload=point.payload,
            )
            for point in points
        ]
        await self.client.upsert(collection, points=structs, wait=True)

    async def nearest(
        self, collection: str, vector: list[float], scope: Scope, limit: int
    ) -> list[FoundPoint]:
        """The ``limit`` points in ``scope`` nearest to ``vector``."""
        response = await self.client.query_points(
            collection, query=vector, query_filter=qdrant_filter(scope), limit=limit, with_payload=True
        )
        return [FoundPoint(payload=p.payload or {}, score=p.score) for p in response.points]

    async def dense_and_keywords(
        self,
        collection: str,
        vector: list[float],
        keywords: tuple[str, models.SparseVector],
        scope: Scope,
        limit: int,
    ) -> tuple[list[FoundPoint], list[FoundPoint]]:
        """The dense and the sparse search in one batch; IDF over ``scope``."""
        where = qdrant_filter(scope)
        using, sparse = keywords
        common = {"filter": where, "limit": limit, "with_payload": True, "with_vector": True}
        dense, keyword = await self.client.query_batch_points(
            collection,
            requests=[
                models.QueryRequest(query=vector, **common),
                models.QueryRequest(
                    query=sparse,
                    using=using,
                    params=models.SearchParams(idf=models.IdfCorpusParams(corpus=where)),
                    **common,
                ),
            ],
        )
        return _found(dense.points), _found(keyword.points)

    async def scroll(self, collection: str, scope: Scope, *, with_vectors: bool) -> list[FoundPoint]:
        """Every point in ``scope``, read a page at a time."""
        found: list[FoundPoint] = []
        offset: models.ExtendedPointId | None = None
        while True:
            records, offset = await self.client.scroll(
                collection,
                scroll_filter=qdrant_filter(scope),
                limit=_PAGE,
                offset=offset,
                with_payload=True,
                with_vectors=with_vectors,
            )
            found.extend(
                FoundPoint(payload=r.payload or {}, dense=_dense(r.vector) if with_vectors else None)
                for r in records
            )
            if offset is None:
                return found

    async def count(self, collection: str, scope: Scope) -> int:
        """How many points are in ``scope``."""
        result = await self.client.count(collection, count_filter=qdrant_filter(scope), exact=True)
        return result.count

    async def delete(self, collection: str, scope: Scope) -> None:
        """Remove every point in ``scope``."""
        await self.client.delete(
            collection, points_selector=models.FilterSelector(filter=qdrant_filter(scope))
        )

    async def close(self) -> None:
        """Close the client (local mode releases its directory)."""
        await self.client.close()


def _found(points: list[models.ScoredPoint]) -> list[FoundPoint]:
    return [FoundPoint(payload=p.payload or {}, score=p.score, dense=_dense(p.vector)) for p in points]


def qdrant_filter(scope: Scope) -> models.Filter:
    """The qdrant-client filter of ``scope``."""
    must: list[models.Condition] = [
        models.FieldCondition(key=key, match=models.MatchValue(value=value))
        for key, value in scope.equals.items()
    ]
    must += [
        models.FieldCondition(key=key, match=models.MatchAny(any=values))
        for key, values in scope.one_of.items()
    ]
    must += [
        models.FieldCondition(key=key, range=models.Range(gte=value)) for key, value in scope.at_least.items()
    ]
    must += [
        models.FieldCondition(key=key, range=models.Range(lte=value)) for key, value in scope.at_most.items()
    ]
    return models.Filter(must=must)


def _dense(vector: Any) -> list[float] | None:
    dense = vector.get(DENSE_VECTOR) if isinstance(vector, dict) else vector
    return dense if isinstance(dense, list) and (not dense or isinstance(dense[0], float)) else None
