"""Running FastStream workers: one broker per process, any number of service routers on it."""

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Sequence

from faststream import FastStream
from faststream.nats import NatsBroker, NatsRouter
from nats.js.errors import APIError

from policypal.bus.broker import DEFAULT_NATS_URL, StreamDeclaringBroker, build_broker
from policypal.bus.consumer_lag import ConsumerLag, durables_of
from policypal.bus.liveness import beat
from policypal.bus.startup import StartupError, reach, reach_nats
from policypal.bus.stream_usage import StreamUsage
from policypal.bus.streams import declare_streams
from policypal.config import Settings
from policypal.telemetry import setup_telemetry


async def run_worker(
    service_name: str,
    settings: Settings,
    routers: Sequence[NatsRouter],
    *,
    on_shutdown: Sequence[Callable[[], Awaitable[None]]] = (),
    background: Sequence[Callable[[NatsBroker], Awaitable[None]]] = (),
) -> None:
    """Serve ``routers`` until SIGINT/SIGTERM, then finish in-flight messages and run ``on_shutdown``.

    NATS is reached first within the start-up deadline (``StartupError`` otherwise, see
    ``policypal.bus.startup``); afterwards the broker reconnects for as long as it takes.

    Each ``background`` loop runs with the started broker until shutdown, when it is cancelled.

    Several services' routers may share one process: the embedded default runs the ingestor and the
    action workers together because local Qdrant is single-process.
    """
    telemetry = setup_telemetry(service_name, settings)
    broker = build_broker(settings, tracer_provider=telemetry.tracer_provider)
    broker.include_routers(*routers)
    # One plain attempt first names the reason (refused, unknown host, bad credentials); the broker's
    # own connection retries forever, so it is bounded by the deadline too.
    await reach_nats(settings)
    await reach("NATS", settings.nats_url or DEFAULT_NATS_URL, broker.connect)
    await declare_or_explain(broker, settings)
    tasks: list[asyncio.Task[None]] = []

    async def report_consumer_lag(started: NatsBroker) -> None:
        await ConsumerLag(started.connection.jetstream(), durables_of(started)).run()

    async def report_stream_usage(started: NatsBroker) -> None:
        streams = [spec.name for spec in broker.streams_in_use()]
        await StreamUsage(started.connection.jetstream(), streams).run()

    async def signal_liveness(_: NatsBroker) -> None:
        if settings.liveness_file is not None:
            await beat(settings.liveness_file)

    async def start_background() -> None:
        loops = [*background, report_consumer_lag, report_stream_usage, signal_liveness]
        tasks.extend(asyncio.create_task(_supervised(loop, broker)) for loop in loops)

    async def stop_background() -> None:
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task

    # FastStream runs on_shutdown hooks before the broker stops and after_shutdown hooks once it has
    # stopped, i.e. once in-flight handlers finished: the resources they use must close only then.
    app = FastStream(
        broker,
        after_startup=[start_background],
        on_shutdown=[stop_background],
        after_shutdown=[*on_shutdown, telemetry.shutdown],
    )
    await app.run()


async def declare_or_explain(broker: StreamDeclaringBroker, settings: Settings) -> None:
    """Declare the broker's streams now, so replicas or caps NATS cannot honour end the start with a sentence."""
    streams = broker.streams_in_use()
    try:
        await declare_streams(broker.connection.jetstream(), streams, settings=settings)
    except APIError as exc:
        names = ", ".join(spec.name for spec in streams)
        raise StartupError(
            f"NATS refused the streams {names} with {settings.stream_replicas} replica(s) and their size "
            f"caps: {exc.description} (POLICYPAL_STREAM_REPLICAS and POLICYPAL_STREAM_LIMITS must fit the "
            "NATS cluster: docs/operations.md)."
        ) from None


async def _supervised(loop: Callable[[NatsBroker], Awaitable[None]], broker: NatsBroker) -> None:
    # A background loop that fails is restarted after a pause: it must outlive a Redis or NATS blip.
    while True:
        try:
            await loop(broker)
            return
        except asyncio.CancelledError:
            raise
        except Exception:
            logging.getLogger(__name__).exception("background loop %s failed; restarting", loop)
            await asyncio.sleep(1.0)
