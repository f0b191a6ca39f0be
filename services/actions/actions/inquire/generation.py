"""The @Inquire answer drafted by a language model, streamed, and tied to its sources (docs/product.md, Answer modes).

- Mode A (relevant passages found): the model answers from passages numbered [1]..[N] only.
- Mode B (no document tagged): the model answers from general knowledge, labelled as such.
- Mode C (documents tagged, nothing relevant): a fixed answer says so; the model is not asked, so
  it cannot answer from general knowledge.
"""

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field, replace

from opentelemetry import trace

from actions.citing.grounding import ground_answer
from actions.drafting import stream_draft
from actions.inquire.answer import InquiryAnswer
from actions.inquire.answer_cache import AnswerCache
from actions.inquire.confidence import Confidence, LowConfidence, asks_how_to_go_on, assess, thresholds_for
from actions.inquire.extractive_answer import RELEVANCE_FLOOR
from actions.inquire.prompts import general_prompt, sourced_prompt
from actions.inquire.query_rewrite import rewrite_query
from actions.inquire.ranking import rank
from actions.inquire.retrieval import adaptive_k, search_candidates
from actions.sentences import embed_texts
from actions.web_search import WebResult, WebSearch, WebSearchUnavailable, web_query
from policypal.contracts import ActionRequested, ResolvedDocument, Usage
from policypal.contracts.action_options import inquire_options
from policypal.embeddings import Embedder
from policypal.llm import LLM, add_usage
from policypal.vectorstore import ChunkHit, ChunkIndex

logger = logging.getLogger(__name__)

#: Receives each piece of the answer as the model writes it.
OnDelta = Callable[[str], Awaitable[None]]

WEB_NOT_NEEDED_NOTICE = "Your documents answered this with high confidence, so the web was not searched."
WEB_NOTHING_FOUND_NOTICE = "The web search found nothing usable for this question."
#: Passages shown to the model: enough to answer, few enough to keep the prompt short.
MAX_SOURCES = 8
GENERAL_KNOWLEDGE_NOTICE = (
    "General knowledge: no documents were tagged, so this answer is not based on your documents."
)


async def answer_with_llm(
    event: ActionRequested,
    *,
    llm: LLM,
    index: ChunkIndex,
    embedder: Embedder,
    on_delta: OnDelta,
    cache: AnswerCache | None = None,
    web_search: WebSearch | None = None,
) -> InquiryAnswer | LowConfidence:
    """Rewrite, search the tagged documents (and the web), then draft; raises ``LLMError`` when the model fails.

    Weak matches end before drafting (``LowConfidence``): the user is asked how to go on, unless the
    web was asked for, which is then searched instead. The web is searched only when it was asked for,
    a ``web_search`` is configured and the documents alone do not give high confidence. With a
    ``cache``, the same question over the same documents is answered from it without searching
    (never for web answers: they age).
    """
    span = trace.get_current_span()
    wants_web = inquire_options(event).web and web_search is not None
    if not event.documents:
        return await _answer_without_documents(
            event, llm, embedder, on_delta, web_search if wants_web else None
        )

    rewrite = await rewrite_query(llm, event)
    queries = [rewrite.query, event.query]
    vectors = await embed_texts(embedder, queries)
    scope = (
        await cache.scope(event, model=llm.model_for("inquire"))
        if cache and not inquire_options(event).web
        else None
    )
    if cache and scope:
        cached = await cache.lookup(scope, rewrite.query, vectors[0])
        span.set_attribute("inquire.cache", "hit" if cached else "miss")
        if cached:
            return replace(cached, usage=rewrite.usage)
    thresholds = thresholds_for(embedder.model_id)
    candidates = await search_candidates(event, rewrite.query, vectors[0], index=index)
    hits = adaptive_k(candidates, stop=thresholds.stop)
    confidence = assess(hits, thresholds)
    span.set_attribute("inquire.retrieval_confidence", confidence.score)
    searching_web = wants_web and confidence.tier != "high"
    if asks_how_to_go_on(confidence, hits, event) and not searching_web:
        return LowConfidence(confidence)
    # The same ranking as the offline answer, on the user's own words: passages best first.
    ranking = await rank(event.query, vectors[1], candidates if hits else [], embedder, stored=index.units)
    sources = ranking.sources(floor=RELEVANCE_FLOOR, limit=MAX_SOURCES)
    span.set_attribute("inquire.sources", len(sources))
    if searching_web:
        found = await _search_web(web_search, rewrite.query, event)
    else:
        found = WebFindings(notices=[WEB_NOT_NEEDED_NOTICE] if wants_web else [])
    if not sources and not found.results:
        span.set_attribute("inquire.mode", "C")
        return _nothing_found(event, llm, rewrite.usage, confidence, found)

    span.set_attribute("inquire.mode", "A")
    answer = await _sourced_answer(
        event,
        llm,
        embedder,
        on_delta,
        sources,
        found,
        usage=rewrite.usage,
        confidence=confidence,
        shown=[ranking.cleaned(hit) for hit in sources],
    )
    # An answer given despite weak matches is not reused: the next asker must be asked again.
    if cache and scope and confidence.tier != "low":
        await cache.store(scope, rewrite.query, vectors[0], answer)
    return answer


