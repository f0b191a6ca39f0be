"""The document catalog: one JSON record per document, listed per user."""

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, Field
from redis.asyncio import Redis

from policypal.contracts import DocType
from policypal.contracts.codes import AnyDocumentFailureCode
from policypal.contracts.envelope import utc_now
from policypal.state import keys

DocumentStatus = Literal["processing", "ready", "failed"]


class DocumentRecord(BaseModel):
    """What PolicyPal knows about one uploaded document."""

    document_id: str
    tenant_id: str
    user_id: str
    title: str
    version: str
    doc_type: DocType
    set_name: str | None = None
    filename: str
    content_type: str
    size_bytes: int
    sha256: str
    status: DocumentStatus = "processing"
    pages: int | None = None
    chunks: int | None = None
    parser: str | None = None
    reason_code: AnyDocumentFailureCode | None = None
    reason: str | None = None
    request_id: str
    previous_version_id: str | None = Field(default=None, description="The version this one supersedes.")
    created_at: datetime = Field(default_factory=utc_now)
    updated_at: datetime = Field(default_factory=utc_now)


class DocumentCatalog:
    """Reads and writes document records; every read checks the owner."""

    def __init__(self, redis: Redis) -> None:
        self._redis = redis

    async def create(self, record: DocumentRecord) -> None:
        """Store a new record and list it for its owner."""
        async with self._redis.pipeline(transaction=True) as pipe:
            pipe.set(keys.document(record.tenant_id, record.document_id), record.model_dump_json())
            pipe.zadd(
                keys.user_documents(record.tenant_id, record.user_id),
                {record.document_id: record.created_at.timestamp()},
            )
            pipe.hset(
                keys.user_document_hashes(record.tenant_id, record.user_id), record.sha256, record.document_id
            )
            await pipe.execute()

    async def get(self, tenant_id: str, user_id: str, document_id: str) -> DocumentRecord | None:
        """The record if it exists and belongs to this tenant and user, else None."""
        raw = await self._redis.get(keys.document(tenant_id, document_id))
        if raw is None:
            return None
        record = DocumentRecord.model_validate_json(raw)
        if record.tenant_id != tenant_id or record.user_id != user_id:
            return None
        return record

    async def get_in_tenant(self, tenant_id: str, document_id: str) -> DocumentRecord | None:
        """The record if it exists in this tenant, whoever owns it (for service callers), else None."""
        raw = await self._redis.get(keys.document(tenant_id, document_id))
        if raw is None:
            return None
        record = DocumentRecord.model_validate_json(raw)
        return record if record.tenant_id == tenant_id else None

    async def find_by_sha256(self, tenant_id: str, user_id: str, sha256: str) -> DocumentRecord | None:
        """The user's existing document with exactly these bytes, if any."""
        document_id = await self._redis.hget(keys.user_document_hashes(tenant_id, user_id), sha256)
        if document_id is None:
            return None
        return await self.get(tenant_id, user_id, str(document_id))

    async def list(self, tenant_id: str, user_id: str) -> list[DocumentRecord]:
        """The user's documents, newest first."""
        ids = await self._redis.zrevrange(keys.user_documents(tenant_id, user_id), 0, -1)
        if not ids:
            return []
        raws = await self._redis.mget([keys.document(tenant_id, str(i)) for i in ids])
        return [DocumentRecord.model_validate_json(raw) for raw in raws if raw is not None]

    async def delete(self, record: DocumentRecord) -> None:
        """Remove a record, its listing and its hash entry (only if the hash still points at it)."""
        hashes = keys.user_document_hashes(record.tenant_id, record.user_id)
        async with self._redis.pipeline(transaction=True) as pipe:
            pipe.delete(keys.document(record.tenant_id, record.document_id))
            pipe.zrem(keys.user_documents(record.tenant_id, record.user_id), record.document_id)
            await pipe.execute()
        if await self._redis.hget(hashes, record.sha256) == record.document_id:
            await self._redis.hdel(hashes, record.sha256)

    async def save(self, record: DocumentRecord) -> DocumentRecord:
        """Overwrite a record (status changes), stamping ``updated_at``."""
        updated = record.model_copy(update={"updated_at": utc_now()})
        await self._redis.set(keys.document(record.tenant_id, record.document_id), updated.model_dump_json())
        return updated
