"""Where a stored passage or rule stands: its tenant, user, document, page and chunk."""

from pydantic import BaseModel

from policypal.contracts import DocType

#: The payload fields searches and deletes filter on: indexed in every collection of places.
SCOPE_FIELDS = ("tenant_id", "user_id", "document_id", "set_name", "doc_type")
#: Integer payload fields filtered by range (a document's chunks from an index on).
INTEGER_FIELDS = ("chunk_index",)


class ChunkPlace(BaseModel):
    """A place in one document's chunks, with everything a citation needs but the quote."""

    tenant_id: str
    user_id: str
    document_id: str
    title: str
    version: str
    doc_type: DocType
    set_name: str | None = None
    page: int | None = None
    chunk_index: int

    @property
    def chunk_id(self) -> str:
        """Stable id: document id + index, so a repeated ingest overwrites instead of duplicating."""
        return f"{self.document_id}:{self.chunk_index}"
