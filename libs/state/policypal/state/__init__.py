"""Redis state of PolicyPal. Every key starts with ``pp:<tenant>:``."""

from policypal.state.connection import connect_redis
from policypal.state.conversations import (
    ConversationRecord,
    ConversationStore,
    StoredMessage,
    assistant_message_id,
    user_message_id,
)
from policypal.state.deadlines import DeadlineBook, PendingRequest
from policypal.state.documents import DocumentCatalog, DocumentRecord, DocumentStatus
from policypal.state.memory import ConversationMemory, ConversationSummary, PendingInterrupt, RegistryEntry
from policypal.state.requests import RequestLedger

__all__ = [
    "ConversationMemory",
    "ConversationRecord",
    "ConversationStore",
    "ConversationSummary",
    "DeadlineBook",
    "DocumentCatalog",
    "DocumentRecord",
    "DocumentStatus",
    "PendingInterrupt",
    "PendingRequest",
    "RegistryEntry",
    "RequestLedger",
    "StoredMessage",
    "assistant_message_id",
    "connect_redis",
    "user_message_id",
]
