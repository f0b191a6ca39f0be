"""One action request, from the bus to its single terminal event (shared by every action worker).

The request ledger makes processing effectively once: a request that has ended is only repeated (same
stored turn, same event); the assistant message id is derived from the request id.

What the request costs besides its own work is kept to what the invariants need: one Redis read for
its start (conversation, terminal event, API record), progress lines published in the background but
always before the terminal event, one Redis round trip to record the terminal event and keep it in the
history, and one to note it was published (only once JetStream acknowledged it).
"""

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from faststream.nats import NatsBroker
from redis.asyncio import Redis

from actions.lifecycle.replies import TokenPublisher, conclude
from actions.progress_lines import ProgressLines
from policypal.bus import Unprocessable
from policypal.contracts import (
    ActionRequested,
    ActionResult,
    Citation,
    ConfidenceTier,
    ErrorEvent,
    InterruptEvent,
    ResponseEvent,
    Usage,
    WebCitation,
    answering,
)
from policypal.contracts.codes import ErrorCode, StatusStage
from policypal.state import (
    ConversationMemory,
    ConversationRecord,
    PendingInterrupt,
    Question,
    Refusal,
    RequestLedger,
    RequestTracker,
    assistant_message_id,
    read_request_start,
)

FAILURE_SENTENCE = (
    "I couldn't read your documents just now, and retrying did not help. Please ask again in a moment."
)

#: Publishes one progress line of the request: (stage, message).
Progress = Callable[[StatusStage, str], Awaitable[None]]
#: Publishes the next piece of an answer as a language model writes it (a token event).
OnDelta = Callable[[str], Awaitable[None]]

#: The model named on answers composed without a language model.
OFFLINE_MODEL = "offline-extractive"


@dataclass(frozen=True)
class ActionAnswer:
    """What an action composed: the text with [N] markers, their citations, a structured result.

    ``model`` and ``usage`` are the language model's when one drafted it; offline they stay
    ``offline-extractive`` and zero. The retrieval fields (confidence tier, caution, cache hit, web
    citations) are set by actions that report them (@Inquire).
    """

    answer: str
    citations: list[Citation]
    result: ActionResult | None = None
    notices: list[str] = field(default_factory=list)
    model: str = OFFLINE_MODEL
    usage: Usage = field(default_factory=Usage)
    retrieval_confidence: ConfidenceTier | None = None
    caution: str | None = None
    cached: bool = False
    web_citations: list[WebCitation] = field(default_factory=list)


#: Composes the answer of a request: (event, progress, tokens); ``tokens`` receives streamed text.
Compose = Callable[[ActionRequested, Progress, OnDelta], Awaitable[ActionAnswer | Question]]


async def run_action_request(
    event: ActionRequested,
    compose: Compose,
    *,
    broker: NatsBroker,
    redis: Redis,
    final_delivery: bool,
    failure_sentence: str = FAILURE_SENTENCE,
) -> None:
    """Answer ``event`` once with ``compose``: store the assistant turn, publish the terminal event.

    Infrastructure errors propagate so the delivery is retried; on the ``final_delivery`` the user gets
    an ``action_failed`` error saying ``failure_sentence`` before the message is dead-lettered
    (docs/architecture.md, Invariant: one terminal event per request). A ``Refusal`` ends the request with an error event that says why,
    without retrying; a ``Question`` ends it with that interrupt.
    """
    if event.thread_id is None:
        raise Unprocessable("action request without a conversation (thread_id)")
    start = await read_request_start(
        redis,
        tenant_id=event.tenant_id,
        user_id=event.user_id,
        conversation_id=event.thread_id,
        request_id=event.request_id,
    )
    if start.conversation is None:
        raise Unprocessable(f"conversation {event.thread_id} not found for this tenant and user")
    ending = Ending(start.conversation, broker=broker, redis=redis)
    progress = ProgressLines(broker, event)
    tokens = TokenPublisher(broker, event)

    async def on_delta(text: str) -> None:
        # A token follows the status lines published before it.
        await progress.settled()
        await tokens(text)

    try:
        if isinstance(start.terminal, ResponseEvent | ErrorEvent | InterruptEvent):
            await ending.finish(start.terminal)
            return
        # A request made through the API (POST /v1/audits) reports "running" from here on.
        await RequestTracker(redis).mark_started(start.tracked)
        try:
            outcome = await compose(event, progress, on_delta)
        except Refusal as refusal:
            await progress.settled()
            await tokens.flush()
            await ending.finish(refusal.error_for(event))
            return
        await progress.settled()
        await tokens.flush()
        if isinstance(outcome, Question):
            await ending.ask(outcome.pending_for(event))
        else:
            await ending.finish(response_event(event, outcome))
    except Unprocessable:
        raise
    except Exception:
        # A line still in flight must not land after the error event.
        await progress.abandon()
        if final_delivery:
            await ending.finish(
                ErrorEvent.ending(event, ErrorCode.ACTION_FAILED, failure_sentence, retryable=True)
            )
        raise
    finally:
        # Also on cancellation (shutdown): no status line outlives its request.
        await progress.abandon()


class Ending:
    """How a request in ``conversation`` ends: its one terminal event recorded, kept in the history,
    then published."""

    def __init__(self, conversation: ConversationRecord, *, broker: NatsBroker, redis: Redis) -> None:
        self._conversation = conversation
        self._broker = broker
        self._redis = redis
        self._ledger = RequestLedger(redis)

    async def finish(self, terminal: ResponseEvent | ErrorEvent | InterruptEvent) -> None:
        """End the request with ``terminal`` unless another terminal event stands already.

        A redelivered request ends again with the terminal event it has (same turn, same event); a
        question is then not saved as pending again: a newer message may have replaced it meanwhile.
        """
        await conclude(terminal, self._conversation, broker=self._broker, ledger=self._ledger)

    async def ask(self, pending: PendingInterrupt) -> None:
        """End the request with a PalAssist question: ``pending`` is saved as the conversation's pending
        interrupt first, so an answer never arrives before the point it resumes from (ADR 0003), then
        its interrupt ends the request as ``finish`` does."""
        await ConversationMemory(self._redis).save_pending(pending)
        await self.finish(pending.interrupt)


def response_event(event: ActionRequested, answer: ActionAnswer) -> ResponseEvent:
    """The terminal response of ``event`` carrying ``answer``."""
    return ResponseEvent(
        **answering(event),
        message_id=assistant_message_id(event.request_id),
        action=event.action,
        answer=answer.answer,
        citations=answer.citations,
        model=answer.model,
        usage=answer.usage,
        inference_confidence=event.inference_confidence,
        retrieval_confidence=answer.retrieval_confidence,
        caution=answer.caution,
        notices=[*event.notices, *answer.notices],
        result=answer.result,
        cached=answer.cached,
        web_citations=answer.web_citations,
    )
