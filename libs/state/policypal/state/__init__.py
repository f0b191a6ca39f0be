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
from policypal.state.escalations import (
    AlreadyResolved,
    EscalationStore,
    EscalationTicket,
    escalation_id_for,
)
from policypal.state.memory import ConversationMemory, ConversationSummary, PendingInterrupt, RegistryEntry
from policypal.state.profiles import CompanyProfile, ProfileStore, company_context
from policypal.state.request_outcomes import Question, Refusal
from policypal.state.request_start import RequestStart, read_request_start
from policypal.state.request_status import RequestRecord, RequestTracker
from policypal.state.requests import RecordedTerminal, RequestLedger
from policypal.state.sets import DocumentSet, SetStore, set_key
from policypal.state.terminal_turns import ChatTerminal, terminal_turn

__all__ = [
    "AlreadyResolved",
    "ChatTerminal",
    "CompanyProfile",
    "ConversationMemory",
    "ConversationRecord",
    "ConversationStore",
    "ConversationSummary",
    "DeadlineBook",
    "DocumentCatalog",
    "DocumentRecord",
    "DocumentSet",
    "DocumentStatus",
    "EscalationStore",
    "EscalationTicket",
    "PendingInterrupt",
    "PendingRequest",
    "ProfileStore",
    "Question",
    "RecordedTerminal",
    "Refusal",
    "RegistryEntry",
    "RequestLedger",
    "RequestRecord",
    "RequestStart",
    "RequestTracker",
    "SetStore",
    "StoredMessage",
    "assistant_message_id",
    "company_context",
    "connect_redis",
    "escalation_id_for",
    "read_request_start",
    "set_key",
    "terminal_turn",
    "user_message_id",
]
