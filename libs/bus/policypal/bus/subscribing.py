"""The one way a PolicyPal worker consumes a stream: a durable, work-sharing pull consumer.

Replicas that use the same ``durable`` split the messages. Acks are manual and every delivery is
settled by ``process_delivery``; the body reaches it undecoded so that even a payload that is not
JSON is dead-lettered with a reason instead of failing inside FastStream.
"""

from collections.abc import Callable
from typing import Annotated, Any

from faststream import AckPolicy

# The class behind faststream.Context(), which only exposes a factory function.
from faststream._internal.context import Context as ContextParameter
from faststream.nats import ConsumerConfig, NatsBroker, NatsMessage, NatsRouter, PullSub

# faststream.nats.NatsMessage is already an annotated parameter; annotate the class itself.
from faststream.nats.message import NatsMessage as DeliveredNatsMessage

from policypal.bus.streams import jstream
from policypal.config import Settings
from policypal.contracts.streams import StreamSpec


class _ContextOnTheLoop(ContextParameter):
    """FastStream's ``Context`` parameter, resolved on the event loop.

    fast_depends hands a synchronous ``use`` to a worker thread for every message and every such
    parameter (``faststream.nats.annotations.NatsMessage`` and ``NatsBroker`` are two): a thread hop
    each, 0.3 ms on an idle machine and several on a busy one, for a dictionary lookup.
    """

    async def use(self, /, **kwargs: Any) -> dict[str, Any]:  # type: ignore[override]  # awaited by fast_depends
        """Resolve the parameter from the message's context, as ``Context.use`` does."""
        return super().use(**kwargs)


#: The delivered message, for a handler's parameter (as ``faststream.nats.annotations.NatsMessage``).
DeliveredMessage = Annotated[DeliveredNatsMessage, _ContextOnTheLoop("message")]
#: The broker that delivered it, for a handler's parameter (as ``faststream.nats.annotations.NatsBroker``).
CurrentBroker = Annotated[NatsBroker, _ContextOnTheLoop("broker")]


async def keep_raw_body(msg: NatsMessage) -> bytes:
    """FastStream decoder that leaves the body as bytes for ``process_delivery`` to validate."""
    return msg.body


def durable_pull_subscriber(
    router: NatsRouter,
    subject: str,
    *,
    stream: StreamSpec,
    durable: str,
    settings: Settings,
    batch_size: int = 1,
) -> Callable[[Callable[..., Any]], Any]:
    """Decorator registering a handler on ``subject`` as the shared durable consumer ``durable``."""
    return router.subscriber(
        subject,
        stream=jstream(stream),
        durable=durable,
        pull_sub=PullSub(batch_size=batch_size, timeout=5.0),
        ack_policy=AckPolicy.MANUAL,
        decoder=keep_raw_body,
        config=ConsumerConfig(
            durable_name=durable, max_deliver=settings.max_deliver, ack_wait=settings.ack_wait_seconds
        ),
    )


def is_last_delivery(msg: NatsMessage, max_deliver: int) -> bool:
    """Whether this delivery is the last before the message is dead-lettered.

    Handlers use it to tell the user the request failed before ``process_delivery`` gives up.
    """
    delivered: int = msg.raw_message.metadata.num_delivered
    return delivered >= max_deliver
