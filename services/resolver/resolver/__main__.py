"""``python -m resolver``: the resolver worker, configured from the environment."""

from functools import partial

from policypal.bus import run_worker
from policypal.bus.startup import reach, run_service
from policypal.config import Settings, get_settings
from policypal.llm import LLM
from policypal.state import connect_redis
from policypal.state.redis_probe import redis_location
from resolver.deadlines import end_overdue_requests
from resolver.service import build_router, llm_deciders, offline_deciders


async def serve(settings: Settings) -> None:
    """Reach Redis and NATS, then serve the resolver, and end overdue requests, until SIGINT/SIGTERM."""
    redis = connect_redis(settings.redis_url)
    await reach("Redis", redis_location(settings.redis_url), redis.ping)
    # A language model decides intent and documents when one is configured; the rules otherwise.
    llm = LLM.from_settings(settings) if settings.llm_configured else None
    deciders = llm_deciders(llm) if llm is not None else offline_deciders()
    await run_worker(
        "resolver",
        settings,
        [build_router(settings, redis=redis, deciders=deciders)],
        on_shutdown=[redis.aclose, *([llm.aclose] if llm is not None else [])],
        background=[partial(end_overdue_requests, redis=redis, settings=settings)],
    )


if __name__ == "__main__":
    settings = get_settings()
    run_service("resolver", settings, lambda: serve(settings))
