"""The ingest pipeline without the bus: real Redis (Valkey) and Qdrant, fake source and sink."""

from redis.asyncio import Redis

from ingestor.parsing import IngestLimits
from ingestor.pipeline import ChunkingOptions, IngestPipeline
from policypal.contracts import DocumentUploaded
from policypal.state import DocumentCatalog, RequestLedger
from policypal.vectorstore import ChunkIndex
from tests.ingestor.fakes import HashEmbedder, MemorySource, RecordingSink
from tests.support.document_uploads import make_upload, record_for


class Harness:
    """A pipeline over ``index`` whose uploads come from memory and whose events are recorded."""

    def __init__(
        self, redis: Redis, index: ChunkIndex, *, embed_group: int = 4, limits: IngestLimits | None = None
    ) -> None:
        self.catalog = DocumentCatalog(redis)
        self.ledger = RequestLedger(redis)
        self.index = index
        self.embedder = HashEmbedder()
        self.source = MemorySource({})
        self.sink = RecordingSink(self.ledger)
        self.pipeline = IngestPipeline(
            catalog=self.catalog,
            ledger=self.ledger,
            index=index,
            embedder=self.embedder,
            source=self.source,
            sink=self.sink,
            options=ChunkingOptions(chunk_size=1000, chunk_overlap=150, embed_group=embed_group),
            limits=limits,
            progress_interval=0.0,
        )

    async def upload(self, data: bytes, document_id: str = "doc1", **kwargs: str) -> DocumentUploaded:
        """Keep ``data`` in the source and record the document, as the gateway does before publishing."""
        upload = make_upload(document_id, **kwargs)
        self.source.objects[upload.object_name] = data
        await self.catalog.create(record_for(upload))
        return upload
