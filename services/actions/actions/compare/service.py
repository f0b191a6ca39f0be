"""The @Compare worker's FastStream shell: consume ``actions.compare.requested`` from the work queue."""

from functools import partial

from faststream.nats import NatsRouter
from redis.asyncio import Redis

from actions.action_router import action_router, durable_name
from actions.compare.comparison import compare
from policypal.config import Settings
from policypal.contracts.subjects import action_requested
from policypal.embeddings import Embedder
from policypal.vectorstore import ChunkIndex

DURABLE = durable_name("compare")
SUBJECT = action_requested("compare")


def build_router(settings: Settings, *, redis: Redis, index: ChunkIndex, embedder: Embedder) -> NatsRouter:
    """Router with the worker's work-sharing pull consumer on the ACTIONS work queue."""
    return action_router(settings, "compare", partial(compare, index=index, embedder=embedder), redis=redis)
