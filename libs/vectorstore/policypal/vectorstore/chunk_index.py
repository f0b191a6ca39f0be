"""The ``chunks`` collection: one point per chunk, payload scoped by tenant and user.

Each point has a dense vector (the embedding model's) and a sparse BM25 vector (``bm25``, keywords),
for hybrid search. Every search filters by tenant (and user): docs/architecture.md, Invariant: tenant isolation.
"""

import logging
import uuid

import numpy as np
from qdrant_client import AsyncQdrantClient, models

from policypal.telemetry import service_span
from policypal.vectorstore import sparse_terms
from policypal.vectorstore.chunk_place import INTEGER_FIELDS, SCOPE_FIELDS, ChunkPlace
from policypal.vectorstore.point_store import CollectionSpec, PointStore, Scope, StoredPoint
from policypal.vectorstore.qdrant_client_store import QdrantClientStore
from policypal.vectorstore.rank_fusion import fuse
from policypal.vectorstore.rule_index import RuleIndex
from policypal.vectorstore.unit_index import UnitIndex

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


def chunk_collection(*, model_id: str, dimension: int, hybrid: bool = True) -> CollectionSpec:
    """The ``chunks`` collection of an embedding model; ``hybrid`` adds the BM25 sparse vector."""
    return CollectionSpec(
        name=COLLECTION,
        dimension=dimension,
        metadata={"embedding_model": model_id, "dimension": dimension},
        sparse_vector=SPARSE_VECTOR if hybrid else None,
        keyword_fields=SCOPE_FIELDS,
        integer_fields=INTEGER_FIELDS,
    )


