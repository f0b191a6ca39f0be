"""The @Inquire answer drafted by a language model, streamed, and tied to its sources (seed 002 modes).

- Mode A (relevant passages found): the model answers from passages numbered [1]..[N] only.
- Mode B (no document tagged): the model answers from general knowledge, labelled as such.
- Mode C (documents tagged, nothing relevant): a fixed answer says so; the model is not asked, so
  it cannot answer from general knowledge.
"""

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import replace

from opentelemetry import trace

from actions.inquire.answer import InquiryAnswer
from actions.inquire.answer_cache import AnswerCache
from actions.inquire.confidence import LowConfidence, asks_how_to_go_on, assess, thresholds_for
from actions.inquire.grounding import ground_answer
from actions.inquire.prompts import general_prompt, sourced_prompt
from actions.inquire.query_rewrite import rewrite_query, without_titles
from actions.inquire.relevance import relevant_sources
from actions.inquire.retrieval import retrieve
from policypal.contracts import ActionRequested, ResolvedDocument
from policypal.embeddings import Embedder
from policypal.llm import LLM, Completion, Prompt, add_usage
from policypal.vectorstore import ChunkIndex

logger = logging.getLogger(__name__)

#: Receives each piece of the answer as the model writes it.
OnDelta = Callable[[str], Awaitable[None]]

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
) -> InquiryAnswer | LowConfidence:
    """Rewrite, search the tagged documents, then draft the answer; raises ``LLMError`` when the model fails.

    Weak matches end before drafting (``LowConfidence``): the user is asked how to go on. With a
    ``cache``, the same question over the same documents is answered from it without searching.
    """
    span = trace.get_current_span()
    if not event.documents:
        span.set_attribute("inquire.mode", "B")
        general = await _draft(llm, general_prompt(event), on_delta)
        return InquiryAnswer(
            answer=general.text,
            citations=[],
            model=general.model,
            usage=general.usage,
            notices=[GENERAL_KNOWLEDGE_NOTICE],
        )

    rewrite = await rewrite_query(llm, event)
    queries = [rewrite.query, event.query, without_titles(rewrite.query, event.documents)]
    vectors = await asyncio.to_thread(embedder.embed, queries)
    scope = await cache.scope(event, model=llm.model_for("inquire")) if cache else None
    if cache and scope:
        cached = await cache.lookup(scope, rewrite.query, vectors[0])
        span.set_attribute("inquire.cache", "hit" if cached else "miss")
        if cached:
            return replace(cached, usage=rewrite.usage)
    thresholds = thresholds_for(embedder.model_id)
    hits = await retrieve(event, rewrite.query, vectors[0], index=index, thresholds=thresholds)
    confidence = assess(hits, thresholds)
    span.set_attribute("inquire.retrieval_confidence", confidence.score)
    if asks_how_to_go_on(confidence, hits, event):
        return LowConfidence(confidence)
    sources = await relevant_sources(hits, embedder, vectors[1:])
    span.set_attribute("inquire.sources", len(sources))
    if not sources:
        span.set_attribute("inquire.mode", "C")
        return InquiryAnswer(
            answer=not_in_documents(event.documents),
            citations=[],
            model=llm.model_for("inquire"),
            usage=rewrite.usage,
            confidence=confidence,
        )

    span.set_attribute("inquire.mode", "A")
    draft = await _draft(llm, sourced_prompt(event, sources), on_delta)
    grounded = await ground_answer(draft.text, sources, embedder, question=event.query)
    span.set_attribute("inquire.citations", len(grounded.citations))
    span.set_attribute("inquire.markers_removed", grounded.removed_markers)
    if grounded.removed_markers:
        logger.info("removed %d citation markers that map to no passage", grounded.removed_markers)
    answer = InquiryAnswer(
        answer=grounded.answer,
        citations=grounded.citations,
        model=draft.model,
        usage=add_usage(rewrite.usage, draft.usage),
        confidence=confidence,
    )
    # An answer given despite weak matches is not reused: the next asker must be asked again.
    if cache and scope and confidence.tier != "low":
        await cache.store(scope, rewrite.query, vectors[0], answer)
    return answer


def not_in_documents(documents: list[ResolvedDocument]) -> str:
    """Mode C: the tagged documents do not address the question; no general-knowledge answer."""
    titles = ", ".join(f"“{doc.title}”" for doc in documents)
    return (
        f"The tagged documents ({titles}) contain no passage that addresses this question. Answers about "
        "tagged documents are based on their content only, not on general knowledge. Please refine the "
        "question or tag another document."
    )


async def _draft(llm: LLM, prompt: Prompt, on_delta: OnDelta) -> Completion:
    stream = llm.stream("inquire", prompt)
    async for delta in stream:
        await on_delta(delta)
    return stream.completion
