"""A target's rule units: as prepared once the document was ready, or found now when missing.

Rule units are found after a document is ready, on the model's idle lane (``prepare_rules``, from
the audit worker's ``document.ready`` durable), not on the way to ``document.ready``: a rule is only
read by an audit, and embedding them was a quarter of an ingestion (docs/adr/0019). So an audit can
meet a target whose rules are not there yet, or only partly written, or found by an older
extraction: then its rules are found from its chunks with the same extraction, embedded on the
audit's own lane, and stored, so the next audit reads them. A document with no normative statement
at all has none, and the report says so.
"""

import asyncio

from actions.sentences import embed_texts
from policypal.contracts import ActionRequested, DocumentReady, ResolvedDocument
from policypal.embeddings import Embedder
from policypal.rules import EXTRACTION_VERSION, boilerplate_chunks, rule_units
from policypal.vectorstore import ChunkIndex, StoredRule


async def target_rules(
    event: ActionRequested, target: ResolvedDocument, *, index: ChunkIndex, embedder: Embedder
) -> list[StoredRule]:
    """The rule units of ``target`` (this tenant's and user's), found and stored now when missing."""
    return await document_rules(
        index, embedder, tenant_id=event.tenant_id, user_id=event.user_id, document_id=target.document_id
    )


async def prepare_rules(event: DocumentReady, *, index: ChunkIndex, embedder: Embedder) -> int:
    """Find and keep the rule units of the ready document unless current ones are kept; how many.

    A document deleted meanwhile keeps none: its rules are removed again once written, so no rule
    outlives its chunks.
    """
    rules = await document_rules(
        index, embedder, tenant_id=event.tenant_id, user_id=event.user_id, document_id=event.document_id
    )
    if rules and not await index.count(tenant_id=event.tenant_id, document_id=event.document_id):
        await index.rules.delete_document(tenant_id=event.tenant_id, document_id=event.document_id)
        return 0
    return len(rules)


async def document_rules(
    index: ChunkIndex, embedder: Embedder, *, tenant_id: str, user_id: str, document_id: str
) -> list[StoredRule]:
    """A document's rule units as kept when whole and current (``is_current``), else found now."""
    stored = await index.rules.document_rules(tenant_id=tenant_id, user_id=user_id, document_id=document_id)
    if is_current(stored):
        return stored
    return await find_rules(index, embedder, tenant_id=tenant_id, user_id=user_id, document_id=document_id)


def is_current(stored: list[StoredRule]) -> bool:
    """Whether ``stored`` is a document's whole rule set, as the current extraction finds it.

    Fewer than the extraction found (``RulePoint.document_rules``) means a write was cut short or is
    under way; rules written before that count was kept were written whole, before the document was
    ready.
    """
    return bool(stored) and all(
        s.rule.extraction == EXTRACTION_VERSION and s.rule.document_rules in (None, len(stored))
        for s in stored
    )


async def find_rules(
    index: ChunkIndex, embedder: Embedder, *, tenant_id: str, user_id: str, document_id: str
) -> list[StoredRule]:
    """Find a document's rule units in its chunks, embed them and make them its rules."""
    chunks = await index.document_chunks(tenant_id=tenant_id, user_id=user_id, document_id=document_id)
    if not chunks:
        return []
    boilerplate = await asyncio.to_thread(boilerplate_chunks, chunks)
    rules = await asyncio.to_thread(rule_units, chunks, boilerplate=boilerplate)
    if not rules:
        return []
    # "This file must neither be compressed …" means what its subject refers to: embedded with it.
    texts = [f"{rule.text} ({rule.referent})" if rule.referent else rule.text for rule in rules]
    vectors = (await embed_texts(embedder, texts)).tolist()
    return await index.rules.replace_document_rules(
        tenant_id=tenant_id, document_id=document_id, rules=rules, vectors=vectors
    )
