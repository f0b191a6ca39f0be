"""Fair turns for the heavy steps of ingestion (reading a PDF page, embedding a few passages).

Every document an ingestor process works on asks for a turn before each step; turns go round-robin
over tenants, then over each tenant's documents, so a 500-page document gets one step, then a small
document behind it gets one, and so on: the small one is ready after a few steps, whatever the size
of the large one (docs/adr/0008-fair-bounded-ingestion.md). Before each step the document's owner
is asked whether it still wants it: deleting a document stops its ingestion within a step.
"""

import asyncio
import contextlib
import time
from collections import OrderedDict, deque
from collections.abc import AsyncIterator, Awaitable, Callable

from ingestor import rejections


class FairTurns:
    """``slots`` steps at a time in one process, handed out round-robin over tenants, then documents."""

    def __init__(self, slots: int = 1) -> None:
        if slots < 1:
            raise ValueError("slots must be at least 1")
        self._slots = slots
        self._busy = 0
        # tenant -> document -> waiters, in the order they get their turn.
        self._waiting: dict[str, OrderedDict[str, deque[asyncio.Future[None]]]] = {}
        self._tenants: deque[str] = deque()

    @property
    def waiting(self) -> int:
        """Steps waiting for a turn."""
        return sum(len(q) for docs in self._waiting.values() for q in docs.values())

    @contextlib.asynccontextmanager
    async def turn(self, tenant_id: str, document_id: str) -> AsyncIterator[None]:
        """Wait for this document's turn, hold it for the ``async with`` body, then pass it on."""
        if self._busy < self._slots and not self._waiting:
            self._busy += 1
        else:
            granted = self._enqueue(tenant_id, document_id)
            try:
                await granted
            except asyncio.CancelledError:
                if granted.done() and not granted.cancelled():
                    self._release()  # granted just as we were cancelled: pass the turn on
                raise
        try:
            yield
        finally:
            self._release()

    def _enqueue(self, tenant_id: str, document_id: str) -> asyncio.Future[None]:
        granted: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        documents = self._waiting.get(tenant_id)
        if documents is None:
            documents = self._waiting[tenant_id] = OrderedDict()
            self._tenants.append(tenant_id)
        documents.setdefault(document_id, deque()).append(granted)
        return granted

    def _release(self) -> None:
        self._busy -= 1
        while self._busy < self._slots and self._tenants:
            tenant_id = self._tenants.popleft()
            documents = self._waiting[tenant_id]
            document_id, waiters = next(iter(documents.items()))
            granted = waiters.popleft()
            if waiters:
                documents.move_to_end(document_id)  # this tenant's other documents go first next time
            else:
                del documents[document_id]
            if documents:
                self._tenants.append(tenant_id)
            else:
                del self._waiting[tenant_id]
            if not granted.cancelled():
                granted.set_result(None)
                self._busy += 1


class DocumentSteps:
    """The steps of one document: each first checks the document is still wanted, then takes a turn."""

    def __init__(
        self,
        turns: FairTurns,
        *,
        tenant_id: str,
        document_id: str,
        still_wanted: Callable[[], Awaitable[bool]],
        check_every: float = 1.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._turns = turns
        self._tenant_id = tenant_id
        self._document_id = document_id
        self._still_wanted = still_wanted
        self._check_every = check_every
        self._clock = clock
        self._checked_at = float("-inf")

    @contextlib.asynccontextmanager
    async def step(self) -> AsyncIterator[None]:
        """One heavy step; raises ``DocumentRejected`` (deleted) once the owner deleted the document."""
        await self.check_wanted()
        async with self._turns.turn(self._tenant_id, self._document_id):
            yield

    async def check_wanted(self) -> None:
        """Ask the owner (the catalog) at most every ``check_every`` seconds; rejects a deleted document."""
        now = self._clock()
        if now - self._checked_at < self._check_every:
            return
        self._checked_at = now
        if not await self._still_wanted():
            raise rejections.deleted()


def unpaced_steps(tenant_id: str = "", document_id: str = "") -> DocumentSteps:
    """Steps that never wait and never stop: for parsing outside an ingestor (tests, benchmarks)."""

    async def always() -> bool:
        return True

    return DocumentSteps(
        FairTurns(slots=1_000_000), tenant_id=tenant_id, document_id=document_id, still_wanted=always
    )
