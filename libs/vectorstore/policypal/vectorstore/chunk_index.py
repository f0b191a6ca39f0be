"""The ``chunks`` collection: one point per chunk, payload scoped by tenant and user.

Each point has a dense vector (the embedding model's) and a sparse BM25 vector (``bm25``, keywords),
for hybrid search. Every search filters by tenant (and user): docs/architecture.md, Invariant: tenant isolation.
"""

import logging
import uuid
import warnings
from pathlib import Path

import numpy as np
from qdrant_client import AsyncQdrantClient, models

from policypal.config import Settings
from policypal.telemetry import service_span
from policypal.vectorstore import sparse_terms
from policypal.vectorstore.chunk_place import ChunkPlace
from policypal.vectorstore.local_owner import require_index_owner
from policypal.vectorstore.rule_index import RuleIndex

logger = logging.getLogger(__name__)

COLLECTION = "chunks"
#: The named sparse vector of each point: BM25 term weights, IDF applied by Qdrant at search time.
SPARSE_VECTOR = "bm25"
#: Candidates each of the dense and the keyword search contributes before the two are fused.
HYBRID_CANDIDATES = 40
NO_SPARSE_VECTOR = (
    f"collection {COLLECTION!r} was created before hybrid search and has no {SPARSE_VECTOR!r} sparse "
    "vector: searches use the dense vector only. To enable keyword (BM25) search, re-index: delete the "
    f"{COLLECTION!r} collection (embedded mode: the qdrant folder under POLICYPAL_DATA_DIR) and upload "
    "the documents again."
)
_POINT_NAMESPACE = uuid.UUID("5b0f7a1e-3c55-4d1c-9a9e-7d8f0c2b6a11")


class EmbeddingModelMismatch(Exception):  # noqa: N818 - reads as the verdict
    """The collection holds vectors of another model or dimension; mixing them would corrupt search."""


class ChunkPoint(ChunkPlace):
    """One chunk to index, with everything a citation needs."""

    section: str | None = None
    text: str
    #: Front matter, contents or index pages, revision history, the document's own licence notice:
    #: kept searchable, but ranked down and never audited against (set at ingestion; False before).
    boilerplate: bool = False


class ChunkHit(ChunkPoint):
    """A chunk found by a search, with its cosine similarity to the query (dense vector)."""

    score: float


def point_id(tenant_id: str, chunk_id: str) -> str:
    """Qdrant point id (a UUID) from the tenant and the chunk id.

    The tenant is part of it so that no document id, however chosen, lets one tenant overwrite
    another's points (docs/architecture.md, Invariant: tenant isolation).
    """
    return str(uuid.uuid5(_POINT_NAMESPACE, f"{tenant_id}/{chunk_id}"))


def open_qdrant(
    url: str | None, *, path: Path | None = None, api_key: str | None = None
) -> AsyncQdrantClient:
    """A client of a Qdrant server at ``url``, else of local (embedded) Qdrant under ``path``.

    Local mode is single-process: only one process may open a given ``path``.
    """
    if url:
        return AsyncQdrantClient(url=url, api_key=api_key)
    if path is None:
        return AsyncQdrantClient(location=":memory:")
    path.mkdir(parents=True, exist_ok=True)
    return AsyncQdrantClient(path=str(path))


async def open_chunk_index(settings: Settings, *, model_id: str, dimension: int) -> "ChunkIndex":
    """The chunk index the settings point at (QDRANT_URL, else local Qdrant), collection checked.

    For a worker: raises ``UnownedLocalIndexError`` on a local index the embedded launcher does not own.
    """
    require_index_owner(settings)
    api_key = settings.qdrant_api_key.get_secret_value() if settings.qdrant_api_key else None
    client = open_qdrant(settings.qdrant_url, path=settings.qdrant_local_path, api_key=api_key)
    index = ChunkIndex(client, model_id=model_id, dimension=dimension)
    await index.ensure_collection()
    return index


