"""Several Qdrant-using workers in one process, sharing one local Qdrant client.

Local (embedded) Qdrant allows one opener per directory, so in the embedded default the ingestor and
the action workers run here together: ``python -m policypal.cli.colocated ingestor actions.inquire``.
"""

import asyncio
import sys
from collections.abc import Callable

from faststream.nats import NatsRouter
from redis.asyncio import Redis

from policypal.bus import run_worker
from policypal.config import Settings, get_settings
from policypal.embeddings import Embedder, embedder_from_settings
from policypal.state import connect_redis
from policypal.vectorstore import UnownedLocalIndexError, open_chunk_index

RouterFactory = Callable[..., NatsRouter]


def _router_factories() -> dict[str, RouterFactory]:
    from actions.audit.service import build_router as audit_router
    from actions.compare.service import build_router as compare_router
    from actions.inquire.service import build_router as inquire_router
    from actions.summarize.service import build_router as summarize_router
    from ingestor.service import build_router as ingestor_router

    return {
        "ingestor": ingestor_router,
        "actions.inquire": inquire_router,
        "actions.summarize": summarize_router,
        "actions.compare": compare_router,
        "actions.audit": audit_router,
    }


async def run_colocated(settings: Settings, names: list[str]) -> None:
    """Run the named workers on one broker with one Redis, Qdrant and embedder."""
    factories = _router_factories()
    unknown = sorted(set(names) - set(factories))
    if unknown:
        raise SystemExit(f"unknown workers {unknown}; choose from {sorted(factories)}")
    redis: Redis = connect_redis(settings.redis_url)
    embedder: Embedder = embedder_from_settings(settings)
    try:
        index = await open_chunk_index(settings, model_id=embedder.model_id, dimension=embedder.dimension)
    except UnownedLocalIndexError as exc:
        raise SystemExit(str(exc)) from None
    routers = [factories[name](settings, redis=redis, index=index, embedder=embedder) for name in names]
    await run_worker("+".join(names), settings, routers, on_shutdown=[index.aclose, redis.aclose])


if __name__ == "__main__":
    asyncio.run(run_colocated(get_settings(), sys.argv[1:] or ["ingestor", "actions.inquire"]))
