"""The envelope every PolicyPal event carries.

Events are flat JSON objects: envelope fields beside the event's own fields. Contracts evolve
only by adding optional fields (ADR 0002); ``schema_version`` changes only for a break, which
we do not make.
"""

from datetime import UTC, datetime
from typing import Annotated, Protocol, TypedDict

import uuid_utils
from pydantic import BaseModel, ConfigDict, Field, StringConstraints, ValidationError

SCHEMA_VERSION = 1

#: Tenant and user ids become NATS subject tokens and Redis key parts: keep them to a safe alphabet.
SafeId = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9_-]{1,64}$")]


def new_event_id() -> str:
    """A UUIDv7 string: unique and sortable by creation time."""
    return str(uuid_utils.uuid7())


def utc_now() -> datetime:
    """The current time, timezone-aware in UTC."""
    return datetime.now(UTC)


class Envelope(BaseModel):
    """Fields common to every event on the bus."""

    # Unknown fields are ignored so that an older consumer reads a newer producer's events.
    model_config = ConfigDict(extra="ignore", frozen=True)

    event_id: str = Field(default_factory=new_event_id, description="UUIDv7; also the Nats-Msg-Id.")
    type: str
    schema_version: int = SCHEMA_VERSION
    tenant_id: SafeId
    user_id: SafeId
    request_id: str = Field(description="The user request (upload or chat message) this event belongs to.")
    thread_id: SafeId | None = Field(
        default=None, description="Conversation id for chat events, document id for ingestion events."
    )
    occurred_at: datetime = Field(default_factory=utc_now)


class EnvelopeHead(BaseModel):
    """What a relay reads of any event to route it unparsed: an event of a type it does not know (a
    newer producer's) still goes through, so only ``type`` is required."""

    model_config = ConfigDict(extra="ignore", frozen=True)

    type: str
    tenant_id: str | None = None
    request_id: str | None = None

    @classmethod
    def read(cls, data: bytes) -> "EnvelopeHead | None":
        """The head of the event ``data``; None unless it is a JSON object with a string ``type``."""
        try:
            return cls.model_validate_json(data)
        except ValidationError:
            return None


class HasRequestEnvelope(Protocol):
    """Whatever names a request: an event, or a record kept about one (an escalation ticket, a deadline)."""

    @property
    def tenant_id(self) -> str: ...

    @property
    def user_id(self) -> str: ...

    @property
    def request_id(self) -> str: ...

    @property
    def thread_id(self) -> str | None: ...


class RequestEnvelope(TypedDict):
    """The envelope fields an event shares with the request it belongs to."""

    tenant_id: str
    user_id: str
    request_id: str
    thread_id: str | None


def answering(request: HasRequestEnvelope) -> RequestEnvelope:
    """The envelope of an event answering ``request``: its tenant, user, request and thread.

    Spread into the new event (``StatusEvent(**answering(request), stage=..., message=...)``); the
    event id and time stay the new event's own.
    """
    return RequestEnvelope(
        tenant_id=request.tenant_id,
        user_id=request.user_id,
        request_id=request.request_id,
        thread_id=request.thread_id,
    )
