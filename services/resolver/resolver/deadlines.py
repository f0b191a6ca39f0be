"""Ending overdue chat requests: every request ends within its deadline (docs/architecture.md, Invariant: one terminal event per request).

The gateway registers each chat request with its deadline; this loop, running in every resolver
replica, claims expired requests (each claimed by one replica) and ends those that have no terminal
event yet with a ``deadline_exceeded`` error. If the worker finishes later, the request ledger keeps
the error as the one terminal event, so the user never sees two endings.
"""

import asyncio

from faststream.nats import NatsBroker
from redis.asyncio import Redis

from policypal.config import Settings
from policypal.contracts import ErrorEvent
from policypal.contracts.codes import ErrorCode
from policypal.state import ConversationStore, DeadlineBook, PendingRequest, RequestLedger
from resolver.replies import end_request


def deadline_error(pending: PendingRequest, deadline_seconds: float) -> ErrorEvent:
    """The terminal error of a request that ran out of time."""
    return ErrorEvent.ending(
        pending,
        ErrorCode.DEADLINE_EXCEEDED,
        f"PolicyPal could not finish this request within {deadline_seconds:g} seconds. "
        "Please send it again; if this keeps happening, tell your administrator.",
        retryable=True,
    )


async def end_if_overdue(
    pending: PendingRequest,
    *,
    broker: NatsBroker,
    ledger: RequestLedger,
    conversations: ConversationStore,
    deadline_seconds: float,
) -> bool:
    """End ``pending`` with a deadline error unless it already ended; True if it was ended here."""
    if await ledger.terminal(pending.tenant_id, pending.request_id) is not None:
        return False
    conversation = await conversations.get(pending.tenant_id, pending.user_id, pending.thread_id)
    if conversation is None:  # deleted meanwhile: nobody to tell
        return False
    await end_request(deadline_error(pending, deadline_seconds), conversation, broker=broker, ledger=ledger)
    return True


async def end_overdue_requests(broker: NatsBroker, *, redis: Redis, settings: Settings) -> None:
    """Forever: claim expired requests and end those still open."""
    book, ledger, conversations = DeadlineBook(redis), RequestLedger(redis), ConversationStore(redis)
    while True:
        for pending in await book.claim_expired():
            await end_if_overdue(
                pending,
                broker=broker,
                ledger=ledger,
                conversations=conversations,
                deadline_seconds=settings.chat_deadline_seconds,
            )
        await asyncio.sleep(settings.deadline_check_seconds)
