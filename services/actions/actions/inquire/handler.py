"""@Inquire: what the worker composes for a request; the shared lifecycle does the rest.

``run_action_request`` (actions.lifecycle.request) reads the request's start, repeats an ended request,
records, keeps and publishes the terminal event; this module searches and answers, or asks how to go
on when retrieval found only weak matches (docs/product.md, Confidence tiers).
"""

import logging
from dataclasses import replace
from functools import partial

from actions.inquire.answer import LLM_FALLBACK_NOTICE, InquiryAnswer, offline
from actions.inquire.answer_cache import AnswerCache
from actions.inquire.confidence import LowConfidence, asks_how_to_go_on, assess, caution_for, thresholds_for
from actions.inquire.customer_answer import CustomerHandover, answer_customer
from actions.inquire.extractive_answer import RELEVANCE_FLOOR, compose_answer
from actions.inquire.generation import answer_with_llm
from actions.inquire.low_confidence import low_confidence_question
from actions.inquire.ranking import rank
from actions.inquire.retrieval import adaptive_k, embed_query, search_candidates
from actions.lifecycle.request import ActionAnswer, OnDelta, Progress
from actions.web_search import NOT_CONFIGURED_NOTICE, WebSearch
from policypal.contracts import ActionRequested
from policypal.contracts.action_options import inquire_options
from policypal.contracts.codes import StatusStage
from policypal.embeddings import Embedder
from policypal.llm import LLM, LLMError
from policypal.state import Question
from policypal.vectorstore import ChunkIndex

logger = logging.getLogger(__name__)

#: Said when the user asked for the web but it cannot be searched: no provider, or no model to draft.
WEB_SEARCH_NOTICE = NOT_CONFIGURED_NOTICE
FAILURE_SENTENCE = (
    "I couldn't search your documents just now, and retrying did not help. Please ask again in a moment."
)


async def inquire(
    event: ActionRequested,
    progress: Progress,
    on_delta: OnDelta,
    *,
    index: ChunkIndex,
    embedder: Embedder,
    cache: AnswerCache | None = None,
    llm: LLM | None = None,
    web_search: WebSearch | None = None,
    handover: CustomerHandover | None = None,
) -> ActionAnswer | Question:
    """Answer ``event`` (``Compose`` of the @Inquire worker), or ask how to go on after weak matches.

    With an ``llm`` the answer is drafted by the model and streamed through ``on_delta``; without one
    (or when the model fails after its retries) it is the offline-extractive answer. A widget
    customer's question (``published_scope``) is never asked back: see ``answer_customer``.
    """
    await progress(StatusStage.RETRIEVING, "Searching your documents…")
    if event.published_scope and handover is not None:
        compose = partial(compose_inquiry, event, on_delta=on_delta, llm=llm, index=index, embedder=embedder)
        customer = await answer_customer(event, compose, embedder=embedder, cache=cache, handover=handover)
        return action_answer(event, customer)
    answer = await compose_inquiry(
        event,
        on_delta=on_delta,
        llm=llm,
        index=index,
        embedder=embedder,
        cache=cache,
        web_search=web_search,
    )
    if isinstance(answer, LowConfidence):
        return low_confidence_question(event, answer.confidence)
    return action_answer(event, answer)


async def compose_inquiry(
    event: ActionRequested,
    *,
    on_delta: OnDelta,
    llm: LLM | None,
    index: ChunkIndex,
    embedder: Embedder,
    cache: AnswerCache | None = None,
    web_search: WebSearch | None = None,
) -> InquiryAnswer | LowConfidence:
    """The model's answer when there is a model, else (or if it fails) the offline answer with a notice.

    Drafted answers go through the semantic ``cache``; offline ones are cheap and are not cached. Web
    results are only used in drafted answers; an offline answer to a web request says so.
    """
    web_notices = (
        [WEB_SEARCH_NOTICE] if inquire_options(event).web and (llm is None or web_search is None) else []
    )
    if llm is None:
        return with_notices(await answer_inquiry(event, index=index, embedder=embedder), web_notices)
    try:
        drafted = await answer_with_llm(
            event,
            llm=llm,
            index=index,
            embedder=embedder,
            on_delta=on_delta,
            cache=cache,
            web_search=web_search,
        )
        return with_notices(drafted, web_notices)
    except LLMError as exc:
        logger.warning("inquire answered offline: %s", exc)
    fallback = await answer_inquiry(event, index=index, embedder=embedder, notices=[LLM_FALLBACK_NOTICE])
    return with_notices(fallback, web_notices)


def with_notices(answer: InquiryAnswer | LowConfidence, notices: list[str]) -> InquiryAnswer | LowConfidence:
    """``answer`` with ``notices`` added (a question to the user carries none)."""
    if isinstance(answer, LowConfidence) or not notices:
        return answer
    return replace(answer, notices=[*answer.notices, *notices])


async def answer_inquiry(
    event: ActionRequested, *, index: ChunkIndex, embedder: Embedder, notices: list[str] | None = None
) -> InquiryAnswer | LowConfidence:
    """The offline extractive answer over the request's documents (all the user's when none is tagged).

    Weak matches (low confidence) give ``LowConfidence`` instead; no match at all gives the answer
    that nothing was found (docs/product.md, Answer modes: mode C), never a general-knowledge one.
    """
    thresholds = thresholds_for(embedder.model_id)
    query_vector = await embed_query(embedder, event.query)
    candidates = await search_candidates(event, event.query, query_vector, index=index)
    hits = adaptive_k(candidates, stop=thresholds.stop)
    confidence = assess(hits, thresholds)
    if asks_how_to_go_on(confidence, hits, event):
        return LowConfidence(confidence)
    # The re-ranking reads every candidate once one passes the stop line, not only adaptive-k's
    # share: a chunk whose best sentence answers can score low as a whole (docs/benchmarks.md).
    # "Continue anyway" asked for the best passages found, however weak: no relevance floor then.
    chosen = inquire_options(event).accept_low_confidence and confidence.tier == "low"
    ranking = await rank(
        event.query, query_vector, candidates if hits or chosen else [], embedder, stored=index.units
    )
    floor = 0.0 if chosen else RELEVANCE_FLOOR
    composed = compose_answer(event.documents, ranking, event.query, floor=floor)
    return offline(composed, confidence, notices=notices)


def action_answer(event: ActionRequested, answer: InquiryAnswer) -> ActionAnswer:
    """``answer`` as the shared lifecycle turns it into the response event, with its retrieval fields."""
    return ActionAnswer(
        answer=answer.answer,
        citations=answer.citations,
        notices=answer.notices,
        model=answer.model,
        usage=answer.usage,
        retrieval_confidence=answer.confidence.tier if answer.confidence else None,
        caution=caution_for(answer.confidence, event),
        cached=answer.cached,
        web_citations=answer.web_citations,
    )
