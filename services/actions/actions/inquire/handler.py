"""One @Inquire request, from the bus to its terminal event."""

import logging
from dataclasses import replace

from faststream.nats import NatsBroker
from redis.asyncio import Redis

from actions.inquire.answer import LLM_FALLBACK_NOTICE, InquiryAnswer, offline
from actions.inquire.answer_cache import AnswerCache
from actions.inquire.confidence import LowConfidence, asks_how_to_go_on, assess, caution_for, thresholds_for
from actions.inquire.extractive_answer import compose_answer
from actions.inquire.generation import answer_with_llm
from actions.inquire.low_confidence import conclude_with_question, low_confidence_interrupt, repeat_question
from actions.inquire.passages import candidate_passages, score_passages
from actions.inquire.replies import TokenPublisher, conclude
from actions.inquire.retrieval import embed_query, retrieve
from actions.web_search import NOT_CONFIGURED_NOTICE, WebSearch
from policypal.bus import Unprocessable, publish_status
from policypal.contracts import ActionRequested, ErrorEvent, InterruptEvent, ResponseEvent
from policypal.embeddings import Embedder
from policypal.llm import LLM, LLMError
from policypal.state import (
    ConversationMemory,
    ConversationRecord,
    ConversationStore,
    RequestLedger,
    assistant_message_id,
)
from policypal.vectorstore import ChunkIndex

logger = logging.getLogger(__name__)

#: Said when the user asked for the web but it cannot be searched: no provider, or no model to draft.
WEB_SEARCH_NOTICE = NOT_CONFIGURED_NOTICE
FAILURE_SENTENCE = (
    "I couldn't search your documents just now, and retrying did not help. Please ask again in a moment."
)


async def handle_action_requested(
    event: ActionRequested,
    *,
    broker: NatsBroker,
    redis: Redis,
    index: ChunkIndex,
    embedder: Embedder,
    final_delivery: bool,
    llm: LLM | None = None,
    web_search: WebSearch | None = None,
) -> None:
    """Answer ``event`` once: search, compose, store the assistant turn, publish the response.

    With an ``llm`` the answer is drafted by the model and streamed as token events; without one (or
    when the model fails after its retries) it is the offline-extractive answer. When retrieval finds
    only weak matches the request ends with a ``retrieval_low`` question instead (seed 000).

    A request that has ended already is only repeated (same stored turn, same event). Infrastructure
    errors propagate so the delivery is retried; on the ``final_delivery`` the user gets an
    ``action_failed`` error before the message is dead-lettered (ARCHITECTURE invariant 3).
    """
    ledger = RequestLedger(redis)
    conversations = ConversationStore(redis)
    conversation = await _owned_conversation(event, conversations)
    try:
        existing = await ledger.terminal(event.tenant_id, event.request_id)
        if isinstance(existing, ResponseEvent | ErrorEvent):
            await conclude(existing, conversation, broker=broker, ledger=ledger, conversations=conversations)
            return
        if isinstance(existing, InterruptEvent):
            await repeat_question(
                existing, conversation, broker=broker, ledger=ledger, conversations=conversations
            )
            return
        await publish_status(broker, event, "retrieving", "Searching your documents…")
        answer = await compose_inquiry(
            event,
            broker=broker,
            llm=llm,
            index=index,
            embedder=embedder,
            cache=AnswerCache(redis),
            web_search=web_search,
        )
        if isinstance(answer, LowConfidence):
            await conclude_with_question(
                event,
                low_confidence_interrupt(event, answer.confidence),
                conversation,
                broker=broker,
                ledger=ledger,
                conversations=conversations,
                memory=ConversationMemory(redis),
            )
            return
        await conclude(
            response_event(event, answer),
            conversation,
            broker=broker,
            ledger=ledger,
            conversations=conversations,
        )
    except Unprocessable:
        raise
    except Exception:
        if final_delivery:
            await conclude(
                _failure(event), conversation, broker=broker, ledger=ledger, conversations=conversations
            )
        raise


async def compose_inquiry(
    event: ActionRequested,
    *,
    broker: NatsBroker,
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
    web_notices = [WEB_SEARCH_NOTICE] if event.web and (llm is None or web_search is None) else []
    if llm is None:
        return with_notices(await answer_inquiry(event, index=index, embedder=embedder), web_notices)
    try:
        drafted = await answer_with_llm(
            event,
            llm=llm,
            index=index,
            embedder=embedder,
            on_delta=TokenPublisher(broker, event),
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
    that nothing was found (seed 002, mode C), never a general-knowledge one.
    """
    thresholds = thresholds_for(embedder.model_id)
    query_vector = await embed_query(embedder, event.query)
    hits = await retrieve(event, event.query, query_vector, index=index, thresholds=thresholds)
    confidence = assess(hits, thresholds)
    if asks_how_to_go_on(confidence, hits, event):
        return LowConfidence(confidence)
    passages = candidate_passages(hits)
    scores = await score_passages(embedder, query_vector, passages)
    return offline(compose_answer(event.documents, passages, scores), confidence, notices=notices)


def response_event(event: ActionRequested, answer: InquiryAnswer) -> ResponseEvent:
    """The terminal response of ``event`` carrying ``answer``."""
    return ResponseEvent(
        tenant_id=event.tenant_id,
        user_id=event.user_id,
        request_id=event.request_id,
        thread_id=event.thread_id,
        message_id=assistant_message_id(event.request_id),
        action="inquire",
        answer=answer.answer,
        citations=answer.citations,
        model=answer.model,
        usage=answer.usage,
        inference_confidence=event.inference_confidence,
        retrieval_confidence=answer.confidence.tier if answer.confidence else None,
        caution=caution_for(answer.confidence, event),
        notices=[*event.notices, *answer.notices],
        cached=answer.cached,
        web_citations=answer.web_citations,
    )


def _failure(event: ActionRequested) -> ErrorEvent:
    return ErrorEvent(
        tenant_id=event.tenant_id,
        user_id=event.user_id,
        request_id=event.request_id,
        thread_id=event.thread_id,
        code="action_failed",
        message=FAILURE_SENTENCE,
        retryable=True,
    )


async def _owned_conversation(event: ActionRequested, conversations: ConversationStore) -> ConversationRecord:
    if event.thread_id is None:
        raise Unprocessable("action request without a conversation (thread_id)")
    conversation = await conversations.get(event.tenant_id, event.user_id, event.thread_id)
    if conversation is None:
        raise Unprocessable(f"conversation {event.thread_id} not found for this tenant and user")
    return conversation
