"""JetStream consumer lag as a metric: messages waiting plus messages delivered but not yet acked.

This is what KEDA's nats-jetstream scaler scales the workers on; exporting it lets ops see the same
number next to the traces. OpenTelemetry observes gauges synchronously, so a loop reads
``consumer_info`` for each durable and the gauge reports the last values read.
"""

import asyncio
import logging
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from faststream.nats import NatsBroker
from nats.js import JetStreamContext
from opentelemetry import metrics
from opentelemetry.metrics import CallbackOptions, Observation

from policypal.telemetry.metrics import CONSUMER_LAG

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class Durable:
    """A durable consumer of a stream."""

    stream: str
    name: str


def durables_of(broker: NatsBroker) -> list[Durable]:
    """The durable consumers this process's subscribers read from."""
    found: list[Durable] = []
    for subscriber in broker.subscribers:
        stream = getattr(subscriber, "stream", None)
        config = getattr(subscriber, "config", None)
        durable = getattr(config, "durable_name", None)
        if stream is not None and durable:
            found.append(Durable(stream=stream.name, name=durable))
    return found


class ConsumerLag:
    """An observable gauge ``policypal.consumer.lag`` per durable (attributes ``stream``, ``durable``)."""

    def __init__(
        self, js: JetStreamContext, durables: Sequence[Durable], *, meter: metrics.Meter | None = None
    ) -> None:
        self._js = js
        self._durables = list(durables)
        self._lag: dict[Durable, int] = {}
        (meter or metrics.get_meter("policypal")).create_observable_gauge(
            CONSUMER_LAG,
            callbacks=[self._observe],
            unit="{message}",
            description="num_pending + num_ack_pending of a JetStream durable consumer.",
        )

    async def refresh(self) -> None:
        """Read the lag of every durable now; one that cannot be read keeps its last value."""
        for durable in self._durables:
            try:
                info = await self._js.consumer_info(durable.stream, durable.name)
            except Exception as exc:  # a missing consumer or a NATS blip must not stop the others
                logger.warning("cannot read lag of %s/%s: %s", durable.stream, durable.name, exc)
                continue
            self._lag[durable] = (info.num_pending or 0) + (info.num_ack_pending or 0)

    async def run(self, every: float = 10.0) -> None:
        """Refresh every ``every`` seconds until cancelled."""
        while True:
            await self.refresh()
            await asyncio.sleep(every)

    def _observe(self, options: CallbackOptions) -> Iterable[Observation]:
        return [
            Observation(lag, {"stream": durable.stream, "durable": durable.name})
            for durable, lag in self._lag.items()
        ]
