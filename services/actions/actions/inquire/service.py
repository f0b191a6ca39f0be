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
from actions.ready_documents import prepare_each_ready_document
from actions.web_search import WebSearch, web_search_from_settings
from policypal.config import Settings
from policypal.contracts.subjects import action_requested
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
        # Each ready document's unit vectors, prepared once on the model's idle lane.
        prepare = partial(prepare_unit_vectors, index=index, embedder=idle_embedder(embedder))
        prepare_each_ready_document(router, settings, durable=UNITS_DURABLE, prepare=prepare)
    return router
