"""A stored thread event, decoded and rendered once however many connections it goes to."""

import json
import logging
from dataclasses import dataclass
from typing import Any

from nats.aio.msg import Msg
from opentelemetry import propagate

from notifier.wire import SseFrame, event_frame
from policypal.telemetry import tracer

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class StoredEvent:
    """One message of the EVENTS stream: its sequence, its JSON and its SSE form (None if unusable)."""

    sequence: int
    payload: dict[str, Any] | None
    sse: SseFrame | None


def stored_event(msg: Msg) -> StoredEvent:
    """Decode ``msg`` once; the SSE ``id`` is its stream sequence.

    The hand-over span ("sse deliver") continues the producer's trace, so it is the last span of the
    request. Not "as current": a context attached across a yield would leak into the consumer.
    """
    sequence = msg.metadata.sequence.stream
    payload = _decode(msg)
    # The type becomes the ``event:`` line: a line break in it would forge SSE fields.
    kind = payload.get("type") if payload is not None else None
    if not isinstance(kind, str) or "\n" in kind or "\r" in kind:
        logger.warning("skipping an undecodable event on %s", msg.subject)
        return StoredEvent(sequence=sequence, payload=None, sse=None)
    span = tracer("notifier").start_span("sse deliver", context=propagate.extract(msg.headers or {}))
    span.set_attribute("policypal.event_type", kind)
    span.set_attribute("policypal.stream_sequence", sequence)
    span.end()
    sse = event_frame(str(sequence), kind, msg.data.decode())
    return StoredEvent(sequence=sequence, payload=payload, sse=sse)


def _decode(msg: Msg) -> dict[str, Any] | None:
    try:
        payload = json.loads(msg.data)
    except ValueError:
        return None
    return payload if isinstance(payload, dict) else None
