"""A second baseline for the @Inquire bench: LlamaIndex's default pipeline with the packaged MiniLM.

What a user gets from LlamaIndex's starter code, minus the LLM: ``SimpleDirectoryReader`` over the
library's PDFs, ``VectorStoreIndex.from_documents`` (the default transformation, ``SentenceSplitter()``:
1024 tokens of tiktoken's cl100k_base, 200 overlap, in llama-index-core 0.14.25), the in-memory
``SimpleVectorStore``, and ``as_retriever()`` (``similarity_top_k`` 2). Its "answer" is its retrieved
chunks, as the naive stack's is. Two substitutions, so nothing is downloaded and nothing else changes:

- The PDF reader: ``llama-index-readers-file`` (the package of LlamaIndex's ``PDFReader``) is not
  installed; ``PagePDFReader`` here does what that reader does, one Document per page of pypdf's
  ``page.extract_text()`` with ``page_label`` and ``file_name``: the same per-page text LangChain's
  ``PyPDFLoader`` gives the naive stack. ``SimpleDirectoryReader`` adds its usual file metadata
  (``file_path`` stays in the embedded text, as by default).
- The embedder: ``MiniLMEmbedding`` wraps ``policypal.embeddings.MiniLMEmbedder`` (the default would
  be OpenAI's API). MiniLM reads at most 256 word pieces, so it sees the start of each 1024-token chunk.

Data LlamaIndex fetches on first use ships inside llama-index-core (``_static``: NLTK's punkt_tab and
stopwords, tiktoken's cl100k_base); ``_offline_data`` points NLTK and tiktoken there before import.
The built index is persisted under bench/.cache/inquire/ and reloaded while the version and the
document list are unchanged.
"""

import hashlib
import os
from dataclasses import dataclass
from importlib import metadata, resources
from pathlib import Path
from typing import Any

from bench.ingestion import CACHE
from bench.inquire_corpus.documents import DOCUMENTS, fetch_all
from policypal.embeddings import MiniLMEmbedder

#: Our own key: the 1-based physical page (``page_label`` is the PDF's printed label, e.g. "iv").
#: Kept out of the embedded and LLM text so the chunks are what the default pipeline makes.
PAGE_KEY = "page_number"


def _offline_data() -> None:
    """Point NLTK and tiktoken at the data llama-index-core ships, so neither tries to download."""
    static = resources.files("llama_index.core") / "_static"
    os.environ.setdefault("NLTK_DATA", str(static / "nltk_cache"))
    os.environ.setdefault("TIKTOKEN_CACHE_DIR", str(static / "tiktoken_cache"))


_offline_data()

from llama_index.core import (  # noqa: E402 (the environment above must be set first)
    Settings,
    SimpleDirectoryReader,
    StorageContext,
    VectorStoreIndex,
    load_index_from_storage,
)
from llama_index.core.base.embeddings.base import BaseEmbedding  # noqa: E402
from llama_index.core.readers.base import BaseReader  # noqa: E402
from llama_index.core.schema import Document  # noqa: E402
from llama_index.core.vector_stores import ExactMatchFilter, MetadataFilters  # noqa: E402


class MiniLMEmbedding(BaseEmbedding):
    """The packaged MiniLM as a LlamaIndex embedding model (queries and texts embedded alike)."""

    _embedder: MiniLMEmbedder

    def __init__(self, embedder: MiniLMEmbedder, **kwargs: Any) -> None:
        super().__init__(model_name=embedder.model_id, **kwargs)
        self._embedder = embedder

    def _get_query_embedding(self, query: str) -> list[float]:
        return self._get_text_embeddings([query])[0]

    async def _aget_query_embedding(self, query: str) -> list[float]:
        return self._get_query_embedding(query)

    def _get_text_embedding(self, text: str) -> list[float]:
        return self._get_text_embeddings([text])[0]

    def _get_text_embeddings(self, texts: list[str]) -> list[list[float]]:
        rows: list[list[float]] = self._embedder.embed(texts).tolist()
        return rows


class PagePDFReader(BaseReader):
    """LlamaIndex's ``PDFReader`` (llama-index-readers-file), plus the physical page number."""

    def load_data(self, file: Path, extra_info: dict[str, Any] | None = None, **_: Any) -> list[Document]:
        """One Document per page: pypdf's text, ``page_label``, ``file_name`` and ``extra_info``."""
        import pypdf

        pdf = pypdf.PdfReader(file)
        pages = []
        for number, page in enumerate(pdf.pages, start=1):
            fields = {"page_label": pdf.page_labels[number - 1], "file_name": file.name, **(extra_info or {})}
            page_document = Document(text=page.extract_text(), metadata={**fields, PAGE_KEY: number})
            page_document.excluded_embed_metadata_keys.append(PAGE_KEY)
            page_document.excluded_llm_metadata_keys.append(PAGE_KEY)
            pages.append(page_document)
        return pages


@dataclass(frozen=True)
class Retrieved:
    """One retrieved chunk: its document, 1-based page and text."""

    document_id: str
    page: int
    text: str


class LlamaIndexBaseline:
    """The default retriever over the library, library-wide or filtered to one document's nodes."""

    def __init__(self, index: VectorStoreIndex, files: dict[str, str]) -> None:
        self._index = index
        self._files = files
        self._documents = {name: document_id for document_id, name in files.items()}
        self.nodes = len(index.docstore.docs)

    def retrieve(self, text: str, *, document_id: str | None) -> list[Retrieved]:
        """The default ``similarity_top_k`` chunks for ``text``, of ``document_id`` only when given."""
        filters = None
        if document_id is not None:
            filters = MetadataFilters(
                filters=[ExactMatchFilter(key="file_name", value=self._files[document_id])]
            )
        hits = self._index.as_retriever(filters=filters).retrieve(text)
        return [
            Retrieved(
                self._documents[hit.node.metadata["file_name"]], int(hit.node.metadata[PAGE_KEY]), hit.text
            )
            for hit in hits
        ]


def llamaindex_baseline(embedder: MiniLMEmbedder) -> LlamaIndexBaseline:
    """LlamaIndex's default index of the library with ``embedder``, built now unless cached."""
    # LlamaIndex's documented way to go without an LLM (it resolves None to MockLLM), untyped as such.
    Settings.llm = None  # type: ignore[assignment]
    Settings.embed_model = MiniLMEmbedding(embedder)
    paths = fetch_all()
    files = {document_id: path.name for document_id, path in paths.items()}
    folder = CACHE / "inquire" / f"llamaindex-{_fingerprint()}"
    if (folder / "docstore.json").exists():
        index = load_index_from_storage(StorageContext.from_defaults(persist_dir=str(folder)))
        assert isinstance(index, VectorStoreIndex)
        return LlamaIndexBaseline(index, files)
    reader = SimpleDirectoryReader(
        input_files=[str(p) for p in paths.values()], file_extractor={".pdf": PagePDFReader()}
    )
    index = VectorStoreIndex.from_documents(reader.load_data())
    index.storage_context.persist(persist_dir=str(folder))
    return LlamaIndexBaseline(index, files)


def _fingerprint() -> str:
    """The library and LlamaIndex's version: what the cached index depends on."""
    digest = hashlib.sha256(repr(DOCUMENTS).encode() + metadata.version("llama-index-core").encode())
    return digest.hexdigest()[:12]
