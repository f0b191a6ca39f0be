"""Publishing events: subject from the contract, Nats-Msg-Id from the event id."""

from typing import Protocol

from faststream.nats import NatsBroker

from policypal.contracts import StatusEvent
from policypal.contracts.codes import StatusStage
from policypal.contracts.dedup_ids import status_id, terminal_id
from policypal.contracts.envelope import Envelope, answering
from policypal.contracts.streams import ACTIONS, CHAT, DLQ, DOCS, EVENTS
from policypal.contracts.subjects import subject_for

_STREAM_BY_PREFIX = {
    "docs": DOCS.name,
    "chat": CHAT.name,
    "actions": ACTIONS.name,
    "events": EVENTS.name,
    "dlq": DLQ.name,
}


async def publish_event(broker: NatsBroker, event: Envelope, *, msg_id: str | None = None) -> str:
    """Publish ``event`` on its subject and wait for JetStream's ack; returns the subject.

    ``Nats-Msg-Id`` is the event id unless ``msg_id`` is given (a deterministic id makes a retried
    publish of the same logical event a duplicate that JetStream drops).
    """
    subject = subject_for(event)
    await broker.publish(
        event.model_dump_json().encode(),
        subject,
        headers={"Nats-Msg-Id": msg_id or event.event_id, "content-type": "application/json"},
        stream=_STREAM_BY_PREFIX[subject.split(".", 1)[0]],
    )
    return subject


class TerminalRecorder(Protocol):
    """Keeps the one terminal event of each request (``policypal.state.RequestLedger``)."""

    async def record_terminal(self, event: Envelope) -> Envelope:
        """Store ``event`` unless the request already has one; return the one that stands."""
        ...

    async def was_published(self, event: Envelope) -> bool:
        """Whether the terminal event already reached the bus."""
        ...

    async def mark_published(self, event: Envelope) -> None:
        """Remember that the terminal event reached the bus."""
        ...


async def publish_terminal(broker: NatsBroker, recorder: TerminalRecorder, event: Envelope) -> Envelope:
    """Publish the terminal event (response, error, interrupt, ready, failed) of a request exactly once.

    The first terminal event recorded wins. It is published unless the recorder says it already was;
    a crash between publishing and marking re-publishes it under the Nats-Msg-Id
    ``terminal:<request_id>``, which JetStream de-duplicates within its window.
    """
    standing = await recorder.record_terminal(event)
    await publish_recorded_terminal(
        broker, recorder, standing, published=await recorder.was_published(standing)
    )
    return standing


async def publish_recorded_terminal(
    broker: NatsBroker, recorder: TerminalRecorder, standing: Envelope, *, published: bool
) -> None:
    """Publish ``standing``, the terminal event the recorder already holds, unless it was ``published``.

    For a caller that recorded the event and read ``published`` itself (``RequestLedger.record_and_keep``,
    one round trip): the rest is ``publish_terminal``'s, the mark set only once JetStream acknowledged.
    """
    if not published:
        await publish_event(broker, standing, msg_id=terminal_id(standing.request_id))
        await recorder.mark_published(standing)


async def publish_status(broker: NatsBroker, request: Envelope, stage: StatusStage, message: str) -> None:
    """Publish a status line of ``request`` on its thread.

    The Nats-Msg-Id is fixed per request and stage, so a redelivered request does not repeat it.
    """
    status = StatusEvent(
        **answering(request),
        stage=stage,
        message=message,
    )
    await publish_event(broker, status, msg_id=status_id(request.request_id, stage))
