"""``PointStore`` on Qdrant Edge: Qdrant's engine embedded in the process, the embedded default.

One directory holds one Edge shard per collection (``<root>/<collection>/``) and ``collections.json``
with what a shard does not record itself (the embedding model a collection was made with). Unlike
local-mode qdrant-client, Edge uses payload indexes and scores in native code, so a filtered hybrid
search costs milliseconds at tens of thousands of points (docs/adr/0013-embedded-vector-engine.md).

Edge calls block; they run on one thread of their own, in order, so the event loop never waits on a
search and no two calls touch a shard at once. Like local mode, one process opens a directory.
"""

import asyncio
import json
import os
import shutil
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

import qdrant_edge as edge
from qdrant_client import models

from policypal.vectorstore.point_store import (
    DENSE_VECTOR,
    CollectionSpec,
    CollectionState,
    FoundPoint,
    Scope,
    StoredPoint,
)

#: What marks a directory as an Edge store (and records each collection's model and vectors).
MANIFEST = "collections.json"
_PAGE = 512
_T = TypeVar("_T")


class EdgeStore:
    """The point store of Qdrant Edge shards under one directory."""

    def __init__(self, root: Path) -> None:
        root.mkdir(parents=True, exist_ok=True)
        self.root = root
        self._manifest_path = root / MANIFEST
        self._manifest: dict[str, dict[str, Any]] = (
            json.loads(self._manifest_path.read_text()) if self._manifest_path.exists() else {}
        )
        if not self._manifest_path.exists():
            self._write_manifest()
        self._shards: dict[str, edge.EdgeShard] = {}
        self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="qdrant-edge")
        self._closed = False

    async def describe(self, collection: str) -> CollectionState | None:
        """The collection's configuration, or None when it does not exist.

        An existing shard is loaded now, when the index opens (a worker's start), not by the first
        search that needs it: a user's first question paid 0.3 s for a 38k-point shard, and the load
        holds the interpreter's lock, so the event loop waited with it.
        """
        recorded = self._manifest.get(collection)
        if recorded is None or not (self.root / collection).is_dir():
            return None
        await self._run(partial(self._shard, collection))
        return CollectionState(
            dimension=recorded["dimension"],
            metadata=recorded["metadata"],
            sparse_vectors=tuple(recorded["sparse_vectors"]),
        )

    async def create(self, spec: CollectionSpec) -> None:
        """Create the shard with its payload indexes, then record it in the manifest."""
        await self._run(partial(self._create, spec))
        self._manifest[spec.name] = {
            "dimension": spec.dimension,
            "metadata": spec.metadata,
            "sparse_vectors": [spec.sparse_vector] if spec.sparse_vector else [],
        }
        self._write_manifest()

    def _create(self, spec: CollectionSpec) -> None:
        sparse = (
            {spec.sparse_vector: edge.EdgeSparseVectorParams(modifier=edge.Modifier.Idf)}
            if spec.sparse_vector
            else None
        )
        cold = edge.Memory.Cold if spec.on_disk else None
        config = edge.EdgeConfig(
            vectors=edge.EdgeVectorParams(size=spec.dimension, distance=edge.Distance.Cosine, memory=cold),
            sparse_vectors=sparse,
            payload_memory=cold,
            id_tracker_memory=cold,
        )
        # A shard the manifest does not name was cut short while being created: start it again.
        shutil.rmtree(self.root / spec.name, ignore_errors=True)
        shard = edge.EdgeShard.create(str(self.root / spec.name), config)
        for name in spec.keyword_fields:
            shard.update(edge.UpdateOperation.create_field_index(name, edge.PayloadSchemaType.Keyword))
        for name in spec.integer_fields:
            shard.update(edge.UpdateOperation.create_field_index(name, edge.PayloadSchemaType.Integer))
        self._shards[spec.name] = shard

    async def upsert(self, collection: str, points: list[StoredPoint]) -> None:
        """Write points; Edge applies an update before it returns, so they are searchable at once."""
        edge_points = [
            edge.Point(
                point.id,
                {DENSE_VECTOR: point.dense, **{n: _edge_sparse(v) for n, v in point.sparse.items()}},
                point.payload,
            )
            for point in points
        ]
        await self._run(
            lambda: self._shard(collection).update(edge.UpdateOperation.upsert_points(edge_points))
        )

    async def nearest(
        self, collection: str, vector: list[float], scope: Scope, limit: int
    ) -> list[FoundPoint]:
        """The ``limit`` points in ``scope`` nearest to ``vector``."""
        request = edge.QueryRequest(
            limit=limit, query=edge.Query.Nearest(vector), filter=edge_filter(scope), with_payload=True
        )
        points = await self._run(lambda: self._shard(collection).query(request))
        return [FoundPoint(payload=dict(p.payload or {}), score=p.score) for p in points]

    async def dense_and_keywords(
        self,
        collection: str,
        vector: list[float],
        keywords: tuple[str, models.SparseVector],
        scope: Scope,
        limit: int,
    ) -> tuple[list[FoundPoint], list[FoundPoint]]:
        """The dense and the sparse search as one planned batch; IDF over ``scope``."""
        where = edge_filter(scope)
        using, sparse = keywords
        batch = edge.QueryBatchRequest(
            [
                edge.QueryRequest(
                    limit=limit,
                    query=edge.Query.Nearest(vector),
                    filter=where,
                    with_payload=True,
                    with_vector=[DENSE_VECTOR],
                ),
                edge.QueryRequest(
                    limit=limit,
                    query=edge.Query.Nearest(_edge_sparse(sparse), using=using),
                    filter=where,
                    params=edge.SearchParams(idf=edge.IdfParams(corpus=where)),
                    with_payload=True,
                    with_vector=[DENSE_VECTOR],
                ),
            ]
        )
        dense, keyword = await self._run(lambda: self._shard(collection).query_batch(batch))
        return _found(dense), _found(keyword)

    async def scroll(self, collection: str, scope: Scope, *, with_vectors: bool) -> list[FoundPoint]:
        """Every point in ``scope``, read a page at a time."""
        where = edge_filter(scope)
        found: list[FoundPoint] = []
        offset: Any = None
        while True:
            request = edge.ScrollRequest(
                offset=offset,
                limit=_PAGE,
                filter=where,
                with_payload=True,
                with_vector=[DENSE_VECTOR] if with_vectors else False,
            )
            records, offset = await self._run(partial(self._scroll_page, collection, request))
            found.extend(
                FoundPoint(payload=dict(r.payload or {}), dense=_dense(r.vector) if with_vectors else None)
                for r in records
            )
            if offset is None:
                return found

    async def count(self, collection: str, scope: Scope) -> int:
        """How many points are in ``scope``."""
        request = edge.CountRequest(exact=True, filter=edge_filter(scope))
        return await self._run(lambda: self._shard(collection).count(request))

    async def delete(self, collection: str, scope: Scope) -> None:
        """Remove every point in ``scope``."""
        operation = edge.UpdateOperation.delete_points_by_filter(edge_filter(scope))
        await self._run(lambda: self._shard(collection).update(operation))

    async def close(self) -> None:
        """Flush and close every shard, releasing the directory (a second call does nothing)."""
        if self._closed:
            return
        self._closed = True
        await self._run(self._close_shards)
        self._thread.shutdown(wait=True)

    def _close_shards(self) -> None:
        for shard in self._shards.values():
            shard.flush()
            shard.close()
        self._shards.clear()

    def _scroll_page(self, collection: str, request: edge.ScrollRequest) -> tuple[list[edge.Record], Any]:
        return self._shard(collection).scroll(request)

    def _shard(self, collection: str) -> edge.EdgeShard:
        shard = self._shards.get(collection)
        if shard is None:
            if collection not in self._manifest:
                raise KeyError(f"collection {collection!r} does not exist in {self.root}")
            shard = self._shards[collection] = edge.EdgeShard.load(str(self.root / collection))
        return shard

    async def _run(self, call: Callable[[], _T]) -> _T:
        return await asyncio.get_running_loop().run_in_executor(self._thread, call)

    def _write_manifest(self) -> None:
        # Written aside and renamed: a crash never leaves half a manifest.
        staged = self._manifest_path.with_suffix(".tmp")
        staged.write_text(json.dumps(self._manifest, indent=2, sort_keys=True))
        os.replace(staged, self._manifest_path)


