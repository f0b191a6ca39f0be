"""JetStream stream specs and the object-store bucket, declared by every publisher and consumer."""

from dataclasses import dataclass
from typing import Final, Literal

OBJECT_BUCKET: Final = "documents"

DAY_SECONDS: Final = 86_400


@dataclass(frozen=True)
class StreamSpec:
    """A stream as the bus adapter declares it (file storage)."""

    name: str
    subjects: tuple[str, ...]
    retention: Literal["limits", "workqueue"] = "limits"
    max_age_seconds: int = 0
    duplicate_window_seconds: int = 120


DOCS: Final = StreamSpec("DOCS", ("docs.>",), max_age_seconds=30 * DAY_SECONDS)
CHAT: Final = StreamSpec("CHAT", ("chat.>",), max_age_seconds=7 * DAY_SECONDS)
#: ``actions.<action>.requested`` from PolicyPal's services; ``...requested.<tenant>`` from other systems.
ACTIONS: Final = StreamSpec(
    "ACTIONS", ("actions.*.requested", "actions.*.requested.*"), retention="workqueue"
)
EVENTS: Final = StreamSpec("EVENTS", ("events.>",), max_age_seconds=7 * DAY_SECONDS)
DLQ: Final = StreamSpec("DLQ", ("dlq.>",), max_age_seconds=30 * DAY_SECONDS)

ALL_STREAMS: Final = (DOCS, CHAT, ACTIONS, EVENTS, DLQ)
