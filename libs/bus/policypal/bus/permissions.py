"""Who may publish and subscribe to what on the bus: NATS permissions per service and per external system.

The bus is one NATS account (JetStream and its streams live there); each PolicyPal service connects as
its own user, and another system connects as a user scoped to one tenant (docs/adr/0007). A subject
that is not allowed is denied: nats-server refuses the publish or the subscription.
"""

from dataclasses import dataclass

from policypal.contracts.streams import ACTIONS, CHAT, DLQ, DOCS, EVENTS, OBJECT_BUCKET
from policypal.contracts.subjects import (
    CHAT_REQUESTED,
    CHAT_RESUMED,
    DOCS_DELETED,
    DOCS_UPLOADED,
    DOCUMENT_READY,
    dead_letter,
    tenant_action_requested,
)

#: Inboxes of PolicyPal's services (nats-py's default prefix): replies to JetStream API calls and pulls.
SERVICE_INBOXES = "_INBOX.>"
#: Stream that backs the object-store bucket of uploaded files.
OBJECT_STREAM = f"OBJ_{OBJECT_BUCKET}"


@dataclass(frozen=True)
class Permissions:
    """Subjects a NATS user may publish to and subscribe to (wildcards allowed)."""

    publish: tuple[str, ...]
    subscribe: tuple[str, ...]

    def __or__(self, other: "Permissions") -> "Permissions":
        """Both users' rights, for a process that runs two services on one connection."""
        return Permissions(
            publish=tuple(dict.fromkeys(self.publish + other.publish)),
            subscribe=tuple(dict.fromkeys(self.subscribe + other.subscribe)),
        )


def jetstream_api(*streams: str) -> tuple[str, ...]:
    """JetStream API, ack and flow-control subjects that declare, read and consume only ``streams``."""
    # STREAM.NAMES finds a stream by subject (nats-py's subscribe without stream=): names only.
    subjects = ["$JS.API.INFO", "$JS.API.STREAM.NAMES"]
    for stream in streams:
        subjects += [
            f"$JS.API.STREAM.*.{stream}",  # create, update, info, purge
            f"$JS.API.STREAM.MSG.*.{stream}",  # get, delete one message
            f"$JS.API.DIRECT.GET.{stream}",
            f"$JS.API.DIRECT.GET.{stream}.>",
            f"$JS.API.CONSUMER.*.{stream}",  # names, list, ephemeral create
            f"$JS.API.CONSUMER.*.{stream}.>",  # create, info, delete of a named consumer
            f"$JS.API.CONSUMER.*.*.{stream}.>",  # durable.create, msg.next
            f"$JS.ACK.{stream}.>",
            f"$JS.FC.{stream}.>",
        ]
    return tuple(subjects)


def _service(publish: tuple[str, ...], streams: tuple[str, ...]) -> Permissions:
    return Permissions(publish=publish + jetstream_api(*streams), subscribe=(SERVICE_INBOXES,))


_THREAD_EVENTS = "events.*.*.*"
_OBJECTS = f"$O.{OBJECT_BUCKET}.>"

#: The NATS rights of each PolicyPal service, by the name its user has.
SERVICE_PERMISSIONS: dict[str, Permissions] = {
    # Uploads, deletions, chat messages, HTTP audit requests and reviewers' answers; the file bytes.
    "gateway": _service(
        (
            DOCS_UPLOADED,
            DOCS_DELETED,
            CHAT_REQUESTED,
            CHAT_RESUMED,
            "actions.*.requested",
            _THREAD_EVENTS,
            _OBJECTS,
        ),
        (DOCS.name, CHAT.name, ACTIONS.name, EVENTS.name, DLQ.name, OBJECT_STREAM),
    ),
    # Reads events only, through ephemeral consumers of the EVENTS stream.
    "notifier": _service((), (EVENTS.name,)),
    "resolver": _service(
        ("actions.*.requested", _THREAD_EVENTS, "dlq.chat.>"),
        (CHAT.name, ACTIONS.name, EVENTS.name, DLQ.name),
    ),
    "ingestor": _service(
        (_THREAD_EVENTS, "dlq.docs.>", _OBJECTS), (DOCS.name, EVENTS.name, DLQ.name, OBJECT_STREAM)
    ),
    # Reads document.ready events too (durables of the EVENTS stream) to prepare unit vectors and rules.
    "actions": _service(
        (_THREAD_EVENTS, "dlq.actions.>", dead_letter(DOCUMENT_READY)), (ACTIONS.name, EVENTS.name, DLQ.name)
    ),
}


def service_permissions(*services: str) -> Permissions:
    """The rights of a process running ``services`` (one, or several colocated on one connection)."""
    if not services:
        raise ValueError("name at least one service")
    combined = SERVICE_PERMISSIONS[services[0]]
    for name in services[1:]:
        combined = combined | SERVICE_PERMISSIONS[name]
    return combined


def external_inbox_prefix(tenant_id: str) -> str:
    """The inbox prefix an external system of ``tenant_id`` connects with (its JetStream acks land there)."""
    # A hyphen never occurs in nats-py's generated inbox ids, so these cannot meet a service's inbox.
    return f"_INBOX.ext-{tenant_id}"


def external_permissions(tenant_id: str) -> Permissions:
    """An external system of one tenant: publish its audit requests, read its own tenant's events."""
    return Permissions(
        publish=(tenant_action_requested("audit", tenant_id),),
        subscribe=(f"events.{tenant_id}.>", f"{external_inbox_prefix(tenant_id)}.>"),
    )