def _found(points: list[edge.ScoredPoint]) -> list[FoundPoint]:
    return [FoundPoint(payload=dict(p.payload or {}), score=p.score, dense=_dense(p.vector)) for p in points]


def is_edge_store(path: Path) -> bool:
    """True when ``path`` holds an Edge store (its manifest)."""
    return (path / MANIFEST).is_file()


def edge_filter(scope: Scope) -> edge.Filter:
    """The Qdrant Edge filter of ``scope``."""
    must: list[Any] = [
        edge.FieldCondition(key, match=edge.MatchValue(value)) for key, value in scope.equals.items()
    ]
    must += [edge.FieldCondition(key, match=edge.MatchAny(values)) for key, values in scope.one_of.items()]
    must += [
        edge.FieldCondition(key, range=edge.RangeFloat(gte=value)) for key, value in scope.at_least.items()
    ]
    must += [
        edge.FieldCondition(key, range=edge.RangeFloat(lte=value)) for key, value in scope.at_most.items()
    ]
    return edge.Filter(must=must)


def _edge_sparse(vector: models.SparseVector) -> edge.SparseVector:
    return edge.SparseVector(list(vector.indices), list(vector.values))


def _dense(vector: Any) -> list[float] | None:
    dense = vector.get(DENSE_VECTOR) if isinstance(vector, dict) else vector
    return list(dense) if isinstance(dense, list) else None
