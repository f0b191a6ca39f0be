"""A website customer's question (``published_scope``): cache, answer from the published documents, or
hand over to a person (docs/product.md, Website widget).

The standalone question is looked up in the tenant's semantic cache first (offline answers too: a
customer's question is asked again and again, and the scope's fingerprint changes whenever a published
document does). A weak answer, one below the tenant's confidence threshold, or one without a source
is never shown: a ticket opens (``pending_human``) and the request ends with its escalation event,
recorded here so that the lifecycle publishes that event instead of an answer.
"""

from collections.abc import Awaitable, Callable

from redis.asyncio import Redis

from actions.inquire.answer import InquiryAnswer
from actions.inquire.answer_cache import AnswerCache
from actions.inquire.confidence import LowConfidence
from actions.inquire.retrieval import embed_query
from policypal.contracts import ActionRequested, Citation
from policypal.embeddings import Embedder
from policypal.state import ConversationStore, EscalationStore, EscalationTicket, RequestLedger
from policypal.state.escalations import customer_bridge_message

#: The ``model`` named on the placeholder answer of a handed-over request (its escalation stands).
HANDOVER_MODEL = "widget-handover"
#: The ``model`` part of a customer cache scope: offline and drafted answers share it.
CUSTOMER_CACHE_MODEL = "widget"


def needs_person(answer: InquiryAnswer | LowConfidence, event: ActionRequested) -> bool:
    """Whether ``answer`` is too weak to show a customer: low tier, below the threshold, or unsourced."""
    if isinstance(answer, LowConfidence) or not answer.citations or answer.confidence is None:
        return True
    threshold = event.escalate_below
    return threshold is not None and answer.confidence.score < threshold


class CustomerHandover:
    """Opens the ticket of a customer question the documents do not answer well enough."""

    def __init__(self, redis: Redis) -> None:
        self._escalations = EscalationStore(redis)
        self._ledger = RequestLedger(redis)
        self._conversations = ConversationStore(redis)

    async def hand_over(self, event: ActionRequested, sources: list[Citation] | None = None) -> InquiryAnswer:
        """Open the ticket and record its escalation as the request's end; idempotent on redelivery.

        Returns the placeholder answer the lifecycle finishes with: the recorded escalation stands,
        so the lifecycle publishes that instead.
        """
        assert event.thread_id is not None, "checked by the lifecycle"
        ticket = await self._escalations.open(
            EscalationTicket.opened_by(
                event, question=event.query, escalated_request_id=event.request_id, sources=sources
            )
        )
        message = customer_bridge_message(ticket.escalation_id)
        escalation = ticket.pending_event(message)
        conversation = await self._conversations.get(event.tenant_id, event.user_id, event.thread_id)
        if conversation is not None:
            await self._ledger.record_and_keep(escalation, conversation)
        return InquiryAnswer(answer=message, citations=[], model=HANDOVER_MODEL)


async def answer_customer(
    event: ActionRequested,
    compose: Callable[[], Awaitable[InquiryAnswer | LowConfidence]],
    *,
    embedder: Embedder,
    cache: AnswerCache | None,
    handover: CustomerHandover,
) -> InquiryAnswer:
    """The cached or composed answer to a customer, or the hand-over when it is not good enough."""
    vector = await embed_query(embedder, event.query)
    scope = await cache.scope(event, model=CUSTOMER_CACHE_MODEL) if cache is not None else None
    if cache is not None and scope is not None:
        cached = await cache.lookup(scope, event.query, vector)
        if cached is not None:
            return cached
    answer = await compose()
    if needs_person(answer, event):
        return await handover.hand_over(
            event, None if isinstance(answer, LowConfidence) else answer.citations
        )
    assert isinstance(answer, InquiryAnswer), "a LowConfidence needs a person"
    if cache is not None and scope is not None:
        await cache.store(scope, event.query, vector, answer)
    return answer
