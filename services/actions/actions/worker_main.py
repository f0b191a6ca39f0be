"""Running one action worker as its own process (``python -m actions.<name>``), from the environment."""

from collections.abc import Callable

from faststream.nats import NatsRouter
from redis.asyncio import Redis

from policypal.bus import run_worker
from policypal.config import Settings, get_settings
from policypal.embeddings import Embedder, embedder_from_settings
from policypal.state import connect_redis
from policypal.vectorstore import ChunkIndex, UnownedLocalIndexError, open_chunk_index

RouterBuilder = Callable[..., NatsRouter]


async def serve_action_worker(service_name: str, build_router: RouterBuilder) -> None:
    """Open Redis, Qdrant and the embedder, then serve ``build_router``'s router until SIGINT/SIGTERM."""
    settings: Settings = get_settings()
    redis: Redis = connect_redis(settings.redis_url)
    embedder: Embedder = embedder_from_settings(settings)
    try:
        index: ChunkIndex = await open_chunk_index(
            settings, model_id=embedder.model_id, dimension=embedder.dimension
        )
    except UnownedLocalIndexError as exc:
        raise SystemExit(str(exc)) from None
    router = build_router(settings, redis=redis, index=index, embedder=embedder)
    await run_worker(service_name, settings, [router], on_shutdown=[redis.aclose, index.aclose])
