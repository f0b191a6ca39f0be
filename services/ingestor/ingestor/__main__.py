"""``python -m ingestor``: reach Redis, Qdrant and NATS, then serve ``docs.uploaded``."""

from ingestor.service import build_router
from policypal.bus import run_worker
from policypal.bus.startup import reach, reach_or_open, run_service
from policypal.config import Settings, get_settings
from policypal.embeddings import embedder_from_settings
from policypal.state import connect_redis
from policypal.state.redis_probe import redis_location
from policypal.vectorstore import UnownedLocalIndexError, open_chunk_index


async def serve(settings: Settings) -> None:
    """Reach Redis and Qdrant and load the embedder, then serve until SIGINT/SIGTERM."""
    redis = connect_redis(settings.redis_url)
    await reach("Redis", redis_location(settings.redis_url), redis.ping)
    embedder = embedder_from_settings(settings)
    index = await reach_or_open(
        "Qdrant",
        settings.qdrant_url,
        str(settings.qdrant_local_path),
        lambda: open_chunk_index(settings, model_id=embedder.model_id, dimension=embedder.dimension),
        fatal=(UnownedLocalIndexError,),
    )
    router = build_router(settings, redis=redis, index=index, embedder=embedder)
    await run_worker("ingestor", settings, [router], on_shutdown=[redis.aclose, index.aclose])


if __name__ == "__main__":
    settings = get_settings()
    run_service("ingestor", settings, lambda: serve(settings))
