"""One JetStream delivery, handled to the end: admit, parse, run, then ack, retry later, or dead-letter.

Admission (``policypal.bus.admission``) refuses oversized messages, unknown schema versions and a
payload whose tenant is not the subject's before anything else reads them. Subscribers use manual
acknowledgement and hand each message to ``process_delivery`` so that every service treats bad input
and failures the same way.
"""

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable, Sequence
from enum import StrEnum
from typing import TypeVar

from faststream.nats import NatsBroker, NatsMessage
from nats.js import JetStreamContext
from pydantic import BaseModel, ValidationError

from policypal.bus.admission import Inadmissible, admit
from policypal.bus.publishing import publish_event
from policypal.contracts import ActionRequested, ErrorEvent
from policypal.contracts.codes import ErrorCode
from policypal.contracts.dedup_ids import dead_letter_id, terminal_id
from policypal.contracts.envelope import Envelope
from policypal.contracts.streams import DLQ
from policypal.contracts.subjects import dead_letter
from policypal.telemetry import record_request, request_scope, service_span

logger = logging.getLogger(__name__)

E = TypeVar("E", bound=BaseModel)

DEFAULT_BACKOFF: tuple[float, ...] = (1.0, 5.0, 15.0, 30.0)
#: NATS's own default ack_wait, assumed when the consumer cannot be asked for its own.
DEFAULT_ACK_WAIT = 30.0
#: In-progress signals per ack_wait: one lost or late signal still leaves time for the next.
KEEPALIVES_PER_ACK_WAIT = 3


class Unprocessable(Exception):  # noqa: N818 - reads as a verdict on the message
    """Raised by a handler when retrying cannot help: the message goes straight to the dead letters."""


class DeliveryOutcome(StrEnum):
    """What happened to one delivery."""

    ACKED = "acked"
    RETRY = "retry"
    DEAD_LETTERED = "dead_lettered"


async def process_delivery(
    msg: NatsMessage,
    model: type[E],
    handle: Callable[[E], Awaitable[None]],
    *,
    broker: NatsBroker,
    max_deliver: int,
    keepalive_seconds: float | None = None,
    backoff: Sequence[float] = DEFAULT_BACKOFF,
) -> DeliveryOutcome:
    """Validate ``msg`` as ``model``, run ``handle`` and settle the message.

    While the handler runs, the message is marked in progress every ``keepalive_seconds`` (default: a
    third of the consumer's ack_wait) so a long job (a 500-page PDF) is not redelivered to another
    worker. A handler error is retried with back-off until ``max_deliver`` deliveries, then the message
    is dead-lettered with the error. The handling is one span and one ``policypal.requests`` count.
    """
    started = time.perf_counter()
    consumer = msg.raw_message.metadata.consumer
    payload, refusal = admit(msg.raw_message.subject, msg.body)
    event: E | ValidationError | Inadmissible
    if refusal is not None:
        event = refusal
    else:
        try:
            event = model.model_validate(payload)
        except ValidationError as exc:
            event = exc
    action = _action_of(event)
    scope = (
        request_scope(event.tenant_id, event.request_id, action)
        if isinstance(event, Envelope)
        else contextlib.nullcontext()
    )
    with scope, service_span(f"handle {consumer}", {"messaging.consumer.group.name": consumer}):
        outcome = await _settle(msg, model, event, handle, broker, max_deliver, keepalive_seconds, backoff)
    record_request(consumer, action, outcome.value, time.perf_counter() - started)
    return outcome


def _action_of(event: object) -> str | None:
    action = getattr(event, "action", None)
    return str(action) if action else None


