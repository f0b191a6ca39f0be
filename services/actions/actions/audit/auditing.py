"""One @Audit request (seed 000, dual mode): a short text, or a policy document by its themes.

Text mode embeds the whole text and each statement and searches every target with them. Policy mode
samples 10 chunks across the source document, groups their sentences into 3-5 themes and searches
every target once per theme. Either way each statement meets its best passage in each target.
"""

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from actions.audit.findings import Tally, best_matches, tally
from actions.audit.report import AuditScope, compose_audit
from actions.audit.statements import SourceStatement, document_statement, text_statements
from actions.extracts import Extract, embed_extracts, embed_texts, sentence_extracts
from actions.request_lifecycle import OfflineAnswer, Progress, Refusal
from actions.stratified_sampling import sample_document
from actions.themes import find_themes
from policypal.contracts import ActionRequested, ResolvedDocument
from policypal.embeddings import Embedder
from policypal.vectorstore import ChunkHit, ChunkIndex

MAX_TARGETS = 5
#: Seed 000: text mode 3-5 chunks per target; policy mode 10 source chunks, 2-3 per target per theme.
TEXT_CHUNKS_PER_TARGET = 5
STATEMENT_CHUNKS_PER_TARGET = 3
POLICY_SAMPLE = 10
THEME_CHUNKS_PER_TARGET = 3


async def audit(
    event: ActionRequested, progress: Progress, *, index: ChunkIndex, embedder: Embedder
) -> OfflineAnswer:
    """The offline audit of the request's source against its 1-5 targets."""
    targets = _targets(event)
    if event.source_document_id is not None:
        return await _policy_mode(event, targets, progress, index=index, embedder=embedder)
    if event.source_text and event.source_text.strip():
        return await _text_mode(event, event.source_text, targets, progress, index=index, embedder=embedder)
    raise Refusal(
        "audit_needs_source",
        "Please tag the policy to audit, or paste the text to audit, with the regulations to audit it against.",
    )


async def _text_mode(
    event: ActionRequested,
    source_text: str,
    targets: list[ResolvedDocument],
    progress: Progress,
    *,
    index: ChunkIndex,
    embedder: Embedder,
) -> OfflineAnswer:
    statements = text_statements(source_text)
    if not statements:
        raise Refusal("audit_needs_source", "The text to audit has no complete sentence to check.")
    await progress("retrieving", f"Searching {_titles(targets)} for each statement of your text…")
    vectors = await embed_texts(embedder, [" ".join(source_text.split()), *(s.plain for s in statements)])
    whole, statement_vectors = vectors[0], vectors[1:]
    tallies = []
    for target in targets:
        chunks = await _search(event, target, whole, TEXT_CHUNKS_PER_TARGET, index)
        for vector in statement_vectors:
            chunks += await _search(event, target, vector, STATEMENT_CHUNKS_PER_TARGET, index)
        tallies.append(await _check(statements, statement_vectors, target, _unique(chunks), embedder))
    await progress("auditing", "Matching each statement to the closest target passages…")
    scope = AuditScope("text", "the text you provided", None, targets, len(statements), None)
    return compose_audit(scope, tallies)


async def _policy_mode(
    event: ActionRequested,
    targets: list[ResolvedDocument],
    progress: Progress,
    *,
    index: ChunkIndex,
    embedder: Embedder,
) -> OfflineAnswer:
    source_id = event.source_document_id
    assert source_id is not None  # checked by the caller
    source = next((d for d in event.documents if d.document_id == source_id), None)
    source_title = f"“{source.title}” ({source.version})" if source else "the tagged policy"
    await progress("sampling", f"Reading passages from beginning to end of {source_title}…")
    sample = await sample_document(
        index,
        tenant_id=event.tenant_id,
        user_id=event.user_id,
        document_id=source_id,
        minimum=POLICY_SAMPLE,
        maximum=POLICY_SAMPLE,
    )
    extracts = sentence_extracts(sample.chunks)
    if not extracts:
        raise Refusal(
            "audit_source_empty", f"No indexed text was found in {source_title}; it may still be processing."
        )
    vectors = await embed_extracts(embedder, extracts)
    themes = find_themes([e.plain for e in extracts], vectors)
    await progress("extracting_themes", "Themes: " + "; ".join(theme.name for theme in themes) + ".")
    await progress("retrieving", f"Searching {_titles(targets)} theme by theme…")
    matches_by_target: list[list[tuple[SourceStatement, Extract, float] | None]] = [[] for _ in targets]
    for theme in themes:
        statements = [document_statement(extracts[i], theme.name) for i in theme.members]
        for t, target in enumerate(targets):
            chunks = await _search(event, target, theme.centroid, THEME_CHUNKS_PER_TARGET, index)
            passages = sentence_extracts(chunks)
            passage_vectors = await embed_extracts(embedder, passages)
            for statement, best in zip(
                statements,
                best_matches(statements, vectors[theme.members], passages, passage_vectors),
                strict=True,
            ):
                matches_by_target[t].append(None if best is None else (statement, passages[best[0]], best[1]))
    await progress("auditing", "Matching each statement to the closest target passages…")
    tallies = [tally(matches, target) for matches, target in zip(matches_by_target, targets, strict=True)]
    scope = AuditScope("policy", source_title, source_id, targets, len(extracts), len(themes))
    return compose_audit(scope, tallies)


async def _check(
    statements: Sequence[SourceStatement],
    statement_vectors: npt.NDArray[np.float32],
    target: ResolvedDocument,
    chunks: Sequence[ChunkHit],
    embedder: Embedder,
) -> Tally:
    passages = sentence_extracts(chunks)
    passage_vectors = await embed_extracts(embedder, passages)
    best = best_matches(statements, statement_vectors, passages, passage_vectors)
    return tally(
        [None if b is None else (s, passages[b[0]], b[1]) for s, b in zip(statements, best, strict=True)],
        target,
    )


async def _search(
    event: ActionRequested,
    target: ResolvedDocument,
    vector: npt.NDArray[np.float32],
    limit: int,
    index: ChunkIndex,
) -> list[ChunkHit]:
    return await index.search(
        vector.tolist(),
        tenant_id=event.tenant_id,
        user_id=event.user_id,
        document_ids=[target.document_id],
        limit=limit,
    )


def _targets(event: ActionRequested) -> list[ResolvedDocument]:
    """The documents to audit against: the request's targets, else every document but the source."""
    wanted = event.target_document_ids or [
        d.document_id for d in event.documents if d.document_id != event.source_document_id
    ]
    targets = [
        d for d in event.documents if d.document_id in wanted and d.document_id != event.source_document_id
    ]
    if not targets:
        raise Refusal(
            "audit_needs_targets", "Please tag the regulations to audit against (1 to 5 documents)."
        )
    if len(targets) > MAX_TARGETS:
        raise Refusal("too_many_documents", f"Please tag at most {MAX_TARGETS} documents to audit against.")
    return targets


def _unique(chunks: Sequence[ChunkHit]) -> list[ChunkHit]:
    seen: dict[str, ChunkHit] = {}
    for chunk in chunks:
        seen.setdefault(chunk.chunk_id, chunk)
    return sorted(seen.values(), key=lambda c: c.chunk_index)


def _titles(documents: Sequence[ResolvedDocument]) -> str:
    return ", ".join(f"“{d.title}”" for d in documents)
