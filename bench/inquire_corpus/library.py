"""The library both stacks search: ours through the real ingestor, the naive stack's through LangChain.

Ours: every document of ``documents.DOCUMENTS`` ingested by ``ingestor.pipeline.IngestPipeline``
(``bench.offline_pipeline``, 1000/150) into Qdrant Edge, the embedded default's engine (an index
ingested by an earlier bench into local-mode Qdrant is migrated when opened, as the product
migrates a data directory; docs/adr/0013), kept under bench/.cache/inquire/ and
reused while the ingestor, the vector store, the document list and the embedding model are
unchanged (their source is fingerprinted; the folder is named by the model too). The naive stack PolicyPal started from (docs/benchmarks.md): LangChain ``PyPDFLoader`` + ``RecursiveCharacterTextSplitter
(1000, 150)`` and the same MiniLM embedder, searched densely (brute-force cosine, what Qdrant's dense
search returns), cached the same way.
"""

import hashlib
import json
import shutil
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

from bench.ingestion import CACHE
from bench.inquire_corpus.documents import DOCUMENTS, fetch_all
from bench.offline_pipeline import offline_pipeline
from ingestor.pipeline import ChunkingOptions
from policypal.contracts import DocumentUploaded, ResolvedDocument
from policypal.embeddings import MiniLMEmbedder
from policypal.state import DocumentRecord
from policypal.vectorstore import ChunkIndex, open_embedded_index

TENANT, USER = "bench", "reader"
ROOT = Path(__file__).resolve().parents[2]
_FINGERPRINTED = ("services/ingestor/ingestor", "libs/vectorstore/policypal/vectorstore")


def fingerprint() -> str:
    """A hash of the ingestor's and the vector store's source and of the document list."""
    digest = hashlib.sha256(repr(DOCUMENTS).encode())
    for folder in _FINGERPRINTED:
        for path in sorted((ROOT / folder).glob("*.py")):
            digest.update(path.read_bytes())
    return digest.hexdigest()[:12]


async def open_library(
    embedder: MiniLMEmbedder, *, reuse: bool = False
) -> tuple[ChunkIndex, dict[str, object]]:
    """Our index of the library (ingested now unless cached) and the ingestion stats.

    ``reuse``: the last index ingested, even by an older ingestor (quicker runs while tuning the
    answer; the figures to report come from a fresh index).
    """
    folder = CACHE / "inquire" / f"qdrant-{fingerprint()}-{embedder.model_id}"
    ingested = sorted((CACHE / "inquire").glob("qdrant-*/stats.json"), key=lambda p: p.stat().st_mtime)
    if reuse and not (folder / "stats.json").exists() and ingested:
        folder = ingested[-1].parent
    stats_file = folder / "stats.json"
    stats = json.loads(stats_file.read_text()) if stats_file.exists() else None
    if stats is None and folder.exists():
        shutil.rmtree(folder)
    index = await open_embedded_index(folder, model_id=embedder.model_id, dimension=embedder.dimension)
    if stats is None:
        stats = await _ingest(index, embedder)
    # Written again after opening: migrating a local-mode index rebuilds the folder without it.
    stats_file.write_text(json.dumps(stats))
    return index, stats


async def _ingest(index: ChunkIndex, embedder: MiniLMEmbedder) -> dict[str, object]:
    stats: dict[str, object] = {}
    paths = fetch_all()
    for document in DOCUMENTS:
        data = paths[document.document_id].read_bytes()
        upload = DocumentUploaded(
            **_upload_fields(document.document_id, document.title, document.version),
            request_id=f"ingest-{document.document_id}",
            object_name=document.document_id,
            filename=paths[document.document_id].name,
            content_type="application/pdf",
            size_bytes=len(data),
            sha256=hashlib.sha256(data).hexdigest(),
        )
        started = time.perf_counter()
        options = ChunkingOptions(chunk_size=1000, chunk_overlap=150)
        ready = await offline_pipeline(upload, data, index, embedder, options).run(upload)
        stats[document.document_id] = {
            **ready.model_dump(include={"pages", "chunks"}),
            "seconds": round(time.perf_counter() - started, 1),
        }
        print(f"  ingested {document.document_id}: {stats[document.document_id]}", flush=True)
    return stats


def _upload_fields(document_id: str, title: str, version: str) -> dict[str, str]:
    return {
        "tenant_id": TENANT,
        "user_id": USER,
        "document_id": document_id,
        "title": title,
        "version": version,
        "doc_type": "regulatory",
    }


def catalog() -> list[DocumentRecord]:
    """The library as the user's ready documents (what the resolver matches names against)."""
    return [
        DocumentRecord(
            document_id=d.document_id,
            tenant_id=TENANT,
            user_id=USER,
            title=d.title,
            version=d.version,
            doc_type="regulatory",
            filename=d.pdf.name,
            content_type="application/pdf",
            size_bytes=0,
            sha256=d.document_id,
            status="ready",
            request_id=f"ingest-{d.document_id}",
        )
        for d in DOCUMENTS
    ]


def resolved(document_id: str) -> ResolvedDocument:
    """``document_id`` as the resolver hands a tagged document to @Inquire."""
    d = next(d for d in DOCUMENTS if d.document_id == document_id)
    return ResolvedDocument(
        document_id=d.document_id, title=d.title, version=d.version, doc_type="regulatory"
    )


@dataclass(frozen=True)
class NaiveChunk:
    """A chunk of the naive stack: its document, 1-based page and text."""

    document_id: str
    page: int
    text: str


class NaiveIndex:
    """The naive stack's retrieval: dense top-k over LangChain's chunks, optionally within one document."""

    def __init__(self, chunks: list[NaiveChunk], vectors: npt.NDArray[np.float32]) -> None:
        self.chunks = chunks
        self._vectors = vectors

    def search(
        self, vector: npt.NDArray[np.float32], *, document_id: str | None, k: int = 4
    ) -> list[NaiveChunk]:
        """The ``k`` nearest chunks (cosine), of ``document_id`` only when given."""
        scores = self._vectors @ vector
        if document_id is not None:
            scores = np.where([c.document_id == document_id for c in self.chunks], scores, -np.inf)
        return [self.chunks[i] for i in np.argsort(-scores)[:k] if np.isfinite(scores[i])]


def naive_index(embedder: MiniLMEmbedder) -> NaiveIndex:
    """The naive stack's index of the library, built now unless cached."""
    folder = CACHE / "inquire" / "naive"
    meta, array = folder / "chunks.json", folder / "vectors.npy"
    if not meta.exists():
        from langchain_community.document_loaders import PyPDFLoader
        from langchain_text_splitters import RecursiveCharacterTextSplitter

        splitter = RecursiveCharacterTextSplitter(chunk_size=1000, chunk_overlap=150)
        chunks: list[NaiveChunk] = []
        for document_id, path in fetch_all().items():
            pages = PyPDFLoader(str(path)).load()
            for piece in splitter.split_documents(pages):
                chunks.append(NaiveChunk(document_id, int(piece.metadata["page"]) + 1, piece.page_content))
        vectors = embedder.embed([c.text for c in chunks])
        folder.mkdir(parents=True, exist_ok=True)
        np.save(array, vectors)
        meta.write_text(json.dumps([c.__dict__ for c in chunks]))
    loaded = [NaiveChunk(**c) for c in json.loads(meta.read_text())]
    return NaiveIndex(loaded, np.load(array))
