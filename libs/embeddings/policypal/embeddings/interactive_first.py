"""Interactive embeddings before bulk ones, and bulk ones before idle ones, in one process, without
lowering any work's OS priority.

Bulk work (an ingestion) embeds batch after batch on lanes of its own; an interactive embedding (a
question's) marks itself under way, and a bulk batch about to start waits until none is, at most
``max_wait`` seconds, so a stream of questions slows an ingestion down but never stops it. A batch
already running is not interrupted: a question waits at most for the one running on its core.

Idle work (vectors prepared ahead of the questions that will need them) goes only when the model
has been quiet, neither interactive nor bulk, for ``quiet`` seconds: it must never slow a question
or an ingestion down, so it waits as long as they keep the model busy. One idle batch runs at a
time whatever the number of idle twins (a worker that prepares sentence vectors and one that finds
rule units, colocated), so a question that arrives meanwhile shares the cores with one at most.

This replaced lanes a few steps nicer than the process: niceness also made the ingestion give way
to every other program on a shared machine, so that beside two busy neighbours of the same niceness
it took 1.5x as long (docs/benchmarks.md, "Ingestion inside the colocated worker").
"""

import contextlib
import threading
import time
from collections.abc import Iterator

#: Longest a bulk batch waits for interactive embeddings: a few questions' worth.
MAX_WAIT_SECONDS = 1.0
#: How long the model must have been unused before an idle batch starts: longer than the gap between
#: two batches of one ingestion, or between a question's two embeddings (query, then its sentences).
QUIET_SECONDS = 2.0


class InteractiveFirst:
    """Shared by an embedder and its background and idle twins; thread-safe."""

    def __init__(self, max_wait: float = MAX_WAIT_SECONDS, quiet: float = QUIET_SECONDS) -> None:
        self._changed = threading.Condition()
        self._under_way = 0
        self._bulk_under_way = 0
        self._last_busy = float("-inf")
        self._idle_turn = threading.Lock()
        self._max_wait = max_wait
        self._quiet = quiet

    @contextlib.contextmanager
    def interactive(self) -> Iterator[None]:
        """Hold bulk and idle batches back while the body runs."""
        with self._changed:
            self._under_way += 1
        try:
            yield
        finally:
            with self._changed:
                self._under_way -= 1
                self._last_busy = time.monotonic()
                if not self._under_way:
                    self._changed.notify_all()

    def before_bulk(self) -> None:
        """Return once no interactive embedding is under way, or after ``max_wait`` seconds."""
        with self._changed:
            self._changed.wait_for(lambda: not self._under_way, timeout=self._max_wait)

    @contextlib.contextmanager
    def bulk(self) -> Iterator[None]:
        """A bulk batch: it waits as ``before_bulk`` says, then holds idle batches back while it runs."""
        self.before_bulk()
        with self._changed:
            self._bulk_under_way += 1
        try:
            yield
        finally:
            with self._changed:
                self._bulk_under_way -= 1
                self._last_busy = time.monotonic()

    def before_idle(self) -> None:
        """Return once nothing has been embedded, interactive or bulk, for ``quiet`` seconds."""
        with self._changed:
            while True:
                if not self._under_way and not self._bulk_under_way:
                    quiet_for = time.monotonic() - self._last_busy
                    if quiet_for >= self._quiet:
                        return
                    self._changed.wait(self._quiet - quiet_for)
                else:
                    self._changed.wait(self._quiet)

    @contextlib.contextmanager
    def idle(self) -> Iterator[None]:
        """An idle batch: the only one under way, started once the model is quiet (``before_idle``)."""
        with self._idle_turn:
            self.before_idle()
            yield
