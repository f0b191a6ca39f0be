"""The @Summarize worker's FastStream shell: consume ``actions.summarize.requested`` from the work queue."""

from functools import partial

from faststream.nats import NatsRouter
from redis.asyncio import Redis

from actions.action_router import action_router, configured_llm, durable_name
from actions.summarize.summarization import summarize
from policypal.config import Settings
from policypal.contracts.subjects import action_requested
from policypal.embeddings import Embedder
from policypal.llm import LLM
from policypal.vectorstore import ChunkIndex

DURABLE = durable_name("summarize")
SUBJECT = action_requested("summarize")


def build_router(
    settings: Settings, *, redis: Redis, index: ChunkIndex, embedder: Embedder, llm: LLM | None = None
) -> NatsRouter:
    """Router with the worker's work-sharing pull consumer on the ACTIONS work queue.

    Answers are drafted by ``llm``, else by a model opened from the settings when one is configured
    there (OPENAI_API_KEY / OPENAI_BASE_URL), else composed offline.
    """
    compose = partial(summarize, index=index, embedder=embedder, llm=configured_llm(settings, llm))
    return action_router(settings, "summarize", compose, redis=redis)
