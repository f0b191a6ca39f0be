"""The @Audit worker's FastStream shell: consume ``actions.audit.requested`` from the work queue, and
find the rule units of each document once it is ready (``document.ready`` events)."""

from functools import partial

from faststream.nats import NatsRouter
from redis.asyncio import Redis

from actions.action_router import action_router, configured_llm, durable_name
from actions.audit.auditing import audit
from actions.audit.target_rules import prepare_rules
from policypal.bus import CurrentBroker, DeliveredMessage, durable_pull_subscriber, jstream, process_delivery
from policypal.config import Settings
from policypal.contracts import DocumentReady
from policypal.contracts.streams import DLQ, EVENTS
from policypal.contracts.subjects import DOCUMENT_READY, action_requested, dead_letter
from policypal.embeddings import Embedder, idle_embedder
from policypal.llm import LLM
from policypal.vectorstore import ChunkIndex

DURABLE = durable_name("audit")
SUBJECT = action_requested("audit")
RULES_DURABLE = f"{DURABLE}-rules"


def build_router(
    settings: Settings, *, redis: Redis, index: ChunkIndex, embedder: Embedder, llm: LLM | None = None
) -> NatsRouter:
    """Router with the worker's work-sharing pull consumer on the ACTIONS work queue.

    Answers are drafted by ``llm``, else by a model opened from the settings when one is configured
    there (OPENAI_API_KEY / OPENAI_BASE_URL), else composed offline.
    """
    compose = partial(audit, index=index, embedder=embedder, llm=configured_llm(settings, llm))
    router = action_router(settings, "audit", compose, redis=redis)
    _find_rules_of_ready_documents(router, settings, index=index, embedder=idle_embedder(embedder))
    return router


def _find_rules_of_ready_documents(
    router: NatsRouter, settings: Settings, *, index: ChunkIndex, embedder: Embedder
) -> None:
    """Subscribe the worker's replicas (one shared durable) to ``document.ready``: each ready document's
    rule units are found and kept once, on the model's idle lane, before an audit needs them."""
    router.publisher(dead_letter(DOCUMENT_READY), stream=jstream(DLQ), title=f"{RULES_DURABLE}:dlq")

    @durable_pull_subscriber(router, DOCUMENT_READY, stream=EVENTS, durable=RULES_DURABLE, settings=settings)
    async def on_document_ready(msg: DeliveredMessage, broker: CurrentBroker) -> None:
        async def prepare(event: DocumentReady) -> None:
            await prepare_rules(event, index=index, embedder=embedder)

        await process_delivery(msg, DocumentReady, prepare, broker=broker, max_deliver=settings.max_deliver)
