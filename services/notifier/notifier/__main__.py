"""``python -m notifier``: serve the notifier with uvicorn on settings.host:settings.notifier_port."""

from functools import partial

import uvicorn

from notifier.app import create_app
from policypal.bus.startup import reach, reach_nats, run_service
from policypal.config import Settings, get_settings
from policypal.state.redis_probe import ping_redis, redis_location
from policypal.telemetry import setup_telemetry


async def reach_dependencies(settings: Settings) -> None:
    """Within the start-up deadline, NATS and Redis answer (``StartupError`` otherwise)."""
    await reach_nats(settings)
    await reach("Redis", redis_location(settings.redis_url), partial(ping_redis, settings.redis_url))


def main() -> None:
    """Read the settings, set up tracing and metrics and serve until stopped."""
    settings = get_settings()
    # Before uvicorn: its lifespan would wait for NATS forever and hold SIGTERM meanwhile.
    run_service("notifier", settings, lambda: reach_dependencies(settings))
    telemetry = setup_telemetry("notifier", settings)
    uvicorn.run(
        create_app(settings, tracer_provider=telemetry.tracer_provider),
        host=settings.host,
        port=settings.notifier_port,
        log_level=settings.log_level.lower(),
        # uvicorn's loggers propagate to the JSON handler instead of their own.
        log_config=None,
    )


if __name__ == "__main__":
    main()
