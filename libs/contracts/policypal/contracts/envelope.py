"""The envelope every PolicyPal event carries.

Events are flat JSON objects: envelope fields beside the event's own fields. Contracts evolve
only by adding optional fields (ADR 0002); ``schema_version`` changes only for a break, which
we do not make.
"""

from datetime import UTC, datetime
from typing import Annotated

import uuid_utils
from pydantic import BaseModel, ConfigDict, Field, StringConstraints

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
