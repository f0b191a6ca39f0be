"""The ingestion pipeline with in-memory stand-ins for Redis and the bus, for benchmarks.

Benchmarks measure parsing, chunking, embedding and indexing, not delivery: the catalog, ledger,
object store and event sink are replaced by trivial in-memory objects here, and nowhere in tests.
"""

from typing import Any

from ingestor.pipeline import ChunkingOptions, IngestPipeline
from policypal.contracts import DocumentUploaded
from policypal.embeddings import Embedder
from policypal.state import DocumentRecord
from policypal.vectorstore import ChunkIndex


def offline_pipeline(
    upload: DocumentUploaded, data: bytes, index: ChunkIndex, embedder: Embedder, options: ChunkingOptions
) -> IngestPipeline:
    """A pipeline that ingests ``data`` as ``upload`` straight into ``index``."""
    record = DocumentRecord(**{**upload.model_dump(), "request_id": upload.request_id})

    class Catalog:
        async def get(self, *_: str) -> DocumentRecord:
            return record

        async def save(self, updated: DocumentRecord) -> DocumentRecord:
            return updated

    class Ledger:
        async def terminal(self, *_: str) -> None:
            return None

    class Source:
        async def fetch(self, _: str) -> bytes:
            return data

    class Sink:
        async def progress(self, _: object) -> None:
            return None

        async def terminal(self, event: Any) -> Any:
            return event

    return IngestPipeline(
        catalog=Catalog(),  # type: ignore[arg-type]
        ledger=Ledger(),
        index=index,
        embedder=embedder,
        source=Source(),
        sink=Sink(),
        options=options,
    )
