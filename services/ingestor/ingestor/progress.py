"""Progress events of one ingestion, throttled so a 500-page PDF does not flood the thread.

Rule: the first report of each stage and the last count of a counted stage (done == total) always go
out; other reports only when ``min_interval`` has passed since the last one sent. A document thus
yields about one event per stage plus at most 1/min_interval per second in between.
Progress is informational: a failed publish is logged, never fatal to the ingestion.
"""

import logging
import time
from collections.abc import Awaitable, Callable

from policypal.contracts import DocumentUploaded, IngestProgress, IngestStage

logger = logging.getLogger(__name__)

PublishProgress = Callable[[IngestProgress], Awaitable[object]]


class ProgressReporter:
    """Emits ``IngestProgress`` for one upload (thread = document id, request id of the upload)."""

    def __init__(
        self,
        upload: DocumentUploaded,
        publish: PublishProgress,
        *,
        min_interval: float = 0.5,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._upload = upload
        self._publish = publish
        self._min_interval = min_interval
        self._clock = clock
        self._last_stage: IngestStage | None = None
        self._last_sent = float("-inf")
        self.sent = 0

    async def report(
        self, stage: IngestStage, message: str, *, done: int | None = None, total: int | None = None
    ) -> bool:
        """Publish this step unless throttled; True when an event was sent."""
        now = self._clock()
        final_count = done is not None and done == total
        if stage == self._last_stage and not final_count and now - self._last_sent < self._min_interval:
            return False
        event = IngestProgress(
            tenant_id=self._upload.tenant_id,
            user_id=self._upload.user_id,
            request_id=self._upload.request_id,
            thread_id=self._upload.document_id,
            document_id=self._upload.document_id,
            stage=stage,
            done=done,
            total=total,
            message=message,
        )
        try:
            await self._publish(event)
        except Exception:
            logger.warning(
                "progress event %s of %s not published", stage, self._upload.document_id, exc_info=True
            )
            return False
        self._last_stage, self._last_sent = stage, now
        self.sent += 1
        return True
