"""The resolver's FastStream shell: consume ``chat.requested`` and ``chat.resumed``, settle each delivery."""

from functools import partial

from faststream.nats import NatsRouter
from faststream.nats.annotations import NatsBroker, NatsMessage
from redis.asyncio import Redis

from policypal.bus import durable_pull_subscriber, is_last_delivery, jstream, process_delivery
from policypal.config import Settings
from policypal.contracts import ChatRequested, ChatResumed
from policypal.contracts.streams import ACTIONS, CHAT, DLQ, EVENTS
from policypal.contracts.subjects import CHAT_REQUESTED, CHAT_RESUMED, action_requested, dead_letter
from policypal.llm import LLM
from resolver.documents import RegistryDocumentMatcher
from resolver.handler import handle_chat_requested, handle_chat_resumed
from resolver.intent import PatternIntentClassifier
from resolver.llm_documents import LLMDocumentMatcher
from resolver.llm_intent import LLMIntentClassifier
from resolver.pipeline import ACTION_LABELS, Deciders

DURABLE = "resolver"
RESUME_DURABLE = "resolver-resume"


def offline_deciders() -> Deciders:
    """The deterministic intent classifier and document matcher (no LLM configured)."""
    return Deciders(classifier=PatternIntentClassifier(), matcher=RegistryDocumentMatcher())


def llm_deciders(llm: LLM) -> Deciders:
    """Classifier and matcher asking ``llm``, each falling back to its offline rules when the model fails."""
    offline = offline_deciders()
    return Deciders(
        classifier=LLMIntentClassifier(llm, fallback=offline.classifier),
        matcher=LLMDocumentMatcher(llm, fallback=offline.matcher),
    )


def deciders_for(settings: Settings) -> Deciders:
    """The LLM deciders when a model is configured (OPENAI_API_KEY / OPENAI_BASE_URL), else the offline ones."""
    return llm_deciders(LLM.from_settings(settings)) if settings.llm_configured else offline_deciders()


def build_router(settings: Settings, *, redis: Redis, deciders: Deciders | None = None) -> NatsRouter:
    """Router with the resolver's work-sharing pull consumers on the CHAT stream.

    ``deciders`` default to those of the settings (``deciders_for``).
    """
    chosen = deciders or deciders_for(settings)
    router = NatsRouter()
    # Publishers declare the streams they write to at start-up, so start order does not matter.
    for action in ACTION_LABELS:
        router.publisher(action_requested(action), stream=jstream(ACTIONS), title=f"resolver:{action}")
    router.publisher("events.*.*.*", stream=jstream(EVENTS), title="resolver:events")
    router.publisher(dead_letter(CHAT_REQUESTED), stream=jstream(DLQ), title="resolver:dlq")
    router.publisher(dead_letter(CHAT_RESUMED), stream=jstream(DLQ), title="resolver:dlq-resumed")

    @durable_pull_subscriber(router, CHAT_REQUESTED, stream=CHAT, durable=DURABLE, settings=settings)
    async def on_chat_requested(msg: NatsMessage, broker: NatsBroker) -> None:
        final = is_last_delivery(msg, settings.max_deliver)
        handle = partial(
            handle_chat_requested, broker=broker, redis=redis, deciders=chosen, final_delivery=final
        )
        await process_delivery(msg, ChatRequested, handle, broker=broker, max_deliver=settings.max_deliver)

    @durable_pull_subscriber(router, CHAT_RESUMED, stream=CHAT, durable=RESUME_DURABLE, settings=settings)
    async def on_chat_resumed(msg: NatsMessage, broker: NatsBroker) -> None:
        final = is_last_delivery(msg, settings.max_deliver)
        handle = partial(
            handle_chat_resumed, broker=broker, redis=redis, deciders=chosen, final_delivery=final
        )
        await process_delivery(msg, ChatResumed, handle, broker=broker, max_deliver=settings.max_deliver)

    return router
