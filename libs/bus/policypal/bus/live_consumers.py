"""Live feeds: ephemeral ordered consumers that deliver what a stream receives from now on.

The notifier follows a thread's events this way and the gateway a tenant's reviewer tickets. Each
consumer is removed as soon as its reader leaves, not after the server's idle timeout, so open
connections, not past ones, decide how many consumers the server keeps.
"""

import contextlib
from collections.abc import Awaitable, Callable

from nats.aio.msg import Msg
from nats.js import JetStreamContext
from nats.js.api import DeliverPolicy
from nats.js.errors import NotFoundError

from policypal.contracts.streams import StreamSpec


async def follow_new(
    js: JetStreamContext, stream: StreamSpec, subject: str, on_message: Callable[[Msg], Awaitable[None]]
) -> JetStreamContext.PushSubscription:
    """Call ``on_message`` with each message ``stream`` stores on ``subject`` from now on, in order."""
    return await js.subscribe(
        subject,
        stream=stream.name,
        ordered_consumer=True,
        deliver_policy=DeliverPolicy.NEW,
        cb=on_message,
    )


async def remove_consumer(js: JetStreamContext, subscription: JetStreamContext.PushSubscription) -> None:
    """Stop delivery and delete the subscription's consumer now, not after the server's idle timeout."""
    try:
        info = await subscription.consumer_info()
    except Exception:  # already gone, or the connection is down: the server cleans up by itself
        info = None
    await subscription.unsubscribe()
    if info is not None:
        with contextlib.suppress(NotFoundError):
            await js.delete_consumer(info.stream_name, info.name)
