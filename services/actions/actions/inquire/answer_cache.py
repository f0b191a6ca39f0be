"""A per-tenant semantic cache of drafted answers (docs/product.md, Semantic answer cache; ADR 0004), scoped to the exact documents searched.

A question asked again, or asked in other words that mean the same, is answered from the cache
instead of the language model, and the response says so (``cached``). An entry is keyed by:

- the scope: tenant, the documents in scope with their version and last change (so re-indexing,
  replacing or deleting any of them makes every entry of that scope unreachable), the answer model
  and the user's industry and location (both shape the prompt). With no document tagged the scope
  is all of the user's documents, so the user is part of it. A widget customer's scope is the
  tenant's published documents, shared by all its customers (publishing or unpublishing one is a
  new scope);
- the rewritten query, matched by embedding similarity and the same content terms
  (``actions/inquire/question_match.py``): a paraphrase hits, a question that swaps an entity, an
  action, a number or a negation for another never does. Calibration: docs/benchmarks.md.
"""

import hashlib
import json
import time
import uuid
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
from pydantic import BaseModel
from redis.asyncio import Redis

from actions.inquire.answer import InquiryAnswer
from actions.inquire.confidence import Confidence
from actions.inquire.question_match import same_question
from policypal.contracts import ActionRequested, Citation, ConfidenceTier, Usage
from policypal.state import DocumentCatalog, DocumentRecord
from policypal.state.keys import answer_cache

#: Entries kept per scope (the oldest go first) and how long an unused scope lives.
MAX_ENTRIES = 200
TTL_SECONDS = 7 * 24 * 3600


class CachedEntry(BaseModel):
    """One drafted answer as stored: what the response needs, and the query that produced it."""

    query: str
    vector: list[float]
    answer: str
    citations: list[Citation]
    model: str
    confidence_score: float | None = None
    confidence_tier: ConfidenceTier | None = None
    created: float


@dataclass(frozen=True)
class CacheScope:
    """Where entries may be shared: a hash of everything besides the question that shapes the answer."""

    tenant_id: str
    fingerprint: str


def _revision(record: DocumentRecord) -> str:
    return f"{record.document_id}:{record.version}:{record.updated_at.isoformat()}"


class AnswerCache:
    """Reads and writes cached answers in Redis; one hash per scope, entries matched in process."""

    def __init__(self, redis: Redis) -> None:
        self._redis = redis
        self._catalog = DocumentCatalog(redis)

    async def scope(self, event: ActionRequested, *, model: str) -> CacheScope | None:
        """The cache scope of ``event``; None when it cannot be cached (a tagged document is missing)."""
        if event.documents:
            # A widget customer's documents are the tenant's published ones, owned by its users.
            found = [
                await self._catalog.get_in_tenant(event.tenant_id, doc.document_id)
                if event.published_scope
                else await self._catalog.get(event.tenant_id, event.user_id, doc.document_id)
                for doc in event.documents
            ]
            if any(record is None or record.status != "ready" for record in found):
                return None
            records = [record for record in found if record is not None]
            owner = None
        else:
            records = [
                r for r in await self._catalog.list(event.tenant_id, event.user_id) if r.status == "ready"
            ]
            owner = event.user_id
        parts = {
            "documents": sorted(_revision(record) for record in records),
            "user": owner,
            "model": model,
            "industry": event.user_context.industry,
            "location": event.user_context.location,
            "published": event.published_scope,
        }
        digest = hashlib.sha256(json.dumps(parts, sort_keys=True).encode()).hexdigest()
        return CacheScope(event.tenant_id, digest)

    async def lookup(
        self, scope: CacheScope, query: str, vector: npt.NDArray[np.float32]
    ) -> InquiryAnswer | None:
        """The cached answer to ``query`` in ``scope``, or None."""
        stored = await self._redis.hgetall(answer_cache(scope.tenant_id, scope.fingerprint))
        best: tuple[float, CachedEntry] | None = None
        for raw in stored.values():
            entry = CachedEntry.model_validate_json(raw)
            similarity = float(np.dot(vector, np.asarray(entry.vector, dtype=np.float32)))
            if same_question(query, entry.query, similarity) and (best is None or similarity > best[0]):
                best = (similarity, entry)
        if best is None:
            return None
        entry = best[1]
        confidence = (
            Confidence(tier=entry.confidence_tier, score=entry.confidence_score)
            if entry.confidence_score is not None and entry.confidence_tier is not None
            else None
        )
        return InquiryAnswer(
            answer=entry.answer,
            citations=entry.citations,
            model=entry.model,
            usage=Usage(),
            confidence=confidence,
            cached=True,
        )

    async def store(
        self, scope: CacheScope, query: str, vector: npt.NDArray[np.float32], answer: InquiryAnswer
    ) -> None:
        """Keep ``answer`` for ``query``; the scope's oldest entries go beyond ``MAX_ENTRIES``."""
        key = answer_cache(scope.tenant_id, scope.fingerprint)
        entry = CachedEntry(
            query=query,
            vector=[float(x) for x in vector],
            answer=answer.answer,
            citations=answer.citations,
            model=answer.model,
            confidence_score=answer.confidence.score if answer.confidence else None,
            confidence_tier=answer.confidence.tier if answer.confidence else None,
            created=time.time(),
        )
        async with self._redis.pipeline(transaction=True) as pipe:
            pipe.hset(key, uuid.uuid4().hex, entry.model_dump_json())
            pipe.expire(key, TTL_SECONDS)
            await pipe.execute()
        await self._trim(key)

    async def _trim(self, key: str) -> None:
        stored = await self._redis.hgetall(key)
        if len(stored) <= MAX_ENTRIES:
            return
        by_age = sorted(stored, key=lambda field: CachedEntry.model_validate_json(stored[field]).created)
        await self._redis.hdel(key, *by_age[: len(stored) - MAX_ENTRIES])