async def _settle(
    msg: NatsMessage,
    model: type[E],
    event: E | ValidationError | Inadmissible,
    handle: Callable[[E], Awaitable[None]],
    broker: NatsBroker,
    max_deliver: int,
    keepalive_seconds: float | None,
    backoff: Sequence[float],
) -> DeliveryOutcome:
    deliveries = msg.raw_message.metadata.num_delivered
    if isinstance(event, Inadmissible):
        await _dead_letter(broker, msg, f"{event.code}: {event.reason}", deliveries, code=event.code)
        return DeliveryOutcome.DEAD_LETTERED
    if isinstance(event, ValidationError):
        reason = f"invalid {model.__name__}: " + "; ".join(
            f"{'.'.join(str(p) for p in err['loc']) or '<root>'}: {err['msg']}" for err in event.errors()
        )
        await _dead_letter(broker, msg, reason, deliveries, code="invalid")
        return DeliveryOutcome.DEAD_LETTERED

    every = keepalive_seconds or await ack_wait_of(broker, msg) / KEEPALIVES_PER_ACK_WAIT
    keepalive = asyncio.create_task(_keep_in_progress(msg, every))
    try:
        await handle(event)
    except Unprocessable as exc:
        await tell_the_requester(broker, event, str(exc))
        await _dead_letter(broker, msg, f"unprocessable: {exc}", deliveries, code="unprocessable")
        return DeliveryOutcome.DEAD_LETTERED
    except asyncio.CancelledError:
        # Shutdown outlasted its grace period: hand the message back now, not after ack_wait.
        with contextlib.suppress(Exception):
            await msg.nack()
        raise
    except Exception as exc:
        logger.exception("handler failed on delivery %d of %s", deliveries, msg.raw_message.subject)
        if deliveries >= max_deliver:
            await _dead_letter(broker, msg, f"{type(exc).__name__}: {exc}", deliveries, code="failed")
            return DeliveryOutcome.DEAD_LETTERED
        await msg.nack(delay=backoff[min(deliveries, len(backoff)) - 1])
        return DeliveryOutcome.RETRY
    finally:
        keepalive.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await keepalive
    await msg.ack()
    return DeliveryOutcome.ACKED


async def tell_the_requester(broker: NatsBroker, event: object, reason: str) -> None:
    """End an action request that cannot be run with an ``error`` event (``request_failed``) on its thread.

    Another system that published it (docs/publishing-audits.md) hears why instead of waiting for an
    answer that never comes; the message still goes to the dead letters for operators. Chat requests
    are left to the gateway's deadline, which ends every chat request it accepted. Published under the
    request's terminal id, so a terminal event already sent stands alone.
    """
    if not isinstance(event, ActionRequested) or event.thread_id is None:
        return
    sentence = f"The request was not run: {reason.rstrip('.')}."
    error = ErrorEvent.ending(event, ErrorCode.REQUEST_FAILED, sentence)
    await publish_event(broker, error, msg_id=terminal_id(event.request_id))


_ack_waits: dict[tuple[str, str], float] = {}


async def ack_wait_of(broker: NatsBroker, msg: NatsMessage) -> float:
    """The ack_wait (seconds) of the consumer that delivered ``msg``, asked of the server once per consumer.

    The server's value is the truth: a durable made earlier with another ack_wait keeps its own.
    """
    meta = msg.raw_message.metadata
    key = (meta.stream, meta.consumer)
    if key not in _ack_waits:
        try:
            js: JetStreamContext = broker.connection.jetstream()
            info = await js.consumer_info(meta.stream, meta.consumer)
        except Exception:
            logger.warning(
                "cannot read ack_wait of consumer %s; assuming %.0f s", meta.consumer, DEFAULT_ACK_WAIT
            )
            return DEFAULT_ACK_WAIT
        _ack_waits[key] = info.config.ack_wait or DEFAULT_ACK_WAIT
    return _ack_waits[key]


async def _keep_in_progress(msg: NatsMessage, every: float) -> None:
    while True:
        await asyncio.sleep(every)
        await msg.in_progress()


async def _dead_letter(
    broker: NatsBroker, msg: NatsMessage, reason: str, deliveries: int, *, code: str
) -> None:
    raw = msg.raw_message
    meta = raw.metadata
    logger.warning("dead-lettering %s after %d deliveries: %s", raw.subject, deliveries, reason)
    await broker.publish(
        raw.data,
        dead_letter(raw.subject),
        headers={
            # One dead letter per stream message, however often this runs.
            "Nats-Msg-Id": dead_letter_id(meta.stream, meta.sequence.stream),
            "Policypal-Error": reason[:2000],
            "Policypal-Error-Code": code,
            "Policypal-Original-Subject": raw.subject,
            "Policypal-Deliveries": str(deliveries),
        },
        stream=DLQ.name,
    )
    await msg.reject()
