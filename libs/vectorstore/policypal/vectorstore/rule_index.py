"""The ``rules`` collection: one point per normative statement (rule unit) of a document.

A sibling of ``chunks`` (docs/adr/0006-rule-units-and-clause-level-audit.md): rules are sentence-sized, so they get their own
dense vectors, and an audit reads a target's rules whole (a scroll by document, vectors included) to
match every clause of the audited source against them in memory. Payload is scoped by tenant and
user like the chunks'; every read filters by tenant and user, every delete by tenant.
"""

import uuid

from pydantic import BaseModel, Field

from policypal.contracts.audit import Modality
from policypal.telemetry import service_span
from policypal.vectorstore.chunk_place import ChunkPlace
from policypal.vectorstore.point_store import CollectionSpec, PointStore, Scope, StoredPoint

RULES_COLLECTION = "rules"
_RULE_NAMESPACE = uuid.UUID("0c7c1d0e-9a8f-4f37-8a43-53b5a0f3d2e4")


class RulePoint(ChunkPlace):
    """One rule unit: a normative sentence (or list item under a normative lead-in) of a document.

    ``text`` is the rule on one line, footnote marks removed, with its lead-in for a list item: what
    is embedded and matched. ``quote`` is a verbatim slice of the chunk ``chunk_index`` (at most 300
    characters): what a citation shows.
    """

    section: str | None = None
    #: The headings of the numbered sections around ``section``, outermost first ("3.13. /opt : Add-on
    #: application software packages" around "3.13.2. Requirements"): what a part's rules are about.
    enclosing_sections: list[str] = Field(default_factory=list)
    rule_index: int
    modality: Modality
    modal_words: str
    text: str
    quote: str
    #: The version of the extraction that found it: rules of an older one are found again.
    extraction: int = 0
    #: How many rule units the extraction found in the whole document, so a read that gets fewer
    #: (a write cut short, or still under way) is known to be incomplete. None: written before it
    #: was kept, when rules were written whole before the document was ready.
    document_rules: int | None = None
    #: What the rule's subject refers back to when it names no thing itself ("the file
    #: /usr/share/doc/package/copyright" for "This file must neither be compressed …"): read from the
    #: statement before it (``policypal.rules.referents``). None: its subject names its thing.
    referent: str | None = None

    @property
    def rule_id(self) -> str:
        """Stable id: document id + rule index, so a repeated extraction overwrites."""
        return f"{self.document_id}:r{self.rule_index}"


class StoredRule(BaseModel):
    """A rule as read back for matching: the unit and its dense vector."""

    rule: RulePoint
    vector: list[float]


def rule_collection(*, model_id: str, dimension: int) -> CollectionSpec:
    """The ``rules`` collection of an embedding model (dense vectors only)."""
    return CollectionSpec(
        name=RULES_COLLECTION,
        dimension=dimension,
        metadata={"embedding_model": model_id, "dimension": dimension},
        keyword_fields=("tenant_id", "user_id", "document_id"),
    )


class RuleIndex:
    """Writes and reads the rule units of documents (one embedding model, like the chunks)."""

    def __init__(self, store: PointStore, *, model_id: str, dimension: int) -> None:
        self._store = store
        self._model_id = model_id
        self._dimension = dimension

    async def ensure_collection(self) -> None:
        """Create the collection when missing (the chunks' check guards the model and dimension)."""
        if await self._store.describe(RULES_COLLECTION) is None:
            await self._store.create(rule_collection(model_id=self._model_id, dimension=self._dimension))

    async def replace_document_rules(
        self, *, tenant_id: str, document_id: str, rules: list[RulePoint], vectors: list[list[float]]
    ) -> list[StoredRule]:
        """Make ``rules`` the document's rule units (earlier ones go); returns them as stored, each
        with the document's rule count."""
        if len(rules) != len(vectors):
            raise ValueError("one vector per rule")
        await self.delete_document(tenant_id=tenant_id, document_id=document_id)
        stored = [
            StoredRule(rule=rule.model_copy(update={"document_rules": len(rules)}), vector=vector)
            for rule, vector in zip(rules, vectors, strict=True)
        ]
        points = [
            StoredPoint(
                id=str(uuid.uuid5(_RULE_NAMESPACE, f"{s.rule.tenant_id}/{s.rule.rule_id}")),
                dense=s.vector,
                payload={**s.rule.model_dump(mode="json"), "rule_id": s.rule.rule_id},
            )
            for s in stored
        ]
        for start in range(0, len(points), 256):
            await self._store.upsert(RULES_COLLECTION, points[start : start + 256])
        return stored

    async def document_rules(self, *, tenant_id: str, user_id: str, document_id: str) -> list[StoredRule]:
        """Every rule unit of one document of this tenant and user, in document order, with vectors."""
        scope = Scope(equals={"tenant_id": tenant_id, "document_id": document_id, "user_id": user_id})
        with service_span("rules.read", {"policypal.document_id": document_id}):
            found = await self._store.scroll(RULES_COLLECTION, scope, with_vectors=True)
        stored = [
            StoredRule(rule=RulePoint.model_validate(point.payload), vector=point.dense)
            for point in found
            if point.dense
        ]
        return sorted(stored, key=lambda s: s.rule.rule_index)

    async def delete_document(self, *, tenant_id: str, document_id: str) -> None:
        """Remove every rule unit of a document."""
        await self._store.delete(
            RULES_COLLECTION, Scope(equals={"tenant_id": tenant_id, "document_id": document_id})
        )
