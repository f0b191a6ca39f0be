"""Publishing under load: a publish whose JetStream ack comes late is tried again, within a deadline.

With an ingestion on the same cores, the ack of a publish can arrive after the client's timeout
("nats: timeout") although the server stored the event; failing the request for that made JetStream
redeliver it. Every event of a request has a fixed Nats-Msg-Id (a status line's is its request and
stage, a token's and a terminal event's their event id), so a repeated publish of an event the server
did store is dropped as a duplicate: trying again is safe, and cheaper than redoing the request.
"""

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from typing import TypeVar

logger = logging.getLogger(__name__)

T = TypeVar("T")

#: How long one event may take to publish, retries included (well within a delivery's ack_wait,
#: which in-progress signals extend anyway).
PUBLISH_DEADLINE_SECONDS = 20.0
FIRST_PAUSE_SECONDS = 0.05
LONGEST_PAUSE_SECONDS = 2.0


async def publish_patiently(
    publish: Callable[[], Awaitable[T]],
    *,
    within: float = PUBLISH_DEADLINE_SECONDS,
    what: str = "event",
    clock: Callable[[], float] = time.monotonic,
) -> T:
    """Run ``publish`` until it succeeds, pausing 0.05 s, 0.1 s, … (at most 2 s) after each timeout;
    the last timeout is raised once ``within`` seconds would be exceeded. Other errors are raised at once."""
    deadline = clock() + within
    pause = FIRST_PAUSE_SECONDS
    attempt = 1
    while True:
        try:
            return await publish()
        except TimeoutError:
            # nats.errors.TimeoutError is an asyncio.TimeoutError, i.e. the built-in TimeoutError.
            if clock() + pause >= deadline:
                raise
            logger.warning(
                "publishing %s timed out (attempt %d); trying again in %.2f s", what, attempt, pause
            )
        await asyncio.sleep(pause)
        pause = min(pause * 2, LONGEST_PAUSE_SECONDS)
        attempt += 1
