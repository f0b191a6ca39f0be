"""The ``rules`` collection: one point per normative statement (rule unit) of a document.

A sibling of ``chunks`` (docs/adr/0006-rule-units.md): rules are sentence-sized, so they get their own
dense vectors, and an audit reads a target's rules whole (a scroll by document, vectors included) to
match every clause of the audited source against them in memory. Payload is scoped by tenant and
user like the chunks'; every read filters by tenant and user, every delete by tenant.
"""

import uuid
import warnings

from pydantic import BaseModel
from qdrant_client import AsyncQdrantClient, models

from policypal.contracts.audit import Modality
from policypal.telemetry import service_span
from policypal.vectorstore.chunk_place import ChunkPlace

RULES_COLLECTION = "rules"
_RULE_NAMESPACE = uuid.UUID("0c7c1d0e-9a8f-4f37-8a43-53b5a0f3d2e4")


class RulePoint(ChunkPlace):
    """One rule unit: a normative sentence (or list item under a normative lead-in) of a document.

    ``text`` is the rule on one line, footnote marks removed, with its lead-in for a list item: what
    is embedded and matched. ``quote`` is a verbatim slice of the chunk ``chunk_index`` (at most 300
    characters): what a citation shows.
    """

    section: str | None = None
    rule_index: int
    modality: Modality
    modal_words: str
    text: str
    quote: str
    #: The version of the extraction that found it: rules of an older one are found again.
    extraction: int = 0

    @property
    def rule_id(self) -> str:
        """Stable id: document id + rule index, so a repeated extraction overwrites."""
        return f"{self.document_id}:r{self.rule_index}"


class StoredRule(BaseModel):
    """A rule as read back for matching: the unit and its dense vector."""

    rule: RulePoint
    vector: list[float]


class RuleIndex:
    """Writes and reads the rule units of documents (one embedding model, like the chunks)."""

    def __init__(self, client: AsyncQdrantClient, *, model_id: str, dimension: int) -> None:
        self._client = client
        self._model_id = model_id
        self._dimension = dimension

    async def ensure_collection(self) -> None:
        """Create the collection when missing (the chunks' check guards the model and dimension)."""
        if await self._client.collection_exists(RULES_COLLECTION):
            return
        await self._client.create_collection(
            RULES_COLLECTION,
            vectors_config=models.VectorParams(size=self._dimension, distance=models.Distance.COSINE),
            metadata={"embedding_model": self._model_id, "dimension": self._dimension},
        )
        with warnings.catch_warnings():
            warnings.filterwarnings("ignore", message="Payload indexes have no effect in the local Qdrant")
            for field in ("tenant_id", "user_id", "document_id"):
                await self._client.create_payload_index(
                    RULES_COLLECTION, field, models.PayloadSchemaType.KEYWORD
                )

    async def replace_document_rules(
        self, *, tenant_id: str, document_id: str, rules: list[RulePoint], vectors: list[list[float]]
    ) -> None:
        """Make ``rules`` the document's rule units: earlier ones (a previous version of the text) go."""
        if len(rules) != len(vectors):
            raise ValueError("one vector per rule")
        await self.delete_document(tenant_id=tenant_id, document_id=document_id)
        if not rules:
            return
        points = [
            models.PointStruct(
                id=str(uuid.uuid5(_RULE_NAMESPACE, f"{rule.tenant_id}/{rule.rule_id}")),
                vector=vector,
                payload={**rule.model_dump(), "rule_id": rule.rule_id},
            )
            for rule, vector in zip(rules, vectors, strict=True)
        ]
        for start in range(0, len(points), 256):
            await self._client.upsert(RULES_COLLECTION, points=points[start : start + 256], wait=True)

    async def document_rules(self, *, tenant_id: str, user_id: str, document_id: str) -> list[StoredRule]:
        """Every rule unit of one document of this tenant and user, in document order, with vectors."""
        scope = _document_filter(tenant_id, document_id, user_id=user_id)
        stored: list[StoredRule] = []
        offset: models.ExtendedPointId | None = None
        with service_span("rules.read", {"policypal.document_id": document_id}):
            while True:
                records, offset = await self._client.scroll(
                    RULES_COLLECTION,
                    scroll_filter=scope,
                    limit=512,
                    offset=offset,
                    with_payload=True,
                    with_vectors=True,
                )
                for record in records:
                    vector = record.vector.get("") if isinstance(record.vector, dict) else record.vector
                    if isinstance(vector, list) and vector and isinstance(vector[0], float):
                        stored.append(
                            StoredRule(rule=RulePoint.model_validate(record.payload or {}), vector=vector)
                        )
                if offset is None:
                    return sorted(stored, key=lambda s: s.rule.rule_index)

    async def delete_document(self, *, tenant_id: str, document_id: str) -> None:
        """Remove every rule unit of a document."""
        await self._client.delete(
            RULES_COLLECTION,
            points_selector=models.FilterSelector(filter=_document_filter(tenant_id, document_id)),
        )


def _document_filter(tenant_id: str, document_id: str, *, user_id: str | None = None) -> models.Filter:
    must: list[models.Condition] = [
        models.FieldCondition(key="tenant_id", match=models.MatchValue(value=tenant_id)),
        models.FieldCondition(key="document_id", match=models.MatchValue(value=document_id)),
    ]
    if user_id is not None:
        must.append(models.FieldCondition(key="user_id", match=models.MatchValue(value=user_id)))
    return models.Filter(must=must)
