"""The @Inquire worker's FastStream shell: consume ``actions.inquire.requested`` from the work queue, and
prepare the unit vectors of each document once it is ready (``document.ready`` events)."""

from functools import partial

from faststream.nats import NatsRouter
from redis.asyncio import Redis

from actions.action_router import action_router, configured_llm, durable_name
from actions.inquire.answer_cache import AnswerCache
from actions.inquire.customer_answer import CustomerHandover
from actions.inquire.handler import FAILURE_SENTENCE, inquire
from actions.inquire.unit_preparation import prepare_unit_vectors
from actions.web_search import WebSearch, web_search_from_settings
from policypal.bus import CurrentBroker, DeliveredMessage, durable_pull_subscriber, jstream, process_delivery
from policypal.config import Settings
from policypal.contracts import DocumentReady
from policypal.contracts.streams import DLQ, EVENTS
from policypal.contracts.subjects import DOCUMENT_READY, action_requested, dead_letter
from policypal.embeddings import Embedder, idle_embedder
from policypal.llm import LLM
from policypal.vectorstore import ChunkIndex

DURABLE = durable_name("inquire")
SUBJECT = action_requested("inquire")
UNITS_DURABLE = f"{DURABLE}-units"


def build_router(
    settings: Settings,
    *,
    redis: Redis,
    index: ChunkIndex,
    embedder: Embedder,
    llm: LLM | None = None,
    web_search: WebSearch | None = None,
) -> NatsRouter:
    """Router with the worker's work-sharing pull consumer on the ACTIONS work queue.

    Answers are drafted by ``llm``, else by a model opened from the settings when one is configured
    there (OPENAI_API_KEY / OPENAI_BASE_URL), else composed offline. The web is searched through
    ``web_search``, else Tavily when TAVILY_API_KEY is set.
    """
    compose = partial(
        inquire,
        index=index,
        embedder=embedder,
        cache=AnswerCache(redis),
        llm=configured_llm(settings, llm),
        web_search=web_search or web_search_from_settings(settings),
        handover=CustomerHandover(redis),
    )
    router = action_router(settings, "inquire", compose, redis=redis, failure_sentence=FAILURE_SENTENCE)
    if settings.prepare_unit_vectors:
        _prepare_units_of_ready_documents(router, settings, index=index, embedder=idle_embedder(embedder))
    return router


def _prepare_units_of_ready_documents(
    router: NatsRouter, settings: Settings, *, index: ChunkIndex, embedder: Embedder
) -> None:
    """Subscribe the worker's replicas (one shared durable) to ``document.ready``: each ready document's
    unit vectors are prepared once, on the model's idle lane (``unit_preparation``)."""
    router.publisher(dead_letter(DOCUMENT_READY), stream=jstream(DLQ), title=f"{UNITS_DURABLE}:dlq")

    @durable_pull_subscriber(router, DOCUMENT_READY, stream=EVENTS, durable=UNITS_DURABLE, settings=settings)
    async def on_document_ready(msg: DeliveredMessage, broker: CurrentBroker) -> None:
        async def prepare(event: DocumentReady) -> None:
            await prepare_unit_vectors(event, index=index, embedder=embedder)

        await process_delivery(msg, DocumentReady, prepare, broker=broker, max_deliver=settings.max_deliver)
