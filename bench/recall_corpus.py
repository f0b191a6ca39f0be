"""The corpus of the retrieval bench: two real Debian PDFs, indexed by the real ingestor pipeline.

Debian's ``debian-policy`` package ships the Debian Policy Manual (policy.pdf, 193 pages) and the
Filesystem Hierarchy Standard 3.0 (fhs-3.0.pdf, 50 pages); ``bench.ingestion.default_pdf`` fetches it
into bench/.cache with ``apt-get download``. Both are ingested into local Qdrant as one user's library,
exactly as the ingestor writes them (chunks, dense and BM25 vectors).
"""

import gzip
import hashlib
import time
from pathlib import Path
from typing import Any

from bench.ingestion import CACHE, default_pdf
from bench.offline_pipeline import offline_pipeline
from ingestor.pipeline import ChunkingOptions, IngestPipeline
from policypal.contracts import DocumentUploaded
from policypal.embeddings import MiniLMEmbedder
from policypal.vectorstore import ChunkIndex

TENANT, USER = "bench", "reader"
#: document id → (file in bench/.cache, title)
DOCUMENTS = {
    "policy": ("policy.pdf", "Debian Policy Manual"),
    "fhs": ("fhs-3.0.pdf", "Filesystem Hierarchy Standard"),
}


def fetch_documents() -> dict[str, Path]:
    """The PDFs of the corpus, fetched into bench/.cache when missing."""
    policy = default_pdf()
    if policy.name != "policy.pdf":
        raise SystemExit("the retrieval bench needs Debian's policy.pdf (apt-get download debian-policy)")
    fhs = CACHE / "fhs-3.0.pdf"
    if not fhs.exists():
        fhs.write_bytes(
            gzip.decompress((CACHE / "x/usr/share/doc/debian-policy/fhs/fhs-3.0.pdf.gz").read_bytes())
        )
    return {doc_id: CACHE / name for doc_id, (name, _) in DOCUMENTS.items()}


async def ingest_corpus(index: ChunkIndex, embedder: MiniLMEmbedder) -> dict[str, Any]:
    """Ingest every document of the corpus into ``index``; returns pages and chunks per document."""
    stats: dict[str, Any] = {}
    for doc_id, path in fetch_documents().items():
        data = path.read_bytes()
        upload = DocumentUploaded(
            tenant_id=TENANT,
            user_id=USER,
            request_id=f"ingest-{doc_id}",
            document_id=doc_id,
            object_name=doc_id,
            filename=path.name,
            content_type="application/pdf",
            size_bytes=len(data),
            sha256=hashlib.sha256(data).hexdigest(),
            title=DOCUMENTS[doc_id][1],
            version="1",
            doc_type="regulatory",
        )
        started = time.perf_counter()
        ready = await _pipeline(upload, data, index, embedder).run(upload)
        stats[doc_id] = {
            **ready.model_dump(include={"pages", "chunks"}),
            "seconds": time.perf_counter() - started,
        }
    return stats


def _pipeline(
    upload: DocumentUploaded, data: bytes, index: ChunkIndex, embedder: MiniLMEmbedder
) -> IngestPipeline:
    return offline_pipeline(
        upload, data, index, embedder, ChunkingOptions(chunk_size=1000, chunk_overlap=150)
    )
