"""API keys for other systems: ``pp_<tenant>.<key id>.<secret>``, stored only as a SHA-256 hash.

The tenant travels in the key so its record lives under the tenant's own Redis prefix (no global
index); the secret has 256 bits of entropy, so a plain SHA-256 (not a slow password hash) suffices.
"""

import hashlib
import hmac
import re
import secrets
from datetime import UTC, datetime

from pydantic import BaseModel, Field
from redis.asyncio import Redis

from policypal.auth.tokens import InvalidToken, Principal, Scope
from policypal.contracts.envelope import SafeId

API_KEY_PREFIX = "pp_"
_ID = re.compile(r"^[A-Za-z0-9_-]{1,64}$")


class ApiKeyRecord(BaseModel):
    """What is kept of a key: never the key itself."""

    key_id: SafeId
    tenant_id: SafeId
    name: str
    scopes: list[Scope]
    sha256: str
    created_by: str
    created_at: datetime = Field(default_factory=lambda: datetime.now(UTC))
    revoked_at: datetime | None = None


def _record_key(tenant_id: str, key_id: str) -> str:
    return f"pp:{tenant_id}:apikey:{key_id}"


def _index_key(tenant_id: str) -> str:
    return f"pp:{tenant_id}:apikeys"


def _digest(api_key: str) -> str:
    return hashlib.sha256(api_key.encode()).hexdigest()


def is_api_key(credential: str) -> bool:
    """True when ``credential`` has the shape of a PolicyPal API key (not a JWT)."""
    return credential.startswith(API_KEY_PREFIX)


def parse_api_key(api_key: str) -> tuple[str, str]:
    """The tenant id and key id an API key names; raises ``InvalidToken`` when malformed."""
    parts = api_key.removeprefix(API_KEY_PREFIX).split(".")
    if not is_api_key(api_key) or len(parts) != 3 or not all(_ID.match(part) for part in parts):
        raise InvalidToken("invalid API key: malformed")
    return parts[0], parts[1]


class ApiKeyStore:
    """Create, list, revoke and verify a tenant's API keys in Redis."""

    def __init__(self, redis: Redis) -> None:
        self._redis = redis

    async def create(
        self, tenant_id: str, name: str, scopes: list[Scope], created_by: str
    ) -> tuple[ApiKeyRecord, str]:
        """A new key's record and the key itself (shown once; only its hash is stored)."""
        key_id = secrets.token_hex(8)
        api_key = f"{API_KEY_PREFIX}{tenant_id}.{key_id}.{secrets.token_urlsafe(32)}"
        record = ApiKeyRecord(
            key_id=key_id,
            tenant_id=tenant_id,
            name=name,
            scopes=sorted(set(scopes)),
            sha256=_digest(api_key),
            created_by=created_by,
        )
        async with self._redis.pipeline(transaction=True) as pipe:
            pipe.set(_record_key(tenant_id, key_id), record.model_dump_json())
            pipe.sadd(_index_key(tenant_id), key_id)
            await pipe.execute()
        return record, api_key

    async def get(self, tenant_id: str, key_id: str) -> ApiKeyRecord | None:
        """One key's record, or None."""
        raw = await self._redis.get(_record_key(tenant_id, key_id))
        return ApiKeyRecord.model_validate_json(raw) if raw else None

    async def list(self, tenant_id: str) -> list[ApiKeyRecord]:
        """Every key of the tenant, revoked ones included, oldest first."""
        ids = sorted(str(key_id) for key_id in await self._redis.smembers(_index_key(tenant_id)))
        if not ids:
            return []
        raws = await self._redis.mget([_record_key(tenant_id, key_id) for key_id in ids])
        records = [ApiKeyRecord.model_validate_json(raw) for raw in raws if raw]
        return sorted(records, key=lambda record: record.created_at)

    async def revoke(self, tenant_id: str, key_id: str) -> ApiKeyRecord | None:
        """Mark the key revoked (kept for audit); None when the tenant has no such key."""
        record = await self.get(tenant_id, key_id)
        if record is None:
            return None
        if record.revoked_at is None:
            record = record.model_copy(update={"revoked_at": datetime.now(UTC)})
            await self._redis.set(_record_key(tenant_id, key_id), record.model_dump_json())
        return record

    async def verify(self, api_key: str) -> Principal:
        """The service principal of a valid, unrevoked key; raises ``InvalidToken`` otherwise."""
        tenant_id, key_id = parse_api_key(api_key)
        record = await self.get(tenant_id, key_id)
        if record is None or not hmac.compare_digest(record.sha256, _digest(api_key)):
            raise InvalidToken("invalid API key: unknown")
        if record.revoked_at is not None:
            raise InvalidToken("invalid API key: revoked")
        return Principal(
            tenant_id=record.tenant_id,
            user_id=f"key-{record.key_id}",
            role="service",
            scopes=frozenset(record.scopes),
            key_id=record.key_id,
        )
