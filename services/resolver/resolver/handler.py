"""One chat request or PalAssist answer, from the bus to its hand-off, question or terminal error.

A new message (``chat.requested``) starts a fresh turn and supersedes a pending question (ADR 0003).
An answer (``chat.resumed``) continues the saved turn from the step that asked; a cancel ends it.
"""

from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from faststream.nats import NatsBroker
from redis.asyncio import Redis

from policypal.auth.tenants import TenantStore
from policypal.bus import Unprocessable, publish_event
from policypal.contracts import ChatRequested, ChatResumed, ErrorEvent, UserContext
from policypal.contracts.codes import ErrorCode
from policypal.contracts.dedup_ids import action_handoff_id
from policypal.contracts.envelope import Envelope
from policypal.state import (
    ChatTerminal,
    ConversationMemory,
    ConversationRecord,
    ConversationStore,
    DocumentCatalog,
    EscalationStore,
    PendingInterrupt,
    ProfileStore,
    Question,
    Refusal,
    RequestLedger,
    company_context,
)
from policypal.state.published import PublishedLibrary
from resolver.answers import apply_answer
from resolver.customer_turn import handle_customer_message
from resolver.escalation import escalate_to_reviewer
from resolver.handoff import action_request, registry_entries
from resolver.history import history_window
from resolver.low_retrieval import Escalate, Retry, retried_request
from resolver.pipeline import Deciders, Outcome, Plan, advance
from resolver.replies import CANCELLED_SENTENCE, end_request, status_reporter
from resolver.resolution import Loaded, load_conversation, owned_conversation
from resolver.turn import Turn

FAILURE_SENTENCE = (
    "Something went wrong while I was reading your request, and retrying did not help. Please send it again."
)
EXPIRED_SENTENCE = (
    "That question is no longer open: a newer message replaced it or it was already answered. "
    "Please send your request again."
)


@dataclass(frozen=True)
class Stores:
    """The Redis stores a request touches."""

    ledger: RequestLedger
    conversations: ConversationStore
    memory: ConversationMemory
    catalog: DocumentCatalog
    tenants: TenantStore
    profiles: ProfileStore

    @classmethod
    def on(cls, redis: Redis) -> "Stores":
        """The stores on one Redis connection."""
        return cls(
            RequestLedger(redis),
            ConversationStore(redis),
            ConversationMemory(redis),
            DocumentCatalog(redis),
            TenantStore(redis),
            ProfileStore(redis),
        )


async def handle_chat_requested(
    event: ChatRequested, *, broker: NatsBroker, redis: Redis, deciders: Deciders, final_delivery: bool
) -> None:
    """Resolve a new message: an action request, a PalAssist question, or an error.

    Infrastructure errors propagate so the delivery is retried; on the ``final_delivery`` the user gets
    an error event before the message is dead-lettered (docs/architecture.md, Invariant: one terminal event per request).
    """
    stores = Stores.on(redis)

    async def resolve(conversation: ConversationRecord) -> None:
        if conversation.widget:
            await _answer_customer(event, conversation, broker, redis, stores)
            return
        await _supersede_pending(event, conversation, stores.memory)
        loaded = await _load(event, conversation, stores, exclude={event.request_id})
        outcome = await advance(Turn.start(event), loaded.context, deciders, status_reporter(broker, event))
        await _conclude(outcome, event, conversation, loaded, broker, stores, answered=None)

    await _proceed_unless_ended(event, resolve, broker=broker, stores=stores, final_delivery=final_delivery)


async def handle_chat_resumed(
    event: ChatResumed, *, broker: NatsBroker, redis: Redis, deciders: Deciders, final_delivery: bool
) -> None:
    """Continue the turn a PalAssist question paused, with the user's answer; or cancel it."""
    stores = Stores.on(redis)

    async def resume(conversation: ConversationRecord) -> None:
        pending = await stores.memory.pending(event.tenant_id, conversation.conversation_id)
        # A question saved with nothing to continue from cannot be resumed either.
        if (
            pending is None
            or pending.interrupt.interrupt_id != event.interrupt_id
            or pending.resume_point is None
        ):
            error = ErrorEvent.ending(event, ErrorCode.INTERRUPT_EXPIRED, EXPIRED_SENTENCE)
            await end_request(error, conversation, broker=broker, ledger=stores.ledger)
            return
        if event.resume_value.type == "cancel":
            error = ErrorEvent.ending(event, ErrorCode.CANCELLED, CANCELLED_SENTENCE)
            await end_request(error, conversation, broker=broker, ledger=stores.ledger)
            await stores.memory.clear_pending(
                event.tenant_id, conversation.conversation_id, event.interrupt_id
            )
            return
        turn = Turn.resumed(pending.resume_point)
        loaded = await _load(event, conversation, stores, exclude={turn.request_id, event.request_id})
        asked = pending.interrupt.interrupt_type
        answered = apply_answer(turn, asked, event.resume_value, loaded.context.catalog)
        if isinstance(answered, Retry):
            await _hand_back(answered, event, conversation, stores, broker)
            return
        if isinstance(answered, Escalate):
            await escalate_to_reviewer(
                answered,
                event,
                conversation,
                broker=broker,
                ledger=stores.ledger,
                escalations=EscalationStore(redis),
            )
            await stores.memory.clear_pending(
                event.tenant_id, conversation.conversation_id, event.interrupt_id
            )
            return
        report = status_reporter(broker, event)
        outcome = (
            answered
            if isinstance(answered, Question | Refusal)
            else await advance(answered, loaded.context, deciders, report)
        )
        await _conclude(outcome, event, conversation, loaded, broker, stores, answered=pending)

    await _proceed_unless_ended(event, resume, broker=broker, stores=stores, final_delivery=final_delivery)