async def _answer_without_documents(
    event: ActionRequested, llm: LLM, embedder: Embedder, on_delta: OnDelta, web_search: WebSearch | None
) -> InquiryAnswer:
    """No document in scope: mode A from the web when it was asked for and found something, else
    mode B, a general-knowledge answer that says so."""
    span = trace.get_current_span()
    found = await _search_web(web_search, event.query, event) if web_search is not None else WebFindings()
    if found.results:
        span.set_attribute("inquire.mode", "A")
        return await _sourced_answer(
            event, llm, embedder, on_delta, [], found, usage=Usage(), confidence=None
        )
    span.set_attribute("inquire.mode", "B")
    general = await stream_draft(llm, "inquire", general_prompt(event), on_delta)
    return InquiryAnswer(
        answer=general.text,
        citations=[],
        model=general.model,
        usage=general.usage,
        notices=[GENERAL_KNOWLEDGE_NOTICE, *found.notices],
    )


def _nothing_found(
    event: ActionRequested, llm: LLM, usage: Usage, confidence: Confidence, found: "WebFindings"
) -> InquiryAnswer:
    """Mode C: neither the documents nor the web answer; no general-knowledge answer about documents."""
    return InquiryAnswer(
        answer=not_in_documents(event.documents),
        citations=[],
        model=llm.model_for("inquire"),
        usage=usage,
        confidence=confidence,
        notices=found.notices,
    )


@dataclass(frozen=True)
class WebFindings:
    """What the web search gave: results to cite, or notices saying why there are none."""

    results: list[WebResult] = field(default_factory=list)
    notices: list[str] = field(default_factory=list)


async def _search_web(web_search: WebSearch | None, query: str, event: ActionRequested) -> WebFindings:
    if web_search is None:
        return WebFindings()
    try:
        results = await web_search.search(web_query(query, event.user_context))
    except WebSearchUnavailable as unavailable:
        return WebFindings(notices=[unavailable.notice])
    trace.get_current_span().set_attribute("inquire.web_results", len(results))
    return WebFindings(results=results, notices=[] if results else [WEB_NOTHING_FOUND_NOTICE])


async def _sourced_answer(
    event: ActionRequested,
    llm: LLM,
    embedder: Embedder,
    on_delta: OnDelta,
    sources: list[ChunkHit],
    found: WebFindings,
    *,
    usage: Usage,
    confidence: Confidence | None,
    shown: list[ChunkHit] | None = None,
) -> InquiryAnswer:
    """Mode A: draft from the passages (documents first, then web results) and cite every marker.

    The model reads ``shown`` (the passages cleaned of page furniture) when given; quotes are always
    taken from ``sources`` as stored, so that they stay verbatim.
    """
    draft = await stream_draft(
        llm, "inquire", sourced_prompt(event, shown or sources, found.results), on_delta
    )
    grounded = await ground_answer(draft.text, sources, embedder, question=event.query, web=found.results)
    span = trace.get_current_span()
    span.set_attribute("inquire.citations", len(grounded.citations) + len(grounded.web_citations))
    span.set_attribute("inquire.markers_removed", grounded.removed_markers)
    if grounded.removed_markers:
        logger.info("removed %d citation markers that map to no passage", grounded.removed_markers)
    return InquiryAnswer(
        answer=grounded.answer,
        citations=grounded.citations,
        web_citations=grounded.web_citations,
        model=draft.model,
        usage=add_usage(usage, draft.usage),
        confidence=confidence,
        notices=found.notices,
    )


def not_in_documents(documents: list[ResolvedDocument]) -> str:
    """Mode C: the tagged documents do not address the question; no general-knowledge answer."""
    titles = ", ".join(f"“{doc.title}”" for doc in documents)
    return (
        f"The tagged documents ({titles}) contain no passage that addresses this question. Answers about "
        "tagged documents are based on their content only, not on general knowledge. Please refine the "
        "question or tag another document."
    )
