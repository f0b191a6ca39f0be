"""What the resolver reads before it decides: the conversation, its memory and the user's documents."""

from dataclasses import dataclass

from policypal.bus import Unprocessable
from policypal.contracts.envelope import Envelope
from policypal.state import (
    ConversationMemory,
    ConversationRecord,
    ConversationStore,
    ConversationSummary,
    DocumentCatalog,
    StoredMessage,
)
from resolver.history import extractive_summary, recent_lines, summary_due
from resolver.pipeline import Context


@dataclass(frozen=True)
class Loaded:
    """A conversation as the resolver sees it for one request."""

    context: Context
    messages: list[StoredMessage]
    summary: ConversationSummary | None


async def owned_conversation(event: Envelope, conversations: ConversationStore) -> ConversationRecord:
    """The request's conversation; a request for a conversation its user does not own cannot succeed."""
    if event.thread_id is None:
        raise Unprocessable(f"{event.type} without a conversation (thread_id)")
    conversation = await conversations.get(event.tenant_id, event.user_id, event.thread_id)
    if conversation is None:
        raise Unprocessable(f"conversation {event.thread_id} not found for this tenant and user")
    return conversation


async def load_conversation(
    conversation: ConversationRecord,
    *,
    year: int,
    exclude: set[str],
    conversations: ConversationStore,
    memory: ConversationMemory,
    catalog: DocumentCatalog,
) -> Loaded:
    """Messages, registry, the summary (made or renewed when due) and the user's documents.

    ``exclude`` names the requests whose messages are the current turn rather than its history.
    """
    tenant, conversation_id = conversation.tenant_id, conversation.conversation_id
    messages = await conversations.messages(tenant, conversation_id)
    registry = await memory.registry(tenant, conversation_id)
    summary = await memory.summary(tenant, conversation_id)
    span = summary_due(len(messages), summary)
    if span:
        summary = ConversationSummary(
            text=extractive_summary(messages[:span], registry), covers_messages=span
        )
        await memory.save_summary(tenant, conversation_id, summary)
    documents = await catalog.list(tenant, conversation.user_id)
    recent = recent_lines(messages, exclude=exclude)
    return Loaded(Context(documents, registry, recent, year), messages, summary)
