"""A stored thread event, decoded and rendered once however many connections it goes to."""

import logging
from dataclasses import dataclass

from nats.aio.msg import Msg
from opentelemetry import propagate

from notifier.wire import SseFrame, event_frame
from policypal.contracts.envelope import EnvelopeHead
from policypal.telemetry import tracer

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class StoredEvent:
    """One message of the EVENTS stream: its sequence, what routes it and its SSE form (None if unusable)."""

    sequence: int
    head: EnvelopeHead | None
    sse: SseFrame | None


def stored_event(msg: Msg) -> StoredEvent:
    """Decode ``msg`` once; the SSE ``id`` is its stream sequence.

    The hand-over span ("sse deliver") continues the producer's trace, so it is the last span of the
    request. Not "as current": a context attached across a yield would leak into the consumer.
    """
    sequence = msg.metadata.sequence.stream
    head = EnvelopeHead.read(msg.data)
    # The type becomes the ``event:`` line: a line break in it would forge SSE fields.
    if head is None or "\n" in head.type or "\r" in head.type:
        logger.warning("skipping an undecodable event on %s", msg.subject)
        return StoredEvent(sequence=sequence, head=None, sse=None)
    span = tracer("notifier").start_span("sse deliver", context=propagate.extract(msg.headers or {}))
    span.set_attribute("policypal.event_type", head.type)
    span.set_attribute("policypal.stream_sequence", sequence)
    span.end()
    sse = event_frame(str(sequence), head.type, msg.data.decode())
    return StoredEvent(sequence=sequence, head=head, sse=sse)
