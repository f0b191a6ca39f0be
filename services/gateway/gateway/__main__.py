"""``python -m gateway``: serve the gateway with uvicorn on settings.host:settings.port."""

from functools import partial

import uvicorn

from gateway.app import create_app
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
    run_service("gateway", settings, lambda: reach_dependencies(settings))
    telemetry = setup_telemetry("gateway", settings)
    # Flushed when the app stops (uvicorn then re-raises SIGTERM, so nothing after run() would run).
    app = create_app(settings, tracer_provider=telemetry.tracer_provider, on_stop=[telemetry.force_flush])
    # log_config=None: uvicorn's loggers propagate to the JSON handler instead of their own.
    uvicorn.run(
        app, host=settings.host, port=settings.port, log_level=settings.log_level.lower(), log_config=None
    )


if __name__ == "__main__":
    main()
