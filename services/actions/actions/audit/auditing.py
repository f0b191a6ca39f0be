"""One @Audit request: every clause of the source checked against the rules that govern it in each target.

The source is a pasted text (an e-mail, a paragraph) or a whole indexed policy; either way it is cut
into clauses, all of them checked. Each target's rule units (its normative statements, found at
ingestion) are matched to the clauses in memory (``matching``); each clause and its governing rules are
then judged, offline by the rules' and clauses' own words (``judgement``), or by a language model
given only those candidate pairs (``drafted_audit``). For a policy, coverage says which rules of the
sections it touches it addresses, contradicts or never mentions.
"""

import logging
from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np
import numpy.typing as npt

from actions.audit.checking import TargetCheck, check_target
from actions.audit.clauses import Clause, policy_clauses, text_clauses
from actions.audit.coverage import target_coverage
from actions.audit.drafted_audit import draft_checks
from actions.audit.lexicon import act_lexicon
from actions.audit.matching import Matched, TargetRules, governing_rules
from actions.audit.report import AuditScope, compose_audit
from actions.audit.target_rules import target_rules
from actions.drafting import document_name, llm_fallback_notice
from actions.lifecycle.request import ActionAnswer, OnDelta, Progress
from actions.sentences import embed_texts
from policypal.contracts import ActionRequested, ResolvedDocument, Usage, audit_options
from policypal.contracts.codes import ErrorCode, StatusStage
from policypal.contracts.limits import MAX_DOCUMENTS
from policypal.embeddings import Embedder
from policypal.llm import LLM, LLMError
from policypal.state import Refusal
from policypal.vectorstore import ChunkIndex

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class AuditSource:
    """The audited source: its title as shown, its clauses, and its document id in policy mode."""

    title: str
    clauses: list[Clause]
    document_id: str | None


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

    With an ``llm`` the model judges the candidate clause-rule pairs (in batches); without one, or when
    the model fails after its retries, the offline judgement does (then with a notice). Nothing is
    streamed, so ``tokens`` receives nothing.
    """
    targets = _targets(event)
    source = await _source(event, progress, index)
    await progress(StatusStage.RETRIEVING, f"Reading the rules of {_titles(targets)}…")
    vectors = await embed_texts(embedder, [clause.text for clause in source.clauses])
    matched = [await _match(event, target, source.clauses, vectors, index, embedder) for target in targets]
    without_rules = [m.target.document_id for m in matched if not m.binding]
    scope = AuditScope(
        "policy" if source.document_id else "text",
        source.title,
        source.document_id,
        targets,
        len(source.clauses),
        without_rules,
    )
    await progress(
        StatusStage.AUDITING, f"Checking {len(source.clauses)} clauses against the rules that govern them…"
    )
    notices: list[str] = []
    if llm is not None:
        try:
            checks, usage, model = await draft_checks(event, source.clauses, matched, llm=llm)
            return replace(_composed(scope, source, checks, matched), model=model, usage=usage)
        except LLMError as exc:
            logger.warning("audit judged offline: %s", exc)
            notices.append(llm_fallback_notice("audit"))
    lexicon = await act_lexicon(embedder, source.clauses, matched)
    checks = [
        check_target(source.clauses, m.candidates, m.target, m.binding, m.rules.rarity, lexicon)
        for m in matched
    ]
    return replace(_composed(scope, source, checks, matched), notices=notices, usage=Usage())


def _composed(
    scope: AuditScope, source: AuditSource, checks: Sequence[TargetCheck], matched: Sequence[Matched]
) -> ActionAnswer:
    coverage = (
        [target_coverage(check, m.rules.rules) for check, m in zip(checks, matched, strict=True)]
        if source.document_id
        else []
    )
    return compose_audit(scope, checks, coverage)


async def _source(event: ActionRequested, progress: Progress, index: ChunkIndex) -> AuditSource:
    """The clauses to check; refused with a clear reason when there are none or the text is too long."""
    options = audit_options(event)
    if options.source_document_id is not None:
        document = next((d for d in event.documents if d.document_id == options.source_document_id), None)
        title = document_name(document) if document else "the tagged policy"
        await progress(StatusStage.SAMPLING, f"Reading {title} clause by clause…")
        chunks = await index.document_chunks(
            tenant_id=event.tenant_id, user_id=event.user_id, document_id=options.source_document_id
        )
        if not chunks:
            raise Refusal(
                ErrorCode.AUDIT_SOURCE_EMPTY,
                f"No indexed text was found in {title}; it may still be processing.",
            )
        clauses = policy_clauses(chunks)
        if not clauses:
            raise Refusal(
                ErrorCode.AUDIT_NEEDS_SOURCE,
                f"{title} has headings but no sentence that states anything to check.",
            )
        return AuditSource(title, clauses, options.source_document_id)
    text = options.source_text if options.source_text and options.source_text.strip() else None
    if text is None:
        raise Refusal(
            ErrorCode.AUDIT_NEEDS_SOURCE,
            "Please tag the policy to audit, or paste the text to audit, with the regulations to audit it against.",
        )
    clauses = text_clauses(text)
    if not clauses:
        raise Refusal(
            ErrorCode.AUDIT_NEEDS_SOURCE,
            "The text to audit has no complete sentence to check, only headings.",
        )
    return AuditSource("the text you provided", clauses, None)


async def _match(
    event: ActionRequested,
    target: ResolvedDocument,
    clauses: Sequence[Clause],
    vectors: npt.NDArray[np.float32],
    index: ChunkIndex,
    embedder: Embedder,
) -> Matched:
    stored = await target_rules(event, target, index=index, embedder=embedder)
    passages = await index.document_chunk_vectors(
        tenant_id=event.tenant_id, user_id=event.user_id, document_id=target.document_id
    )
    rules = TargetRules.of(stored, passages)
    return Matched(target, rules, governing_rules([c.text for c in clauses], vectors, rules))


def _targets(event: ActionRequested) -> list[ResolvedDocument]:
    """The documents to audit against: the request's targets, else every document but the source."""
    options = audit_options(event)
    wanted = options.target_document_ids or [
        d.document_id for d in event.documents if d.document_id != options.source_document_id
    ]
    targets = [
        d for d in event.documents if d.document_id in wanted and d.document_id != options.source_document_id
    ]
    if not targets:
        raise Refusal(
            ErrorCode.AUDIT_NEEDS_TARGETS,
            f"Please tag the regulations to audit against (1 to {MAX_DOCUMENTS} documents).",
        )
    if len(targets) > MAX_DOCUMENTS:
        raise Refusal(
            ErrorCode.TOO_MANY_DOCUMENTS, f"Please tag at most {MAX_DOCUMENTS} documents to audit against."
        )
    return targets


def _titles(documents: Sequence[ResolvedDocument]) -> str:
    return ", ".join(f"“{d.title}”" for d in documents)
