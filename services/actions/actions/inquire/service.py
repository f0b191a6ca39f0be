"""The @Inquire worker's FastStream shell: consume ``actions.inquire.requested`` from the work queue."""

from functools import partial

from faststream.nats import NatsRouter
from faststream.nats.annotations import NatsBroker, NatsMessage
from redis.asyncio import Redis

from actions.inquire.handler import handle_action_requested
from actions.web_search import WebSearch, web_search_from_settings
from policypal.bus import durable_pull_subscriber, is_last_delivery, jstream, process_delivery
from policypal.config import Settings
from policypal.contracts import ActionRequested
from policypal.contracts.streams import ACTIONS, DLQ, EVENTS
from policypal.contracts.subjects import action_requested, dead_letter
from policypal.embeddings import Embedder
from policypal.llm import LLM
from policypal.vectorstore import ChunkIndex

DURABLE = "actions-inquire"
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
    if llm is None and settings.llm_configured:
        llm = LLM.from_settings(settings)
    web_search = web_search or web_search_from_settings(settings)
    router = NatsRouter()
    # Publishers declare the streams they write to at start-up, so start order does not matter.
    router.publisher("events.*.*.*", stream=jstream(EVENTS), title="actions-inquire:events")
    router.publisher(dead_letter(SUBJECT), stream=jstream(DLQ), title="actions-inquire:dlq")

    @durable_pull_subscriber(router, SUBJECT, stream=ACTIONS, durable=DURABLE, settings=settings)
    async def on_inquire_requested(msg: NatsMessage, broker: NatsBroker) -> None:
        # process_delivery dead-letters after the last delivery; the handler must know it is the last
        # one to tell the user first.
        final = is_last_delivery(msg, settings.max_deliver)
        handle = partial(
            handle_action_requested,
            broker=broker,
            redis=redis,
            index=index,
            embedder=embedder,
            final_delivery=final,
            llm=llm,
            web_search=web_search,
        )
        await process_delivery(msg, ActionRequested, handle, broker=broker, max_deliver=settings.max_deliver)

    return router
