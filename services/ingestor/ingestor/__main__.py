"""``python -m ingestor``: open Redis, Qdrant and the embedder, then serve ``docs.uploaded``."""

import asyncio

from ingestor.service import build_router
from policypal.bus import run_worker
from policypal.config import get_settings
from policypal.embeddings import embedder_from_settings
from policypal.state import connect_redis
from policypal.vectorstore import UnownedLocalIndexError, open_chunk_index


async def main() -> None:
    """Open Redis, Qdrant and the embedder, then serve until SIGINT/SIGTERM."""
    settings = get_settings()
    redis = connect_redis(settings.redis_url)
    embedder = embedder_from_settings(settings)
    try:
        index = await open_chunk_index(settings, model_id=embedder.model_id, dimension=embedder.dimension)
    except UnownedLocalIndexError as exc:
        raise SystemExit(str(exc)) from None
    router = build_router(settings, redis=redis, index=index, embedder=embedder)
    await run_worker("ingestor", settings, [router], on_shutdown=[redis.aclose, index.aclose])


if __name__ == "__main__":
    asyncio.run(main())
