"""The distinct library ingested once: 31 documents of one user, through the real ingestor, in Qdrant Edge.

The inquire bench's twelve documents and the nineteen distractors (``distractors``) are ingested by
``ingestor.pipeline.IngestPipeline`` (``bench.offline_pipeline``, 1000/150, the ingestor's background
embedder) into the embedded engine under bench/.cache/distinct_library/index-<fingerprint>/, one
document after another; ``stats.json`` is written after each, so an interrupted ingestion resumes at
the next document (a half-written one is deleted and ingested again). The fingerprint is the inquire
library's (ingestor and vector store source, its document list) and the distractor list.

``export_points`` then writes every chunk, its dense vector and payload, to ``points.npz`` beside
it: the bench builds each level's index from that copy (upserts run at thousands a second) instead
of ingesting anything twice.
"""

import hashlib
import json
import time
from pathlib import Path
from typing import Any

import numpy as np

from bench.inquire_corpus.distractors import DISTRACTORS, FOLDER, fetch_distractors
from bench.inquire_corpus.documents import DOCUMENTS, fetch_all
from bench.inquire_corpus.library import TENANT, USER, fingerprint
from bench.offline_pipeline import offline_pipeline
from ingestor.pipeline import ChunkingOptions
from policypal.contracts import DocumentUploaded
from policypal.embeddings import MiniLMEmbedder, background_embedder
from policypal.vectorstore import ChunkIndex, ChunkPoint, open_embedded_index

#: (document id, title, version) of every document, the gold ones first.
CATALOGUE = [(d.document_id, d.title, d.version) for d in DOCUMENTS] + [
    (d.document_id, d.title, d.version) for d in DISTRACTORS
]


def index_folder() -> Path:
    """Where the ingested library of the current ingestor and document lists is kept."""
    digest = hashlib.sha256((fingerprint() + repr(DISTRACTORS)).encode()).hexdigest()[:12]
    return FOLDER / f"index-{digest}"


def newest_folder() -> Path | None:
    """The last completely ingested library, whatever code ingested it (for quicker reruns)."""
    done = sorted(FOLDER.glob("index-*/points.npz"), key=lambda p: p.stat().st_mtime)
    return done[-1].parent if done else None


async def ingest(folder: Path) -> dict[str, Any]:
    """Ingest every document not yet in ``folder``'s index; the per-document stats of all of them."""
    stats_file = folder / "stats.json"
    stats: dict[str, Any] = json.loads(stats_file.read_text()) if stats_file.exists() else {}
    paths = fetch_all() | fetch_distractors()
    embedder = MiniLMEmbedder(batch_size=8)
    embedder.embed(["warm up"])
    index = await open_embedded_index(
        folder / "qdrant", model_id=embedder.model_id, dimension=embedder.dimension
    )
    try:
        for document_id, title, version in CATALOGUE:
            if document_id in stats:
                continue
            await index.delete_document(tenant_id=TENANT, document_id=document_id)
            data = paths[document_id].read_bytes()
            upload = DocumentUploaded(
                tenant_id=TENANT,
                user_id=USER,
                document_id=document_id,
                title=title,
                version=version,
                doc_type="regulatory",
                request_id=f"ingest-{document_id}",
                object_name=document_id,
                filename=paths[document_id].name,
                content_type="application/pdf",
                size_bytes=len(data),
                sha256=hashlib.sha256(data).hexdigest(),
            )
            options = ChunkingOptions(chunk_size=1000, chunk_overlap=150)
            pipeline = offline_pipeline(upload, data, index, background_embedder(embedder), options)
            started = time.perf_counter()
            ready = await pipeline.run(upload)
            stats[document_id] = {
                **ready.model_dump(include={"pages", "chunks"}),
                "seconds": round(time.perf_counter() - started, 1),
            }
            stats_file.write_text(json.dumps(stats, indent=1))
            print(f"  ingested {document_id}: {stats[document_id]}", flush=True)
        if not (folder / "points.npz").exists():
            await export_points(index, folder / "points.npz")
    finally:
        await index.aclose()
    return stats


async def export_points(index: ChunkIndex, target: Path) -> None:
    """Every chunk of the library with its dense vector, in catalogue then chunk order."""
    payloads: list[str] = []
    vectors: list[list[float]] = []
    for document_id, _, _ in CATALOGUE:
        chunks = await index.document_chunks(tenant_id=TENANT, user_id=USER, document_id=document_id)
        dense = await index.document_chunk_vectors(tenant_id=TENANT, user_id=USER, document_id=document_id)
        for chunk in chunks:
            payloads.append(chunk.model_dump_json())
            vectors.append(dense[chunk.chunk_index])
    np.savez_compressed(target, payloads=np.asarray(payloads), vectors=np.asarray(vectors, dtype=np.float32))


def load_points(folder: Path) -> tuple[list[ChunkPoint], np.ndarray]:
    """The exported chunks and their vectors."""
    saved = np.load(folder / "points.npz")
    chunks = [ChunkPoint.model_validate_json(str(p)) for p in saved["payloads"]]
    return chunks, saved["vectors"]
