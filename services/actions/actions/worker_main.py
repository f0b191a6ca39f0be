"""Running one action worker as its own process (``python -m actions.<name>``), from the environment."""

from collections.abc import Callable

from faststream.nats import NatsRouter
from redis.asyncio import Redis

from policypal.bus import run_worker
from policypal.bus.startup import reach, reach_or_open, run_service
from policypal.config import Settings, get_settings
from policypal.embeddings import Embedder, embedder_from_settings
from policypal.state import connect_redis
from policypal.state.redis_probe import redis_location
from policypal.vectorstore import ChunkIndex, UnownedLocalIndexError, open_chunk_index

RouterBuilder = Callable[..., NatsRouter]


async def open_vector_resources(settings: Settings) -> tuple[Redis, Embedder, ChunkIndex]:
    """Redis, the embedder and the chunk index of a Qdrant-using worker, each reached within the
    start-up deadline (``StartupError`` otherwise)."""
    redis: Redis = connect_redis(settings.redis_url)
    await reach("Redis", redis_location(settings.redis_url), redis.ping)
    embedder: Embedder = embedder_from_settings(settings)
    index: ChunkIndex = await reach_or_open(
        "Qdrant",
        settings.qdrant_url,
        str(settings.qdrant_local_path),
        lambda: open_chunk_index(settings, model_id=embedder.model_id, dimension=embedder.dimension),
        fatal=(UnownedLocalIndexError,),
    )
    return redis, embedder, index


async def serve_action_worker(service_name: str, build_router: RouterBuilder) -> None:
    """Reach Redis, Qdrant and NATS, then serve ``build_router``'s router until SIGINT/SIGTERM."""
    settings = get_settings()
    redis, embedder, index = await open_vector_resources(settings)
    router = build_router(settings, redis=redis, index=index, embedder=embedder)
    await run_worker(service_name, settings, [router], on_shutdown=[redis.aclose, index.aclose])


def run_action_worker(service_name: str, build_router: RouterBuilder) -> None:
    """The process of one action worker: exits with a sentence when a dependency cannot be reached."""
    run_service(service_name, get_settings(), lambda: serve_action_worker(service_name, build_router))
