"""The @Audit worker's FastStream shell: consume ``actions.audit.requested`` from the work queue, and
find the rule units of each document once it is ready (``document.ready`` events)."""

from functools import partial

from faststream.nats import NatsRouter
from redis.asyncio import Redis

from actions.action_router import action_router, configured_llm, durable_name
from actions.audit.auditing import audit
from actions.audit.target_rules import prepare_rules
from actions.ready_documents import prepare_each_ready_document
from policypal.config import Settings
from policypal.contracts.subjects import action_requested
from policypal.embeddings import Embedder, idle_embedder
from policypal.llm import LLM
from policypal.vectorstore import ChunkIndex

DURABLE = durable_name("audit")
SUBJECT = action_requested("audit")
RULES_DURABLE = f"{DURABLE}-rules"


def build_router(
    settings: Settings, *, redis: Redis, index: ChunkIndex, embedder: Embedder, llm: LLM | None = None
) -> NatsRouter:
    """Router with the worker's work-sharing pull consumer on the ACTIONS work queue, and the shared
    durable that finds each ready document's rule units on the model's idle lane.

    Answers are drafted by ``llm``, else by a model opened from the settings when one is configured
    there (OPENAI_API_KEY / OPENAI_BASE_URL), else composed offline.
    """
    compose = partial(audit, index=index, embedder=embedder, llm=configured_llm(settings, llm))
    router = action_router(settings, "audit", compose, redis=redis)
    prepare = partial(prepare_rules, index=index, embedder=idle_embedder(embedder))
    prepare_each_ready_document(router, settings, durable=RULES_DURABLE, prepare=prepare)
    return router
