"""What a tenant's website widget answers from: the documents and sets an administrator published.

Customers read exactly these documents, nothing private. A publication names a document (or a set of
one owner's documents); what it covers is worked out on every read from the catalog, so a deleted
document drops out at once, a document replaced by a newer ready version is served in that version,
and a document still being processed is not served until it is ready.
"""

import hashlib
from datetime import datetime
from typing import Literal

from pydantic import BaseModel, Field
from redis.asyncio import Redis

from policypal.contracts.envelope import utc_now
from policypal.state import keys
from policypal.state.documents import DocumentCatalog, DocumentRecord
from policypal.state.sets import set_key


class Publication(BaseModel):
    """One document, or one owner's documents of a set, published to the widget."""

    kind: Literal["document", "set"]
    document_id: str | None = None
    set_name: str | None = None
    owner_id: str = Field(description="The user whose documents these are.")
    published_by: str
    published_at: datetime = Field(default_factory=utc_now)

    @property
    def key(self) -> str:
        """The field the publication is stored under: publishing the same thing twice is one publication."""
        if self.kind == "document":
            return f"document:{self.document_id}"
        return f"set:{self.owner_id}:{set_key(self.set_name or '')}"


def newest_versions(records: list[DocumentRecord]) -> list[DocumentRecord]:
    """``records`` without those superseded by a ready newer version among them."""
    superseded = {r.previous_version_id for r in records if r.previous_version_id and r.status == "ready"}
    return [r for r in records if r.document_id not in superseded]


def revision_fingerprint(records: list[DocumentRecord]) -> str:
    """A hash of the documents' ids, versions and last changes: it changes when any of them does."""
    parts = sorted(f"{r.document_id}:{r.version}:{r.updated_at.isoformat()}" for r in records)
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()[:32]


class PublishedLibrary:
    """Publishes, unpublishes and resolves a tenant's widget documents (one Redis hash per tenant)."""

    def __init__(self, redis: Redis) -> None:
        self._redis = redis
        self._catalog = DocumentCatalog(redis)

    async def publish(self, tenant_id: str, publication: Publication) -> Publication:
        """Store ``publication`` (replacing one for the same document or set)."""
        await self._redis.hset(
            keys.widget_publications(tenant_id), publication.key, publication.model_dump_json()
        )
        return publication

    async def unpublish(self, tenant_id: str, publication_key: str) -> bool:
        """Remove the publication stored under ``publication_key``; False if there was none."""
        return bool(await self._redis.hdel(keys.widget_publications(tenant_id), publication_key))

    async def publications(self, tenant_id: str) -> list[Publication]:
        """The tenant's publications, oldest first."""
        raws = await self._redis.hvals(keys.widget_publications(tenant_id))
        found = [Publication.model_validate_json(raw) for raw in raws]
        return sorted(found, key=lambda p: p.published_at)

    async def documents(self, tenant_id: str) -> list[DocumentRecord]:
        """The ready documents customers may read now, each in its newest ready version."""
        chosen: dict[str, DocumentRecord] = {}
        owners: dict[str, list[DocumentRecord]] = {}
        for publication in await self.publications(tenant_id):
            if publication.owner_id not in owners:
                owners[publication.owner_id] = await self._catalog.list(tenant_id, publication.owner_id)
            library = owners[publication.owner_id]
            for record in _covered(publication, library):
                chosen[record.document_id] = record
        return sorted(chosen.values(), key=lambda r: (r.title.casefold(), r.version))


def _covered(publication: Publication, library: list[DocumentRecord]) -> list[DocumentRecord]:
    """The ready documents of ``library`` that ``publication`` covers, in their newest ready versions."""
    if publication.kind == "set":
        wanted = set_key(publication.set_name or "")
        members = [r for r in library if r.set_name is not None and set_key(r.set_name) == wanted]
        return newest_versions([r for r in members if r.status == "ready"])
    by_id = {r.document_id: r for r in library}
    current = by_id.get(publication.document_id or "")
    if current is None:
        return []
    # Follow the chain of versions forward to the newest one that is ready.
    newest = current if current.status == "ready" else None
    seen = {current.document_id}
    while True:
        successor = next(
            (
                r
                for r in library
                if r.previous_version_id == current.document_id and r.document_id not in seen
            ),
            None,
        )
        if successor is None:
            break
        seen.add(successor.document_id)
        current = successor
        if current.status == "ready":
            newest = current
    return [newest] if newest is not None else []
