"""One @Audit request (seed 000, dual mode): a short text, or a policy document by its themes.

Text mode embeds the whole text and each statement and searches every target with them. Policy mode
samples 10 chunks across the source document, groups their sentences into 3-5 themes and searches
every target once per theme. Either way each statement meets its best passage in each target.
"""

import logging
from collections.abc import Sequence
from dataclasses import replace

import numpy as np
import numpy.typing as npt

from actions.audit.drafted_audit import AuditEvidence, draft_audit, extract_themes
from actions.audit.findings import Tally, best_matches, tally
from actions.audit.report import AuditScope, compose_audit
from actions.audit.statements import SourceStatement, document_statement, text_statements
from actions.drafting import llm_fallback_notice
from actions.extracts import Extract, embed_extracts, sentence_extracts
from actions.request_lifecycle import ActionAnswer, OnDelta, Progress, Refusal
from actions.sentences import embed_texts
from actions.stratified_sampling import sample_document
from actions.themes import find_themes
from policypal.contracts import ActionRequested, ResolvedDocument, Usage
from policypal.embeddings import Embedder
from policypal.llm import LLM, LLMError
from policypal.vectorstore import ChunkHit, ChunkIndex, ChunkPoint

logger = logging.getLogger(__name__)

MAX_TARGETS = 5
#: Seed 000: text mode 3-5 chunks per target; policy mode 10 source chunks, 2-3 per target per theme.
TEXT_CHUNKS_PER_TARGET = 5
STATEMENT_CHUNKS_PER_TARGET = 3
POLICY_SAMPLE = 10
THEME_CHUNKS_PER_TARGET = 3


async def audit(
    event: ActionRequested,
    progress: Progress,
    tokens: OnDelta | None = None,
    *,
    index: ChunkIndex,
    embedder: Embedder,
    llm: LLM | None = None,
) -> ActionAnswer:
    """The audit of the request's source against its 1-5 targets.

    With an ``llm`` the model audits (structured result, quotes verified); without one, or when the
    model fails after its retries, it is the offline audit (then with a notice). The structured reply
    is not streamed, so ``tokens`` receives nothing.
    """
    targets = _targets(event)
    source_text = event.source_text if event.source_text and event.source_text.strip() else None
    if event.source_document_id is None and source_text is None:
        raise Refusal(
            "audit_needs_source",
            "Please tag the policy to audit, or paste the text to audit, with the regulations to audit it against.",
        )
    # After a failed model the offline audit goes through the same stages: the user sees each once.
    progress = _each_stage_once(progress)
    # Policy mode reads the source once, whichever path audits it.
    source = await _source_sample(event, progress, index) if event.source_document_id is not None else None
    notices = []
    if llm is not None:
        try:
            return await _drafted(
                event, source_text, source, targets, progress, index=index, embedder=embedder, llm=llm
            )
        except LLMError as exc:
            logger.warning("audit answered offline: %s", exc)
            notices.append(llm_fallback_notice("audit"))
    if source is not None:
        answer = await _policy_mode(event, source, targets, progress, index=index, embedder=embedder)
    else:
        assert source_text is not None  # checked above
        answer = await _text_mode(event, source_text, targets, progress, index=index, embedder=embedder)
    return replace(answer, notices=notices)


def _each_stage_once(progress: Progress) -> Progress:
    """``progress`` that publishes the first status of each stage and drops any later one."""
    published: set[str] = set()

    async def report(stage: str, message: str) -> None:
        if stage not in published:
            published.add(stage)
            await progress(stage, message)

    return report


async def _drafted(
    event: ActionRequested,
    source_text: str | None,
    source: tuple[str, list[ChunkPoint]] | None,
    targets: list[ResolvedDocument],
    progress: Progress,
    *,
    index: ChunkIndex,
    embedder: Embedder,
    llm: LLM,
) -> ActionAnswer:
    """Gather the evidence as seed 000's dual mode says, then let the model audit it.

    ``source`` is the policy's title and sample in policy mode, None in text mode.
    """
    if source is None:
        assert source_text is not None  # checked by the caller
        statements = text_statements(source_text)
        await progress("retrieving", f"Searching {_titles(targets)} for the passages closest to your text…")
        [whole] = await embed_texts(embedder, [" ".join(source_text.split())])
        passages = [await _search(event, target, whole, TEXT_CHUNKS_PER_TARGET, index) for target in targets]
        evidence = AuditEvidence(
            "text", "the text you provided", None, source_text, [], targets, passages, None, len(statements)
        )
        usage = Usage()
    else:
        source_title, sample = source
        themes, usage = await extract_themes(event, sample, llm)
        await progress("extracting_themes", "Themes: " + "; ".join(themes) + ".")
        await progress("retrieving", f"Searching {_titles(targets)} theme by theme…")
        vectors = await embed_texts(embedder, themes)
        passages = []
        for target in targets:
            found: list[ChunkHit] = []
            for vector in vectors:
                found += await _search(event, target, vector, THEME_CHUNKS_PER_TARGET, index)
            passages.append(_unique(found))
        evidence = AuditEvidence(
            "policy",
            source_title,
            event.source_document_id,
            None,
            sample,
            targets,
            passages,
            themes,
            len(sample),
        )
    await progress("auditing", "Auditing the source against each target document…")
    return await draft_audit(event, evidence, llm=llm, usage=usage)


async def _source_sample(
    event: ActionRequested, progress: Progress, index: ChunkIndex
) -> tuple[str, list[ChunkPoint]]:
    """Policy mode: the source's title and POLICY_SAMPLE chunks spread over it (refused when empty)."""
    source_id = event.source_document_id
    assert source_id is not None  # policy mode
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
    if not sample.chunks:
        raise Refusal(
            "audit_source_empty", f"No indexed text was found in {source_title}; it may still be processing."
        )
    return source_title, sample.chunks


async def _text_mode(
    event: ActionRequested,
    source_text: str,
    targets: list[ResolvedDocument],
    progress: Progress,
    *,
    index: ChunkIndex,
    embedder: Embedder,
) -> ActionAnswer:
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
    source: tuple[str, list[ChunkPoint]],
    targets: list[ResolvedDocument],
    progress: Progress,
    *,
    index: ChunkIndex,
    embedder: Embedder,
) -> ActionAnswer:
    source_title, sample = source
    extracts = sentence_extracts(sample)
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
            hits = await _search(event, target, theme.centroid, THEME_CHUNKS_PER_TARGET, index)
            passages = sentence_extracts(hits)
            passage_vectors = await embed_extracts(embedder, passages)
            for statement, best in zip(
                statements,
                best_matches(statements, vectors[theme.members], passages, passage_vectors),
                strict=True,
            ):
                matches_by_target[t].append(None if best is None else (statement, passages[best[0]], best[1]))
    await progress("auditing", "Matching each statement to the closest target passages…")
    tallies = [tally(matches, target) for matches, target in zip(matches_by_target, targets, strict=True)]
    scope = AuditScope("policy", source_title, event.source_document_id, targets, len(extracts), len(themes))
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
