"""A website customer's message (a widget conversation): greeting, hand-over to a person, or a question
answered from the tenant's published documents (docs/product.md, Website widget).

No PalAssist question is ever asked of a customer: small talk gets the tenant's greeting; asking for a
person, or a question with nothing published to answer it from, opens a ticket (``pending_human``)
and ends with the bridge message; while a ticket waits, new messages are told so. A question goes to
@Inquire made standalone from the conversation, scoped to the published documents, with the tenant's
confidence threshold (the worker hands weaker answers to a person).
"""

from faststream.nats import NatsBroker

from policypal.auth.tenants import TenantProfile
from policypal.bus import publish_event
from policypal.contracts import (
    ActionRequested,
    ChatRequested,
    ResolvedDocument,
    ResponseEvent,
    UserContext,
    answering,
)
from policypal.contracts.dedup_ids import action_handoff_id
from policypal.state import (
    ConversationRecord,
    ConversationStore,
    EscalationStore,
    EscalationTicket,
    RequestLedger,
    StoredMessage,
    assistant_message_id,
)
from policypal.state.escalations import customer_bridge_message
from policypal.state.published import PublishedLibrary
from resolver.conversational_filler import without_filler
from resolver.customer_words import message_kind, standalone_question
from resolver.history import history_window
from resolver.replies import end_request

#: The ``model`` of a reply the resolver wrote from the tenant's settings, without retrieval.
WIDGET_REPLY_MODEL = "widget-reply"
#: Earlier customer questions a follow-up may lean on.
EARLIER_QUESTIONS = 3


def waiting_sentence(escalation_id: str) -> str:
    """Said to a customer who writes again while a person has not answered yet."""
    return (
        f"Your question is with our team (ticket {escalation_id}); their answer will appear here. "
        "You can keep this window open."
    )


async def handle_customer_message(
    event: ChatRequested,
    conversation: ConversationRecord,
    profile: TenantProfile,
    *,
    broker: NatsBroker,
    ledger: RequestLedger,
    conversations: ConversationStore,
    escalations: EscalationStore,
    published: PublishedLibrary,
) -> None:
    """Answer, escalate or hand ``event`` to @Inquire; each step idempotent on redelivery."""
    kind = message_kind(event.text)
    waiting = await escalations.pending_in(event.tenant_id, conversation.conversation_id)
    if waiting is not None and waiting.request_id != event.request_id:
        await _reply(event, waiting_sentence(waiting.escalation_id), conversation, broker, ledger)
        return
    if kind == "small_talk":
        await _reply(event, profile.widget.greeting, conversation, broker, ledger)
        return
    messages = await conversations.messages(event.tenant_id, conversation.conversation_id)
    earlier = _earlier_questions(messages, event.request_id)
    if kind == "person":
        question = earlier[-1] if earlier else event.text
        await open_ticket(event, question, conversation, broker, ledger, escalations)
        return
    # Greetings and thanks around the question say nothing about it (and would split the cache).
    question = standalone_question(without_filler(event.text), earlier)
    documents = await published.documents(event.tenant_id)
    if not documents:
        await open_ticket(event, question, conversation, broker, ledger, escalations)
        return
    scope = [
        ResolvedDocument(document_id=d.document_id, title=d.title, version=d.version, doc_type=d.doc_type)
        for d in documents
    ]
    request = ActionRequested(
        **answering(event),
        action="inquire",
        query=question,
        documents=scope,
        history=history_window(messages, None, exclude={event.request_id}),
        message_id=event.message_id,
        user_context=UserContext(industry=profile.industry, location=profile.location),
        published_scope=True,
        escalate_below=profile.widget.confidence_threshold,
    )
    await publish_event(broker, request, msg_id=action_handoff_id(event.request_id))


def _earlier_questions(messages: list[StoredMessage], request_id: str) -> list[str]:
    asked = [
        without_filler(m.content)
        for m in messages
        if m.role == "user" and m.request_id != request_id and message_kind(m.content) == "question"
    ]
    return asked[-EARLIER_QUESTIONS:]


async def open_ticket(
    event: ChatRequested,
    question: str,
    conversation: ConversationRecord,
    broker: NatsBroker,
    ledger: RequestLedger,
    escalations: EscalationStore,
) -> None:
    """Hand the conversation to a person: ticket ``pending_human``, then the bridge message."""
    assert event.thread_id is not None, "checked by owned_conversation"
    ticket = await escalations.open(EscalationTicket.opened_by(event, question=question))
    bridge = ticket.pending_event(customer_bridge_message(ticket.escalation_id))
    await end_request(bridge, conversation, broker=broker, ledger=ledger)


async def _reply(
    event: ChatRequested,
    text: str,
    conversation: ConversationRecord,
    broker: NatsBroker,
    ledger: RequestLedger,
) -> None:
    response = ResponseEvent(
        **answering(event),
        message_id=assistant_message_id(event.request_id),
        action="inquire",
        answer=text,
        model=WIDGET_REPLY_MODEL,
        answered_by="assistant",
    )
    await end_request(response, conversation, broker=broker, ledger=ledger)
