"""Qdrant adapter for chunk vectors: local (embedded) mode or a Qdrant server, one API."""

from policypal.vectorstore.chunk_index import (
    ChunkHit,
    ChunkIndex,
    ChunkPoint,
    EmbeddingModelMismatch,
    open_chunk_index,
    open_qdrant,
    sparse_vectors,
)
from policypal.vectorstore.chunk_place import ChunkPlace
from policypal.vectorstore.local_owner import UnownedLocalIndexError, require_index_owner
from policypal.vectorstore.rule_index import RuleIndex, RulePoint, StoredRule

__all__ = [
    "ChunkHit",
    "ChunkIndex",
    "ChunkPlace",
    "ChunkPoint",
    "EmbeddingModelMismatch",
    "RuleIndex",
    "RulePoint",
    "StoredRule",
    "UnownedLocalIndexError",
    "open_chunk_index",
    "open_qdrant",
    "require_index_owner",
    "sparse_vectors",
]
