"""A widget customer's question at @Inquire: the published documents whoever owns them, the cache on
the offline path, and a hand-over (ticket and escalation) instead of a weak answer."""

import uuid
from functools import partial

import pytest
from redis.asyncio import Redis

from actions.inquire.answer import InquiryAnswer
from actions.inquire.answer_cache import AnswerCache
from actions.inquire.customer_answer import CustomerHandover, answer_customer
from actions.inquire.handler import compose_inquiry
from actions.lifecycle.request import OnDelta
from policypal.contracts import ActionRequested, EscalationEvent
from policypal.embeddings import MiniLMEmbedder
from policypal.state import (
    ConversationRecord,
    ConversationStore,
    DocumentCatalog,
    DocumentRecord,
    EscalationStore,
)
from policypal.state.keys import request_terminal
from policypal.vectorstore import ChunkIndex
from tests.actions.inquire.retention_corpus import USER, index_chunks, inquiry

pytestmark = pytest.mark.integration
TENANT = "shop"


async def _no_tokens(text: str) -> None:
    raise AssertionError("the offline path streams nothing")


async def _customer_request(redis: Redis, query: str, threshold: float = 0.38) -> ActionRequested:
    """A customer's request over the published Retention Policy (owned by alice, not the customer)."""
    visitor = f"anon_{uuid.uuid4().hex[:8]}"
    conversation = ConversationRecord(
        conversation_id=uuid.uuid4().hex, tenant_id=TENANT, user_id=visitor, widget=True
    )
    await ConversationStore(redis).create(conversation)
    base = inquiry(TENANT, query)
    return base.model_copy(
        update={
            "user_id": visitor,
            "thread_id": conversation.conversation_id,
            "documents": base.documents[:1],
            "published_scope": True,
            "escalate_below": threshold,
        }
    )


async def _publish_record(redis: Redis) -> None:
    await DocumentCatalog(redis).create(
        DocumentRecord(
            document_id="ret",
            tenant_id=TENANT,
            user_id=USER,
            title="Retention Policy",
            version="3",
            doc_type="policy",
            filename="r.pdf",
            content_type="application/pdf",
            size_bytes=1,
            sha256="s",
            status="ready",
            request_id="r",
        )
    )


async def _answer(
    event: ActionRequested, redis: Redis, index: ChunkIndex, embedder: MiniLMEmbedder
) -> InquiryAnswer:
    on_delta: OnDelta = _no_tokens
    compose = partial(compose_inquiry, event, on_delta=on_delta, llm=None, index=index, embedder=embedder)
    return await answer_customer(
        event, compose, embedder=embedder, cache=AnswerCache(redis), handover=CustomerHandover(redis)
    )


async def test_a_customer_is_answered_from_the_published_document_and_then_from_the_cache(
    redis_client: Redis, index: ChunkIndex, embedder: MiniLMEmbedder
) -> None:
    await index_chunks(index, embedder, TENANT)
    await _publish_record(redis_client)
    question = "How long must customer records be retained after the account is closed?"

    first = await _answer(await _customer_request(redis_client, question), redis_client, index, embedder)
    assert [c.document_id for c in first.citations][:1] == ["ret"]
    assert "seven years" in first.answer
    assert not first.cached

    again = await _answer(
        await _customer_request(redis_client, question.lower()), redis_client, index, embedder
    )
    assert again.cached
    assert again.answer == first.answer


async def test_a_weak_answer_becomes_a_ticket_and_an_escalation(
    redis_client: Redis, index: ChunkIndex, embedder: MiniLMEmbedder
) -> None:
    await index_chunks(index, embedder, TENANT)
    await _publish_record(redis_client)
    event = await _customer_request(redis_client, "Which shoe sizes do you stock for children?")

    handed = await _answer(event, redis_client, index, embedder)
    assert handed.citations == []
    [ticket] = await EscalationStore(redis_client).list(TENANT, "pending_human")
    assert (ticket.thread_id, ticket.question) == (event.thread_id, event.query)
    recorded = await redis_client.get(request_terminal(TENANT, event.request_id))
    assert recorded is not None
    escalation = EscalationEvent.model_validate_json(recorded)
    assert ticket.escalation_id in escalation.message
    history = await ConversationStore(redis_client).messages(TENANT, str(event.thread_id))
    assert [m.content for m in history] == [escalation.message]

    # Redelivered: the same ticket, nothing added.
    await _answer(event, redis_client, index, embedder)
    assert len(await EscalationStore(redis_client).list(TENANT)) == 1
    assert len(await ConversationStore(redis_client).messages(TENANT, str(event.thread_id))) == 1


async def test_a_search_across_users_must_name_its_documents(
    index: ChunkIndex, embedder: MiniLMEmbedder
) -> None:
    vector = embedder.embed(["records"])[0].tolist()
    with pytest.raises(ValueError, match="must name its documents"):
        await index.hybrid_search(vector, "records", tenant_id=TENANT, user_id=None)
