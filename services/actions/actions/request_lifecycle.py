"""One action request, from the bus to its single terminal event (shared by summarize, compare and audit).

The request ledger makes processing effectively once: a request that has ended is only repeated (same
stored turn, same event); the assistant message id is derived from the request id.
"""

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from faststream.nats import NatsBroker
from redis.asyncio import Redis

from actions.inquire.extractive_answer import MODEL
from actions.inquire.replies import TokenPublisher, conclude
from policypal.bus import Unprocessable, publish_status
from policypal.contracts import ActionRequested, Citation, ErrorEvent, ResponseEvent, Usage
from policypal.state import (
    ConversationRecord,
    ConversationStore,
    RequestLedger,
    RequestTracker,
    assistant_message_id,
)

FAILURE_SENTENCE = (
    "I couldn't read your documents just now, and retrying did not help. Please ask again in a moment."
)

#: Publishes one progress line of the request: (stage, message).
Progress = Callable[[str, str], Awaitable[None]]
#: Publishes the next piece of an answer as a language model writes it (a token event).
OnDelta = Callable[[str], Awaitable[None]]


class Refusal(Exception):  # noqa: N818 - reads as what the worker does
    """The request cannot be carried out as asked (e.g. compare with one document): tell the user why."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass(frozen=True)
class ActionAnswer:
    """What an action composed: the text with [N] markers, their citations, a structured result.

    ``model`` and ``usage`` are the language model's when one drafted it; offline they stay
    ``offline-extractive`` and zero.
    """

    answer: str
    citations: list[Citation]
    result: dict[str, Any] | None = None
    notices: list[str] = field(default_factory=list)
    model: str = MODEL
    usage: Usage = field(default_factory=Usage)


#: Composes the answer of a request: (event, progress, tokens); ``tokens`` receives streamed text.
Compose = Callable[[ActionRequested, Progress, OnDelta], Awaitable[ActionAnswer]]


async def run_action_request(
    event: ActionRequested,
    compose: Compose,
    *,
    broker: NatsBroker,
    redis: Redis,
    final_delivery: bool,
) -> None:
    """Answer ``event`` once with ``compose``: store the assistant turn, publish the terminal event.

    Infrastructure errors propagate so the delivery is retried; on the ``final_delivery`` the user gets
    an ``action_failed`` error before the message is dead-lettered (ARCHITECTURE invariant 3). A
    ``Refusal`` ends the request with an error event that says why, without retrying.
    """
    ledger = RequestLedger(redis)
    conversations = ConversationStore(redis)
    conversation = await _owned_conversation(event, conversations)

    async def finish(terminal: ResponseEvent | ErrorEvent) -> None:
        await conclude(terminal, conversation, broker=broker, ledger=ledger, conversations=conversations)

    async def progress(stage: str, message: str) -> None:
        await publish_status(broker, event, stage, message)

    try:
        existing = await ledger.terminal(event.tenant_id, event.request_id)
        if isinstance(existing, ResponseEvent | ErrorEvent):
            await finish(existing)
            return
        # A request made through the API (POST /v1/audits) reports "running" from here on.
        await RequestTracker(redis).mark_running(event.tenant_id, event.request_id)
        try:
            answer = await compose(event, progress, TokenPublisher(broker, event))
        except Refusal as refusal:
            await finish(error_event(event, refusal.code, refusal.message, retryable=False))
            return
        await finish(response_event(event, answer))
    except Unprocessable:
        raise
    except Exception:
        if final_delivery:
            await finish(error_event(event, "action_failed", FAILURE_SENTENCE, retryable=True))
        raise


def response_event(event: ActionRequested, answer: ActionAnswer) -> ResponseEvent:
    """The terminal response of ``event`` carrying ``answer``."""
    return ResponseEvent(
        tenant_id=event.tenant_id,
        user_id=event.user_id,
        request_id=event.request_id,
        thread_id=event.thread_id,
        message_id=assistant_message_id(event.request_id),
        action=event.action,
        answer=answer.answer,
        citations=answer.citations,
        model=answer.model,
        usage=answer.usage,
        inference_confidence=event.inference_confidence,
        notices=[*event.notices, *answer.notices],
        result=answer.result,
    )


def error_event(event: ActionRequested, code: str, message: str, *, retryable: bool) -> ErrorEvent:
    """The terminal error of ``event``."""
    return ErrorEvent(
        tenant_id=event.tenant_id,
        user_id=event.user_id,
        request_id=event.request_id,
        thread_id=event.thread_id,
        code=code,
        message=message,
        retryable=retryable,
    )


async def _owned_conversation(event: ActionRequested, conversations: ConversationStore) -> ConversationRecord:
    if event.thread_id is None:
        raise Unprocessable("action request without a conversation (thread_id)")
    conversation = await conversations.get(event.tenant_id, event.user_id, event.thread_id)
    if conversation is None:
        raise Unprocessable(f"conversation {event.thread_id} not found for this tenant and user")
    return conversation
