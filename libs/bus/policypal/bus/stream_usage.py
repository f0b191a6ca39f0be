"""Stream size and dead-letter depth as metrics: what an operator alerts on before a stream fills up
or while failed requests pile up.

Observable gauges: ``policypal.stream.bytes`` and ``policypal.stream.messages`` per stream (compare
with the stream's max_bytes, docs/adr/0017-stream-replicas-and-limits.md), and ``policypal.dlq.depth``
per source (``chat``, ``docs``, ``actions.audit``...: never a tenant). As for the consumer lag, a loop
reads ``stream_info`` and the gauges report the last values read.
"""

import asyncio
import logging
from collections.abc import Iterable, Sequence

from nats.js import JetStreamContext
from opentelemetry import metrics
from opentelemetry.metrics import CallbackOptions, Observation

from policypal.contracts.streams import DLQ
from policypal.telemetry.metrics import DLQ_DEPTH, STREAM_BYTES, STREAM_MESSAGES

logger = logging.getLogger(__name__)


def dead_letter_source(subject: str) -> str:
    """Where a dead letter came from, without tenant: ``dlq.actions.audit.requested.acme`` -> ``actions.audit``."""
    tokens = subject.split(".")[1:]
    if tokens[:1] == ["actions"]:
        return ".".join(tokens[:2])
    return tokens[0] if tokens else "unknown"


class StreamUsage:
    """Observable gauges of the size of ``streams`` and of the DLQ's depth by source."""

    def __init__(
        self, js: JetStreamContext, streams: Sequence[str], *, meter: metrics.Meter | None = None
    ) -> None:
        self._js = js
        self._streams = list(streams)
        self._bytes: dict[str, int] = {}
        self._messages: dict[str, int] = {}
        self._dead_letters: dict[str, int] = {}
        meter = meter or metrics.get_meter("policypal")
        meter.create_observable_gauge(
            STREAM_BYTES, callbacks=[self._observe_bytes], unit="By", description="Bytes a stream holds."
        )
        meter.create_observable_gauge(
            STREAM_MESSAGES,
            callbacks=[self._observe_messages],
            unit="{message}",
            description="Messages a stream holds.",
        )
        meter.create_observable_gauge(
            DLQ_DEPTH,
            callbacks=[self._observe_dead_letters],
            unit="{message}",
            description="Dead-lettered messages kept, by the subject area they came from.",
        )

    async def refresh(self) -> None:
        """Read every stream's state now; one that cannot be read keeps its last values."""
        for stream in self._streams:
            try:
                if stream == DLQ.name:
                    info = await self._js.stream_info(stream, subjects_filter=DLQ.subjects[0])
                else:
                    info = await self._js.stream_info(stream)
            except Exception as exc:  # a NATS blip must not stop the other streams' readings
                logger.warning("cannot read the state of stream %s: %s", stream, exc)
                continue
            self._bytes[stream] = info.state.bytes or 0
            self._messages[stream] = info.state.messages or 0
            if stream == DLQ.name:
                # A source emptied by a purge reads 0 rather than vanishing from the dashboards.
                depth = dict.fromkeys(self._dead_letters, 0)
                for subject, count in (info.state.subjects or {}).items():
                    source = dead_letter_source(subject)
                    depth[source] = depth.get(source, 0) + count
                self._dead_letters = depth

    async def run(self, every: float = 30.0) -> None:
        """Refresh every ``every`` seconds until cancelled."""
        while True:
            await self.refresh()
            await asyncio.sleep(every)

    def _observe_bytes(self, options: CallbackOptions) -> Iterable[Observation]:
        return [Observation(size, {"stream": stream}) for stream, size in self._bytes.items()]

    def _observe_messages(self, options: CallbackOptions) -> Iterable[Observation]:
        return [Observation(count, {"stream": stream}) for stream, count in self._messages.items()]

    def _observe_dead_letters(self, options: CallbackOptions) -> Iterable[Observation]:
        return [Observation(count, {"source": source}) for source, count in self._dead_letters.items()]
