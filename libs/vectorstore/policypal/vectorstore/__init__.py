"""Chunk and rule vectors in Qdrant: a Qdrant server, or the embedded engine (Qdrant Edge), one API."""

from policypal.vectorstore.chunk_index import (
    ChunkHit,
    ChunkIndex,
    ChunkPoint,
    EmbeddingModelMismatch,
    sparse_vectors,
)
from policypal.vectorstore.chunk_place import ChunkPlace
from policypal.vectorstore.index_opening import open_chunk_index, open_embedded_index
from policypal.vectorstore.local_owner import UnownedLocalIndexError, require_index_owner
from policypal.vectorstore.qdrant_client_store import open_qdrant
from policypal.vectorstore.rule_index import RuleIndex, RulePoint, StoredRule
from policypal.vectorstore.unit_index import UnitIndex, UnitVector, unit_key

__all__ = [
    "ChunkHit",
    "ChunkIndex",
    "ChunkPlace",
    "ChunkPoint",
    "EmbeddingModelMismatch",
    "RuleIndex",
    "RulePoint",
    "StoredRule",
    "UnitIndex",
    "UnitVector",
    "UnownedLocalIndexError",
    "open_chunk_index",
    "open_embedded_index",
    "open_qdrant",
    "require_index_owner",
    "sparse_vectors",
    "unit_key",
]
