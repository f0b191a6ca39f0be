"""Opening the chunk index the settings point at: a Qdrant server, or the embedded engine in a directory."""

from pathlib import Path

from policypal.config import Settings
from policypal.vectorstore.chunk_index import ChunkIndex
from policypal.vectorstore.edge_store import EdgeStore
from policypal.vectorstore.local_migration import migrate_local_mode
from policypal.vectorstore.local_owner import require_index_owner
from policypal.vectorstore.qdrant_client_store import open_qdrant


async def open_chunk_index(settings: Settings, *, model_id: str, dimension: int) -> ChunkIndex:
    """The chunk index the settings point at (QDRANT_URL, else the embedded engine), collection checked.

    For a worker: raises ``UnownedLocalIndexError`` on a local index the embedded launcher does not own.
    """
    require_index_owner(settings)
    if settings.qdrant_url:
        api_key = settings.qdrant_api_key.get_secret_value() if settings.qdrant_api_key else None
        index = ChunkIndex(
            open_qdrant(settings.qdrant_url, api_key=api_key), model_id=model_id, dimension=dimension
        )
        await index.ensure_collection()
        return index
    return await open_embedded_index(settings.qdrant_local_path, model_id=model_id, dimension=dimension)


async def open_embedded_index(path: Path, *, model_id: str, dimension: int) -> ChunkIndex:
    """The chunk index of the embedded engine (Qdrant Edge) under ``path``, collection checked.

    A directory written by local-mode qdrant-client is migrated first (docs/adr/0013-embedded-vector-engine.md).
    One process at a time may open ``path``.
    """
    await migrate_local_mode(path)
    index = ChunkIndex(EdgeStore(path), model_id=model_id, dimension=dimension)
    try:
        await index.ensure_collection()
    except BaseException:
        await index.aclose()
        raise
    return index
