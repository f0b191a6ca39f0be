"""Every index test runs on both engines: the embedded one (Qdrant Edge) and qdrant-client's local mode."""

from collections.abc import Awaitable
from pathlib import Path
from typing import Protocol

import pytest

from policypal.vectorstore import ChunkIndex, open_embedded_index, open_qdrant

ENGINES = ("edge", "local-mode")


class IndexOpener(Protocol):
    """Opens a checked chunk index on one engine under a directory."""

    def __call__(self, path: Path, *, model_id: str, dimension: int) -> Awaitable[ChunkIndex]: ...


async def open_local_mode(path: Path, *, model_id: str, dimension: int) -> ChunkIndex:
    """A chunk index on local-mode qdrant-client (the path a Qdrant server shares), collection checked."""
    index = ChunkIndex(open_qdrant(None, path=path), model_id=model_id, dimension=dimension)
    await index.ensure_collection()
    return index


@pytest.fixture(params=ENGINES)
def open_index(request: pytest.FixtureRequest) -> IndexOpener:
    """How to open an index on the engine of this run of the test."""
    return open_embedded_index if request.param == "edge" else open_local_mode
