"""Admitting uploads one by one as places free up, instead of a batch that waits for its slowest member.

The consumer fetches one message at a time; its handler returns as soon as the document is admitted
(working in the background), so the next upload is fetched while a long one is still running and
both take turns (``work_turns``). A message waiting for a place is kept in progress, so its
ack_wait never runs out while it waits. The background work is registered with the subscriber's
graceful-shutdown lock (FastStream waits for it on stop, as for a running handler).
"""

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import Protocol

logger = logging.getLogger(__name__)


class InProgress(Protocol):
    """The part of a delivered message admission needs."""

    async def in_progress(self) -> None:
        """Tell the server the message is being worked on (resets its ack_wait)."""
        ...


class ShutdownLock(Protocol):
    """FastStream's per-subscriber ``MultiLock``: a stopping subscriber waits until it is released."""

    def acquire(self) -> None:
        """Count one more piece of work in flight."""
        ...

    def release(self) -> None:
        """Count one piece of work done."""
        ...


class DocumentAdmission:
    """At most ``limit`` documents in progress in this process; the rest wait, kept in progress."""

    def __init__(self, limit: int) -> None:
        self._places = asyncio.Semaphore(limit)
        self._running: set[asyncio.Task[None]] = set()

    @property
    def running(self) -> int:
        """Documents admitted and not finished."""
        return len(self._running)

    async def admit(
        self,
        msg: InProgress,
        work: Callable[[], Awaitable[object]],
        *,
        keepalive_seconds: float,
        lock: ShutdownLock | None = None,
    ) -> None:
        """Wait for a place (signalling ``msg`` in progress meanwhile), then start ``work`` and return."""
        keepalive = asyncio.create_task(_keep_in_progress(msg, keepalive_seconds))
        try:
            await self._places.acquire()
        finally:
            keepalive.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await keepalive
        if lock is not None:
            lock.acquire()
        task = asyncio.create_task(self._run(work, lock))
        self._running.add(task)
        task.add_done_callback(self._running.discard)

    async def _run(self, work: Callable[[], Awaitable[object]], lock: ShutdownLock | None) -> None:
        try:
            await work()
        except Exception:
            # The work settles its own message; anything left is a bug worth a trace, not a crash.
            logger.exception("admitted work failed")
        finally:
            self._places.release()
            if lock is not None:
                lock.release()


async def _keep_in_progress(msg: InProgress, every: float) -> None:
    while True:
        await asyncio.sleep(every)
        try:
            await msg.in_progress()
        except Exception:
            logger.warning("could not mark a waiting upload in progress", exc_info=True)
