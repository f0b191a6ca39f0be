"""Moving an index written by local-mode qdrant-client to the embedded engine, once, on first start.

Earlier releases kept the embedded index in local-mode Qdrant (``meta.json`` and ``collection/`` in
the index directory). On the first start after the upgrade every collection is copied, points with
their ids, vectors and payloads, into a Qdrant Edge store beside it; only when every count matches
does the new store take the directory's place and the old files go
(docs/adr/0013-embedded-vector-engine.md). A crash at any step leaves the old index readable, and the
next start begins again.
"""

import logging
import os
import shutil
import time
from dataclasses import replace
from pathlib import Path

from qdrant_client import AsyncQdrantClient, models

from policypal.vectorstore.chunk_index import COLLECTION, SPARSE_VECTOR, chunk_collection
from policypal.vectorstore.edge_store import EdgeStore, is_edge_store
from policypal.vectorstore.point_store import DENSE_VECTOR, Scope, StoredPoint
from policypal.vectorstore.rule_index import RULES_COLLECTION, rule_collection
from policypal.vectorstore.unit_index import UNITS_COLLECTION, unit_collection

logger = logging.getLogger(__name__)

_PAGE = 512


class MigrationError(RuntimeError):
    """The copy did not come out whole; the local-mode index was left as it was."""


def is_local_mode(path: Path) -> bool:
    """True when ``path`` holds an index written by local-mode qdrant-client."""
    return (path / "meta.json").is_file() and (path / "collection").is_dir() and not is_edge_store(path)


async def migrate_local_mode(path: Path) -> bool:
    """Turn a local-mode index at ``path`` into an embedded-engine one; False when there is none.

    The copy is built in ``<path>.edge-migrating``; the old index is set aside as ``<path>.local-mode``
    for the swap and removed after it. An index set aside by a start that crashed mid-swap is found
    there and migrated again.
    """
    source = _local_mode_source(path)
    if source is None:
        return False
    started = time.perf_counter()
    staging = path.with_name(f"{path.name}.edge-migrating")
    shutil.rmtree(staging, ignore_errors=True)
    try:
        copied = await _copy(source, staging)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    _swap_in(staging, path)
    logger.info(
        "moved the embedded index at %s from local-mode Qdrant to Qdrant Edge: %s points in %.1f s",
        path,
        copied,
        time.perf_counter() - started,
    )
    return True


def _retired(path: Path) -> Path:
    return path.with_name(f"{path.name}.local-mode")


def _local_mode_source(path: Path) -> Path | None:
    """The local-mode index to migrate: ``path``, or the one a crashed swap set aside."""
    if is_local_mode(path):
        return path
    if is_local_mode(_retired(path)) and not (path.exists() and any(path.iterdir())):
        return _retired(path)
    return None


def _swap_in(staging: Path, path: Path) -> None:
    """Put the finished copy at ``path``; the local-mode index goes only once the copy is in place."""
    retired = _retired(path)
    if is_local_mode(path):
        shutil.rmtree(retired, ignore_errors=True)
        os.rename(path, retired)
    elif path.exists():
        path.rmdir()  # empty, as _local_mode_source checked
    os.rename(staging, path)
    shutil.rmtree(retired)


async def _copy(source: Path, target: Path) -> dict[str, int]:
    """Copy every collection of the local-mode index at ``source`` into a new Edge store at ``target``."""
    old = AsyncQdrantClient(path=str(source))
    new = EdgeStore(target)
    copied: dict[str, int] = {}
    try:
        for collection in (await old.get_collections()).collections:
            copied[collection.name] = await _copy_collection(old, new, collection.name)
    finally:
        await new.close()
        await old.close()
    return copied


async def _copy_collection(old: AsyncQdrantClient, new: EdgeStore, name: str) -> int:
    info = await old.get_collection(name)
    vectors = info.config.params.vectors
    if not isinstance(vectors, models.VectorParams):
        raise MigrationError(f"collection {name!r} has named dense vectors; this index never wrote such")
    metadata = dict(info.config.metadata or {})
    sparse_names = list(info.config.params.sparse_vectors or {})
    if name == COLLECTION:
        spec = chunk_collection(model_id="", dimension=vectors.size, hybrid=SPARSE_VECTOR in sparse_names)
    elif name == RULES_COLLECTION:
        spec = rule_collection(model_id="", dimension=vectors.size)
    elif name == UNITS_COLLECTION:
        spec = unit_collection(model_id="", dimension=vectors.size)
    else:
        raise MigrationError(f"collection {name!r} is none of this index's; move it by hand")
    # The metadata as recorded, so the model check sees exactly what local mode held.
    await new.create(replace(spec, metadata=metadata))
    written = 0
    offset: models.ExtendedPointId | None = None
    while True:
        records, offset = await old.scroll(
            name, limit=_PAGE, offset=offset, with_payload=True, with_vectors=True
        )
        await new.upsert(name, [_stored(record) for record in records])
        written += len(records)
        if offset is None:
            break
    expected = (await old.count(name, exact=True)).count
    if written != expected or await new.count(name, Scope()) != expected:
        raise MigrationError(f"collection {name!r}: {expected} points in local mode, copy incomplete")
    return written


def _stored(record: models.Record) -> StoredPoint:
    vector = record.vector
    named = vector if isinstance(vector, dict) else {DENSE_VECTOR: vector}
    dense = named.get(DENSE_VECTOR)
    items: list[object] = list(dense) if isinstance(dense, list) else []
    values = [float(x) for x in items if isinstance(x, float | int)]
    if not values or len(values) != len(items):
        raise MigrationError(f"point {record.id} has no single dense vector")
    return StoredPoint(
        id=record.id if isinstance(record.id, int) else str(record.id),
        dense=values,
        payload=dict(record.payload or {}),
        sparse={k: v for k, v in named.items() if isinstance(v, models.SparseVector)},
    )
