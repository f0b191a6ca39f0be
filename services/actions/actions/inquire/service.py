"""The @Inquire worker's FastStream shell: consume ``actions.inquire.requested`` from the work queue."""

from functools import partial

from faststream.nats import NatsRouter
from redis.asyncio import Redis

from actions.action_router import action_router, configured_llm, durable_name
from actions.inquire.answer_cache import AnswerCache
from actions.inquire.customer_answer import CustomerHandover
from actions.inquire.handler import FAILURE_SENTENCE, inquire
from actions.web_search import WebSearch, web_search_from_settings
from policypal.config import Settings
from policypal.contracts.subjects import action_requested
from policypal.embeddings import Embedder
from policypal.llm import LLM
from policypal.vectorstore import ChunkIndex

DURABLE = durable_name("inquire")
SUBJECT = action_requested("inquire")


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
    return action_router(settings, "inquire", compose, redis=redis, failure_sentence=FAILURE_SENTENCE)
