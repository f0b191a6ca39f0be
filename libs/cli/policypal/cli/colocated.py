"""Several Qdrant-using workers in one process, sharing one embedded index.

The embedded engine (Qdrant Edge, docs/adr/0013-embedded-vector-engine.md) allows one opener per
directory, so in the embedded default the ingestor and the action workers run here together:
``python -m policypal.cli.colocated ingestor actions.inquire``.
"""

import sys
from collections.abc import Callable

from faststream.nats import NatsRouter

from policypal.bus import run_worker
from policypal.bus.startup import StartupError, run_service
from policypal.config import Settings, get_settings

RouterFactory = Callable[..., NatsRouter]


def _router_factories() -> dict[str, RouterFactory]:
    # Every registered action's worker (policypal.contracts.action_registry), beside the ingestor.
    from actions.action_workers import action_router_builders
    from ingestor.service import build_router as ingestor_router

    return {"ingestor": ingestor_router, **action_router_builders()}


async def run_colocated(settings: Settings, names: list[str]) -> None:
    """Run the named workers on one broker with one Redis, Qdrant and embedder."""
    from actions.worker_main import open_vector_resources

    factories = _router_factories()
    unknown = sorted(set(names) - set(factories))
    if unknown:
        raise StartupError(f"unknown workers {unknown}; choose from {sorted(factories)}")
    redis, embedder, index = await open_vector_resources(settings)
    routers = [factories[name](settings, redis=redis, index=index, embedder=embedder) for name in names]
    await run_worker("+".join(names), settings, routers, on_shutdown=[index.aclose, redis.aclose])


if __name__ == "__main__":
    names = sys.argv[1:] or ["ingestor", "actions.inquire"]
    run_service("+".join(names), get_settings(), lambda: run_colocated(get_settings(), names))
