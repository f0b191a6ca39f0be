"""Interactive embeddings before bulk ones in one process, without lowering bulk work's OS priority.

Bulk work (an ingestion) embeds batch after batch on lanes of its own; an interactive embedding (a
question's) marks itself under way, and a bulk batch about to start waits until none is, at most
``max_wait`` seconds, so a stream of questions slows an ingestion down but never stops it. A batch
already running is not interrupted: a question waits at most for the one running on its core.

This replaced lanes a few steps nicer than the process: niceness also made the ingestion give way
to every other program on a shared machine, so that beside two busy neighbours of the same niceness
it took 1.5x as long (docs/benchmarks.md, "Ingestion inside the colocated worker").
"""

import contextlib
import threading
from collections.abc import Iterator

#: Longest a bulk batch waits for interactive embeddings: a few questions' worth.
MAX_WAIT_SECONDS = 1.0


class InteractiveFirst:
    """Shared by an embedder and its background twin; thread-safe."""

    def __init__(self, max_wait: float = MAX_WAIT_SECONDS) -> None:
        self._changed = threading.Condition()
        self._under_way = 0
        self._max_wait = max_wait

    @contextlib.contextmanager
    def interactive(self) -> Iterator[None]:
        """Hold bulk batches back while the body runs."""
        with self._changed:
            self._under_way += 1
        try:
            yield
        finally:
            with self._changed:
                self._under_way -= 1
                if not self._under_way:
                    self._changed.notify_all()

    def before_bulk(self) -> None:
        """Return once no interactive embedding is under way, or after ``max_wait`` seconds."""
        with self._changed:
            self._changed.wait_for(lambda: not self._under_way, timeout=self._max_wait)
