"""Registering each accepted chat request with its deadline (docs/architecture.md, Deadlines)."""

import time

from gateway.resources import Resources
from policypal.state import ConversationRecord, DeadlineBook, PendingRequest


async def register_deadline(resources: Resources, conversation: ConversationRecord, request_id: str) -> None:
    """The resolver's reaper ends the request with an error if nothing has ended it by then."""
    await DeadlineBook(resources.redis).register(
        PendingRequest(
            tenant_id=conversation.tenant_id,
            user_id=conversation.user_id,
            request_id=request_id,
            thread_id=conversation.conversation_id,
            deadline=time.time() + resources.settings.chat_deadline_seconds,
        )
    )
