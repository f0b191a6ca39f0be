"""Work a worker does once per ready document, ahead of the requests that will need it.

The replicas of a worker share one durable consumer of the ``EVENTS`` stream filtered to every
``document.ready`` event (a fresh durable reads the stream from its start, so documents made ready
before an upgrade are prepared too); a failed preparation is delivered again and, after
``max_deliver`` tries, dead-lettered with its error. Used by @Inquire (sentence vectors, ADR 0018)
and @Audit (rule units, ADR 0019).
"""

from collections.abc import Awaitable, Callable

from faststream.nats import NatsRouter

from policypal.bus import CurrentBroker, DeliveredMessage, durable_pull_subscriber, jstream, process_delivery
from policypal.config import Settings
from policypal.contracts import DocumentReady
from policypal.contracts.streams import DLQ, EVENTS
from policypal.contracts.subjects import DOCUMENT_READY, dead_letter


def prepare_each_ready_document(
    router: NatsRouter,
    settings: Settings,
    *,
    durable: str,
    prepare: Callable[[DocumentReady], Awaitable[object]],
) -> None:
    """Subscribe ``router``'s worker (its replicas share ``durable``) to ``document.ready``: ``prepare``
    runs once for each ready document."""
    router.publisher(dead_letter(DOCUMENT_READY), stream=jstream(DLQ), title=f"{durable}:dlq")

    @durable_pull_subscriber(router, DOCUMENT_READY, stream=EVENTS, durable=durable, settings=settings)
    async def on_document_ready(msg: DeliveredMessage, broker: CurrentBroker) -> None:
        async def handle(event: DocumentReady) -> None:
            await prepare(event)

        await process_delivery(msg, DocumentReady, handle, broker=broker, max_deliver=settings.max_deliver)