async def _proceed_unless_ended(
    event: Envelope,
    proceed: Callable[[ConversationRecord], Awaitable[None]],
    *,
    broker: NatsBroker,
    stores: Stores,
    final_delivery: bool,
) -> None:
    """Run ``proceed`` on ``event``'s conversation unless the request ended already (a redelivery then
    only repeats its end); on the ``final_delivery`` a failure ends the request before propagating."""
    conversation = await owned_conversation(event, stores.conversations)
    try:
        if await _repeat_terminal(event, conversation, broker, stores):
            return
        await proceed(conversation)
    except Unprocessable:
        raise
    except Exception:
        if final_delivery:
            failure = ErrorEvent.ending(event, ErrorCode.REQUEST_FAILED, FAILURE_SENTENCE, retryable=True)
            await end_request(failure, conversation, broker=broker, ledger=stores.ledger)
        raise


async def _answer_customer(
    event: ChatRequested, conversation: ConversationRecord, broker: NatsBroker, redis: Redis, stores: Stores
) -> None:
    """A website customer's message: never a PalAssist question (docs/product.md, Website widget)."""
    await handle_customer_message(
        event,
        conversation,
        await stores.tenants.get(event.tenant_id),
        broker=broker,
        ledger=stores.ledger,
        conversations=stores.conversations,
        escalations=EscalationStore(redis),
        published=PublishedLibrary(redis),
    )


async def _load(
    event: Envelope, conversation: ConversationRecord, stores: Stores, *, exclude: set[str]
) -> Loaded:
    return await load_conversation(
        conversation,
        year=event.occurred_at.year,
        exclude=exclude,
        conversations=stores.conversations,
        memory=stores.memory,
        catalog=stores.catalog,
    )


async def _conclude(
    outcome: Outcome,
    event: Envelope,
    conversation: ConversationRecord,
    loaded: Loaded,
    broker: NatsBroker,
    stores: Stores,
    *,
    answered: PendingInterrupt | None,
) -> None:
    tenant, conversation_id = event.tenant_id, conversation.conversation_id
    if isinstance(outcome, Plan):
        exclude = {outcome.turn.request_id, event.request_id}
        history = history_window(loaded.messages, loaded.summary, exclude=exclude)
        profile = await stores.tenants.get(tenant)
        context = UserContext(industry=profile.industry, location=profile.location)
        company = company_context(await stores.profiles.get(tenant, event.user_id))
        # One action request per request, however often this runs within the duplicate window.
        await publish_event(
            broker,
            action_request(event, outcome, history, context, company),
            msg_id=action_handoff_id(event.request_id),
        )
        await stores.memory.remember_documents(tenant, conversation_id, registry_entries(outcome))
    elif isinstance(outcome, Question):
        pending = outcome.pending_for(event)
        # Saved before the event is published, so an answer never arrives before its resume point.
        await stores.memory.save_pending(pending)
        await end_request(pending.interrupt, conversation, broker=broker, ledger=stores.ledger)
        return
    else:
        await end_request(outcome.error_for(event), conversation, broker=broker, ledger=stores.ledger)
    if answered is not None:
        await stores.memory.clear_pending(tenant, conversation_id, answered.interrupt.interrupt_id)


async def _hand_back(
    retry: Retry, event: ChatResumed, conversation: ConversationRecord, stores: Stores, broker: NatsBroker
) -> None:
    """The paused request goes back to its worker, whose answer ends ``event``'s request."""
    # One action request per request, however often this runs within the duplicate window.
    await publish_event(broker, retried_request(event, retry), msg_id=action_handoff_id(event.request_id))
    await stores.memory.clear_pending(event.tenant_id, conversation.conversation_id, event.interrupt_id)


async def _repeat_terminal(
    event: Envelope, conversation: ConversationRecord, broker: NatsBroker, stores: Stores
) -> bool:
    """A redelivered request that has ended already only repeats its end (the same turn, the same
    event, by whichever service ended it); True if it had one."""
    existing = await stores.ledger.terminal(event.tenant_id, event.request_id)
    if not isinstance(existing, ChatTerminal):
        return False
    await end_request(existing, conversation, broker=broker, ledger=stores.ledger)
    return True


async def _supersede_pending(
    event: ChatRequested, conversation: ConversationRecord, memory: ConversationMemory
) -> None:
    """A new message replaces the question the conversation waits on (ADR 0003)."""
    tenant, conversation_id = event.tenant_id, conversation.conversation_id
    pending = await memory.pending(tenant, conversation_id)
    if pending is not None and pending.interrupt.occurred_at <= event.occurred_at:
        await memory.clear_pending(tenant, conversation_id, pending.interrupt.interrupt_id)
