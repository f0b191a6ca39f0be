"""Subject names, in one place. Tenant and thread ids are subject tokens (see ``SafeId``)."""

from typing import Final

from policypal.contracts.envelope import Envelope
from policypal.contracts.events import (
    ActionName,
    ActionRequested,
    ChatRequested,
    ChatResumed,
    DocumentDeleted,
    DocumentUploaded,
)

DOCS_UPLOADED: Final = "docs.uploaded"
DOCS_DELETED: Final = "docs.deleted"
CHAT_REQUESTED: Final = "chat.requested"
CHAT_RESUMED: Final = "chat.resumed"
DLQ_PREFIX: Final = "dlq"

#: The kind token of an events.<tenant>.<thread>.<kind> subject, by event type.
EVENT_KINDS: Final[dict[str, str]] = {
    "ingest.progress": "progress",
    "document.ready": "ready",
    "document.failed": "failed",
    "status": "status",
    "response": "response",
    "error": "error",
    "interrupt": "interrupt",
    "token": "token",
    "escalation": "escalation",
}
#: Every document's ``document.ready`` event, whatever its tenant and thread: what the workers that
#: prepare a ready document's units and rules subscribe to.
DOCUMENT_READY: Final = f"events.*.*.{EVENT_KINDS['document.ready']}"


def action_requested(action: ActionName) -> str:
    """Subject of the work queue of one action worker."""
    return f"actions.{action}.requested"


def tenant_action_requested(action: ActionName, tenant_id: str) -> str:
    """Subject of an action request published by another system for one tenant.

    The tenant is a subject token so that NATS permissions can scope an external credential to it
    (docs/adr/0007); PolicyPal's own services keep publishing ``actions.<action>.requested``.
    """
    return f"actions.{action}.requested.{tenant_id}"


def tenant_of_subject(subject: str) -> str | None:
    """The tenant a subject names (``actions.*.requested.<tenant>``, ``events.<tenant>.>``), if any."""
    tokens = subject.split(".")
    if len(tokens) == 4 and tokens[0] == "actions" and tokens[2] == "requested":
        return tokens[3]
    if len(tokens) == 4 and tokens[0] == "events":
        return tokens[1]
    return None


def thread_events(tenant_id: str, thread_id: str, kind: str) -> str:
    """Subject of one event of a thread (a conversation or a document)."""
    return f"events.{tenant_id}.{thread_id}.{kind}"


def thread_events_filter(tenant_id: str, thread_id: str) -> str:
    """Filter that matches every event of one thread of one tenant."""
    return f"events.{tenant_id}.{thread_id}.>"


def dead_letter(subject: str) -> str:
    """Where a message that cannot be processed goes, with the error in its headers."""
    return f"{DLQ_PREFIX}.{subject}"


def subject_for(event: Envelope) -> str:
    """The subject an event is published on."""
    if isinstance(event, DocumentUploaded):
        return DOCS_UPLOADED
    if isinstance(event, DocumentDeleted):
        return DOCS_DELETED
    if isinstance(event, ChatRequested):
        return CHAT_REQUESTED
    if isinstance(event, ChatResumed):
        return CHAT_RESUMED
    if isinstance(event, ActionRequested):
        return action_requested(event.action)
    kind = EVENT_KINDS.get(event.type)
    if kind is None:
        raise ValueError(f"no subject for event type {event.type!r}")
    if event.thread_id is None:
        raise ValueError(f"{event.type} event needs a thread_id to be published")
    return thread_events(event.tenant_id, event.thread_id, kind)
