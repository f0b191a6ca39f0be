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

__all__ = [
    "ChunkHit",
    "ChunkIndex",
    "ChunkPoint",
    "EmbeddingModelMismatch",
    "open_chunk_index",
    "open_qdrant",
    "sparse_vectors",
]