class ChunkIndex:
    """Writes and searches chunk vectors of one embedding model."""

    def __init__(self, store: AsyncQdrantClient | PointStore, *, model_id: str, dimension: int) -> None:
        # What it was given (a client or a store), as before: another index can be built on it.
        self._client = store
        self._store: PointStore = QdrantClientStore(store) if isinstance(store, AsyncQdrantClient) else store
        self._model_id = model_id
        self._dimension = dimension
        self._hybrid = True
        self.rules = RuleIndex(self._store, model_id=model_id, dimension=dimension)
        self.units = UnitIndex(self._store, model_id=model_id, dimension=dimension)

    @property
    def hybrid(self) -> bool:
        """True when the collection has the sparse BM25 vector (False: an older, dense-only collection)."""
        return self._hybrid

    async def aclose(self) -> None:
        """Close the vector engine (an embedded one releases its directory)."""
        await self._store.close()

    async def ensure_collection(self) -> None:
        """Create the collection for this model, or check an existing one was made with it.

        The sibling ``rules`` and ``units`` collections (``self.rules``, ``self.units``) are created beside it.
        """
        await self._ensure_chunks()
        await self.rules.ensure_collection()
        await self.units.ensure_collection()

    async def _ensure_chunks(self) -> None:
        state = await self._store.describe(COLLECTION)
        if state is None:
            await self._store.create(chunk_collection(model_id=self._model_id, dimension=self._dimension))
            return
        recorded = state.metadata.get("embedding_model")
        if state.dimension != self._dimension or (recorded is not None and recorded != self._model_id):
            raise EmbeddingModelMismatch(
                f"collection {COLLECTION!r} holds {recorded or 'unknown'} vectors of size {state.dimension}; "
                f"this process embeds with {self._model_id} ({self._dimension}). Re-index or use another store."
            )
        # Never mix: an old collection stays dense-only (no point gets a sparse vector) and says so.
        self._hybrid = SPARSE_VECTOR in state.sparse_vectors
        if not self._hybrid:
            logger.warning(NO_SPARSE_VECTOR)

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
            StoredPoint(
                id=point_id(chunk.tenant_id, chunk.chunk_id),
                dense=vector,
                sparse={SPARSE_VECTOR: sparse[i]} if self._hybrid and sparse else {},
                payload={**chunk.model_dump(mode="json"), "chunk_id": chunk.chunk_id},
            )
            for i, (chunk, vector) in enumerate(zip(chunks, vectors, strict=True))
        ]
        await self._store.upsert(COLLECTION, points)

    async def search(
        self,
        vector: list[float],
        *,
        tenant_id: str,
        user_id: str | None,
        document_ids: list[str] | None = None,
        limit: int = 5,
    ) -> list[ChunkHit]:
        """The ``limit`` nearest chunks of this tenant and user, within ``document_ids`` when given."""
        with service_span("search", _search_attributes("dense", document_ids, limit)):
            found = await self._store.nearest(
                COLLECTION, vector, _scope(tenant_id, user_id, document_ids), limit
            )
        return [ChunkHit.model_validate({**p.payload, "score": p.score}) for p in found]

    async def hybrid_search(
        self,
        vector: list[float],
        text: str,
        *,
        tenant_id: str,
        user_id: str | None,
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
        keywords = sparse_terms.query_vector(text)
        if not self._hybrid or not keywords.indices:
            return await self.search(
                vector, tenant_id=tenant_id, user_id=user_id, document_ids=document_ids, limit=limit
            )
        scope = _scope(tenant_id, user_id, document_ids)
        with service_span("search", _search_attributes("hybrid", document_ids, limit)):
            dense, keyword = await self._store.dense_and_keywords(
                COLLECTION, vector, (SPARSE_VECTOR, keywords), scope, limit
            )
        query = np.asarray(vector, dtype=np.float32)
        query /= np.linalg.norm(query) or 1.0
        cosine = {id(p): _cosine(query, p.dense) for p in (*dense, *keyword)}
        fused = fuse(
            [[(p.score, p) for p in dense], [(p.score, p) for p in keyword]],
            key=lambda p: str(p.payload["chunk_id"]),
            tie_breaker=lambda p: cosine[id(p)],
            limit=limit,
        )
        return [ChunkHit.model_validate({**p.payload, "score": cosine[id(p)]}) for _, p in fused]

    async def document_chunks(self, *, tenant_id: str, user_id: str, document_id: str) -> list[ChunkPoint]:
        """Every chunk of one document of this tenant and user, in document order (by chunk index).

        An exact fetch, not a search: for strategies that read a document by position (stratified
        sampling). Paged so a 500-chunk document does not come back in one response.
        """
        scope = Scope(equals={"tenant_id": tenant_id, "user_id": user_id, "document_id": document_id})
        found = await self._store.scroll(COLLECTION, scope, with_vectors=False)
        chunks = [ChunkPoint.model_validate(point.payload) for point in found]
        return sorted(chunks, key=lambda chunk: chunk.chunk_index)

    async def document_opening(
        self, vector: list[float], *, tenant_id: str, user_id: str | None, document_id: str, chunks: int
    ) -> list[ChunkHit]:
        """The first ``chunks`` chunks of one document (its title page, its opening lines), in order, each
        with its cosine to ``vector``: where a document states its own date, version and publisher."""
        scope = Scope(
            equals={
                "tenant_id": tenant_id,
                "document_id": document_id,
                **({"user_id": user_id} if user_id else {}),
            },
            at_most={"chunk_index": chunks - 1},
        )
        found = await self._store.scroll(COLLECTION, scope, with_vectors=True)
        query = np.asarray(vector, dtype=np.float32)
        hits = [ChunkHit.model_validate({**p.payload, "score": _cosine(query, p.dense)}) for p in found]
        return sorted(hits, key=lambda hit: hit.chunk_index)

    async def document_chunk_vectors(
        self, *, tenant_id: str, user_id: str, document_id: str
    ) -> dict[int, list[float]]:
        """The dense vector of every chunk of one document, by chunk index (the passage around a rule)."""
        scope = Scope(equals={"tenant_id": tenant_id, "user_id": user_id, "document_id": document_id})
        found = await self._store.scroll(COLLECTION, scope, with_vectors=True)
        return {int(p.payload["chunk_index"]): p.dense for p in found if p.dense is not None}

    async def count(self, *, tenant_id: str, document_id: str) -> int:
        """How many chunks of a document are indexed."""
        return await self._store.count(COLLECTION, _document(tenant_id, document_id))

    async def delete_chunks_from(self, *, tenant_id: str, document_id: str, first_index: int) -> None:
        """Remove a document's chunks with index >= ``first_index``: leftovers of an earlier, longer run."""
        scope = Scope(
            equals={"tenant_id": tenant_id, "document_id": document_id}, at_least={"chunk_index": first_index}
        )
        await self._store.delete(COLLECTION, scope)
        await self.units.delete_chunks_from(
            tenant_id=tenant_id, document_id=document_id, first_index=first_index
        )

    async def delete_document(self, *, tenant_id: str, document_id: str) -> None:
        """Remove every chunk of a document, its rule units and its unit vectors."""
        await self.rules.delete_document(tenant_id=tenant_id, document_id=document_id)
        await self.units.delete_document(tenant_id=tenant_id, document_id=document_id)
        await self._store.delete(COLLECTION, _document(tenant_id, document_id))


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


def _scope(tenant_id: str, user_id: str | None, document_ids: list[str] | None) -> Scope:
    # No user: the tenant's published documents (a widget customer), named one by one, never all.
    if user_id is None and not document_ids:
        raise ValueError("a search across the tenant's users must name its documents")
    return Scope(
        equals={"tenant_id": tenant_id, **({"user_id": user_id} if user_id is not None else {})},
        one_of={"document_id": document_ids} if document_ids is not None else {},
    )


def _document(tenant_id: str, document_id: str) -> Scope:
    return Scope(equals={"tenant_id": tenant_id, "document_id": document_id})


def _cosine(query: "np.typing.NDArray[np.float32]", dense: list[float] | None) -> float:
    """Cosine of the unit ``query`` and a point's dense vector (Qdrant stores cosine vectors normalised)."""
    if dense is None:
        raise ValueError("the point came back without its dense vector")
    return float(np.dot(query, np.asarray(dense, dtype=np.float32)))
