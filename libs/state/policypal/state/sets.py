"""Document sets of a tenant: a name and a colour, shared by the tenant's users."""

from datetime import datetime

from pydantic import BaseModel, Field
from redis.asyncio import Redis

from policypal.contracts.envelope import utc_now
from policypal.state import keys


def set_key(name: str) -> str:
    """The field a set is stored under: names differing only in case or spacing are one set."""
    return " ".join(name.split()).casefold()


class DocumentSet(BaseModel):
    """A named group of documents, e.g. "HR policies", shown with its colour."""

    tenant_id: str
    name: str
    colour: str
    created_by: str
    created_at: datetime = Field(default_factory=utc_now)


class SetStore:
    """The tenant's sets in one Redis hash; a name is unique within the tenant, whatever its case."""

    def __init__(self, redis: Redis) -> None:
        self._redis = redis

    async def add(self, document_set: DocumentSet) -> DocumentSet:
        """Store a new set; if the name is taken, the set already stored under it is returned unchanged."""
        key = keys.document_sets(document_set.tenant_id)
        field = set_key(document_set.name)
        if await self._redis.hsetnx(key, field, document_set.model_dump_json()):
            return document_set
        existing = await self._redis.hget(key, field)
        # Sets are never deleted, so a field HSETNX found taken is still there.
        return DocumentSet.model_validate_json(existing) if existing is not None else document_set

    async def get(self, tenant_id: str, name: str) -> DocumentSet | None:
        """The tenant's set called ``name`` (any case), or None."""
        raw = await self._redis.hget(keys.document_sets(tenant_id), set_key(name))
        return None if raw is None else DocumentSet.model_validate_json(raw)

    async def list(self, tenant_id: str) -> list[DocumentSet]:
        """The tenant's sets, by name."""
        raws = await self._redis.hvals(keys.document_sets(tenant_id))
        return sorted((DocumentSet.model_validate_json(raw) for raw in raws), key=lambda s: set_key(s.name))