class ChunkIndex:
    """Writes and searches chunk vectors of one embedding model."""

    def __init__(self, client: AsyncQdrantClient, *, model_id: str, dimension: int) -> None:
        self._client = client
        self._model_id = model_id
        self._dimension = dimension
        self._hybrid = True
        self.rules = RuleIndex(client, model_id=model_id, dimension=dimension)

    @property
    def hybrid(self) -> bool:
        """True when the collection has the sparse BM25 vector (False: an older, dense-only collection)."""
        return self._hybrid

    async def aclose(self) -> None:
        """Close the Qdrant client (local mode releases its directory)."""
        await self._client.close()

    async def ensure_collection(self) -> None:
        """Create the collection for this model, or check an existing one was made with it.

        The sibling ``rules`` collection (``self.rules``) is created beside it.
        """
        await self._ensure_chunks()
        await self.rules.ensure_collection()

    async def _ensure_chunks(self) -> None:
        if await self._client.collection_exists(COLLECTION):
            info = await self._client.get_collection(COLLECTION)
            vectors = info.config.params.vectors
            size = vectors.size if isinstance(vectors, models.VectorParams) else None
            recorded = (info.config.metadata or {}).get("embedding_model")
            if size != self._dimension or (recorded is not None and recorded != self._model_id):
                raise EmbeddingModelMismatch(
                    f"collection {COLLECTION!r} holds {recorded or 'unknown'} vectors of size {size}; "
                    f"this process embeds with {self._model_id} ({self._dimension}). Re-index or use another store."
                )
            # Never mix: an old collection stays dense-only (no point gets a sparse vector) and says so.
            self._hybrid = SPARSE_VECTOR in (info.config.params.sparse_vectors or {})
            if not self._hybrid:
                logger.warning(NO_SPARSE_VECTOR)
            return
        await self._client.create_collection(
            COLLECTION,
            vectors_config=models.VectorParams(size=self._dimension, distance=models.Distance.COSINE),
            sparse_vectors_config={SPARSE_VECTOR: models.SparseVectorParams(modifier=models.Modifier.IDF)},
            metadata={"embedding_model": self._model_id, "dimension": self._dimension},
        )
        # Local Qdrant ignores payload indexes and warns; a Qdrant server needs them for filtered search.
        with warnings.catch_warnings():
            warnings.filterwarnings("ignore", message="Payload indexes have no effect in the local Qdrant")
            for field in ("tenant_id", "user_id", "document_id", "set_name", "doc_type"):
                await self._client.create_payload_index(COLLECTION, field, models.PayloadSchemaType.KEYWORD)

    async def upsert(
        self,
        chunks: list[ChunkPoint],
        vectors: list[list[float]],
        sparse: list[models.SparseVector] | None = None,
    ) -> None:
        """Write chunks with their vectors; the same chunk id overwrites the same point.

        ``sparse`` are the chunks' BM25 vectors (``sparse_vectors``, computed off the event loop by a
        caller that writes many); computed here when not given. A dense-only collection gets none.
        """
        if len(chunks) != len(vectors) or (sparse is not None and len(sparse) != len(chunks)):
            raise ValueError("one vector per chunk")
        if not chunks:
            return
        if self._hybrid and sparse is None:
            sparse = sparse_vectors(chunks)
        points = [
            models.PointStruct(
                id=point_id(chunk.tenant_id, chunk.chunk_id),
                vector={"": vector, SPARSE_VECTOR: sparse[i]} if self._hybrid and sparse else vector,
                payload={**chunk.model_dump(), "chunk_id": chunk.chunk_id},
            )
            for i, (chunk, vector) in enumerate(zip(chunks, vectors, strict=True))
        ]
        await self._client.upsert(COLLECTION, points=points, wait=True)

    async def search(
        self,
        vector: list[float],
        *,
        tenant_id: str,
        user_id: str,
        document_ids: list[str] | None = None,
        limit: int = 5,
    ) -> list[ChunkHit]:
        """The ``limit`` nearest chunks of this tenant and user, within ``document_ids`` when given."""
        with service_span("search", _search_attributes("dense", document_ids, limit)):
            response = await self._client.query_points(
                COLLECTION,
                query=vector,
                query_filter=_scope(tenant_id, user_id, document_ids),
                limit=limit,
                with_payload=True,
            )
        return [ChunkHit.model_validate({**(p.payload or {}), "score": p.score}) for p in response.points]

    async def hybrid_search(
        self,
        vector: list[float],
        text: str,
        *,
        tenant_id: str,
        user_id: str,
        document_ids: list[str] | None = None,
        limit: int = HYBRID_CANDIDATES,
    ) -> list[ChunkHit]:
        """Chunks of this tenant and user (within ``document_ids`` when given) found by meaning or words.

        The dense search on ``vector`` and the BM25 search on the words of ``text`` are fused by
        reciprocal rank (RRF); hits come in fused order, each scored with its cosine similarity to
        ``vector`` so that thresholds keep their meaning. IDF is measured over the same scope (this
        tenant and user), so another tenant's documents never weigh on the ranking. A dense-only
        collection (see ``hybrid``) returns the dense search alone.
        """
        scope = _scope(tenant_id, user_id, document_ids)
        keywords = sparse_terms.query_vector(text)
        if not self._hybrid or not keywords.indices:
            return await self.search(
                vector, tenant_id=tenant_id, user_id=user_id, document_ids=document_ids, limit=limit
            )
        with service_span("search", _search_attributes("hybrid", document_ids, limit)):
            response = await self._hybrid_query(vector, keywords, scope, limit)
        query = np.asarray(vector, dtype=np.float32)
        query /= np.linalg.norm(query) or 1.0
        return [
            ChunkHit.model_validate({**(p.payload or {}), "score": _cosine(query, p.vector)})
            for p in response.points
        ]

    async def _hybrid_query(
        self, vector: list[float], keywords: models.SparseVector, scope: models.Filter, limit: int
    ) -> models.QueryResponse:
        return await self._client.query_points(
            COLLECTION,
            prefetch=[
                models.Prefetch(query=vector, filter=scope, limit=limit),
                models.Prefetch(
                    query=keywords,
                    using=SPARSE_VECTOR,
                    filter=scope,
                    limit=limit,
                    params=models.SearchParams(idf=models.IdfCorpusParams(corpus=scope)),
                ),
            ],
            query=models.FusionQuery(fusion=models.Fusion.RRF),
            query_filter=scope,
            limit=limit,
            with_payload=True,
            with_vectors=True,
        )

    async def document_chunks(self, *, tenant_id: str, user_id: str, document_id: str) -> list[ChunkPoint]:
        """Every chunk of one document of this tenant and user, in document order (by chunk index).

        An exact fetch, not a search: for strategies that read a document by position (stratified
        sampling). Paged so a 500-chunk document does not come back in one response.
        """
        scope = models.Filter(
            must=[
                models.FieldCondition(key="tenant_id", match=models.MatchValue(value=tenant_id)),
                models.FieldCondition(key="user_id", match=models.MatchValue(value=user_id)),
                models.FieldCondition(key="document_id", match=models.MatchValue(value=document_id)),
            ]
        )
        chunks: list[ChunkPoint] = []
        offset: models.ExtendedPointId | None = None
        while True:
            records, offset = await self._client.scroll(
                COLLECTION, scroll_filter=scope, limit=256, offset=offset, with_payload=True
            )
            chunks.extend(ChunkPoint.model_validate(record.payload or {}) for record in records)
            if offset is None:
                return sorted(chunks, key=lambda chunk: chunk.chunk_index)

    async def count(self, *, tenant_id: str, document_id: str) -> int:
        """How many chunks of a document are indexed."""
        result = await self._client.count(
            COLLECTION,
            count_filter=models.Filter(
                must=[
                    models.FieldCondition(key="tenant_id", match=models.MatchValue(value=tenant_id)),
                    models.FieldCondition(key="document_id", match=models.MatchValue(value=document_id)),
                ]
            ),
            exact=True,
        )
        return result.count

    async def delete_chunks_from(self, *, tenant_id: str, document_id: str, first_index: int) -> None:
        """Remove a document's chunks with index >= ``first_index``: leftovers of an earlier, longer run."""
        await self._client.delete(
            COLLECTION,
            points_selector=models.FilterSelector(
                filter=models.Filter(
                    must=[
                        models.FieldCondition(key="tenant_id", match=models.MatchValue(value=tenant_id)),
                        models.FieldCondition(key="document_id", match=models.MatchValue(value=document_id)),
                        models.FieldCondition(key="chunk_index", range=models.Range(gte=first_index)),
                    ]
                )
            ),
        )

    async def delete_document(self, *, tenant_id: str, document_id: str) -> None:
        """Remove every chunk of a document, and its rule units."""
        await self.rules.delete_document(tenant_id=tenant_id, document_id=document_id)
        await self._client.delete(
            COLLECTION,
            points_selector=models.FilterSelector(
                filter=models.Filter(
                    must=[
                        models.FieldCondition(key="tenant_id", match=models.MatchValue(value=tenant_id)),
                        models.FieldCondition(key="document_id", match=models.MatchValue(value=document_id)),
                    ]
                )
            ),
        )


