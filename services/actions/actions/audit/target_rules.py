"""A target's rule units, as ingestion stored them, or found now when they are missing or outdated.

A document indexed before rule units existed has chunks but no rules, and one indexed by an older
extraction has rules it would find differently now: either way its rules are found from its chunks
with the ingestor's own extraction, embedded, and stored, so the next audit reads them. A document
with no normative statement at all has none, and the report says so.
"""

import asyncio

from actions.sentences import embed_texts
from policypal.contracts import ActionRequested, ResolvedDocument
from policypal.embeddings import Embedder
from policypal.rules import EXTRACTION_VERSION, boilerplate_chunks, rule_units
from policypal.vectorstore import ChunkIndex, StoredRule


async def target_rules(
    event: ActionRequested, target: ResolvedDocument, *, index: ChunkIndex, embedder: Embedder
) -> list[StoredRule]:
    """The rule units of ``target`` (this tenant's and user's), found and stored now when missing."""
    stored = await index.rules.document_rules(
        tenant_id=event.tenant_id, user_id=event.user_id, document_id=target.document_id
    )
    if stored and all(s.rule.extraction == EXTRACTION_VERSION for s in stored):
        return stored
    chunks = await index.document_chunks(
        tenant_id=event.tenant_id, user_id=event.user_id, document_id=target.document_id
    )
    if not chunks:
        return []
    boilerplate = await asyncio.to_thread(boilerplate_chunks, chunks)
    rules = await asyncio.to_thread(rule_units, chunks, boilerplate=boilerplate)
    if not rules:
        return []
    vectors = (await embed_texts(embedder, [rule.text for rule in rules])).tolist()
    await index.rules.replace_document_rules(
        tenant_id=event.tenant_id, document_id=target.document_id, rules=rules, vectors=vectors
    )
    return [StoredRule(rule=rule, vector=vector) for rule, vector in zip(rules, vectors, strict=True)]