def sparse_vectors(chunks: list[ChunkPoint]) -> list[models.SparseVector]:
    """The BM25 vectors of ``chunks``: their text with the section title, whose words name the topic."""
    return [sparse_terms.document_vector(f"{chunk.section or ''}\n{chunk.text}") for chunk in chunks]


def _search_attributes(mode: str, document_ids: list[str] | None, limit: int) -> dict[str, str | int]:
    # Counts and modes only: the query text never goes on a span.
    return {
        "policypal.search.mode": mode,
        "policypal.search.documents": len(document_ids or ()),
        "policypal.search.limit": limit,
    }


def _scope(tenant_id: str, user_id: str, document_ids: list[str] | None) -> models.Filter:
    must: list[models.Condition] = [
        models.FieldCondition(key="tenant_id", match=models.MatchValue(value=tenant_id)),
        models.FieldCondition(key="user_id", match=models.MatchValue(value=user_id)),
    ]
    if document_ids is not None:
        must.append(models.FieldCondition(key="document_id", match=models.MatchAny(any=document_ids)))
    return models.Filter(must=must)


def _cosine(query: "np.typing.NDArray[np.float32]", stored: object) -> float:
    """Cosine of the unit ``query`` and a point's dense vector (Qdrant stores cosine vectors normalised)."""
    dense = stored.get("") if isinstance(stored, dict) else stored
    if not isinstance(dense, list):
        raise ValueError("the point came back without its dense vector")
    return float(np.dot(query, np.asarray(dense, dtype=np.float32)))
