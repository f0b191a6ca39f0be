"""The FastStream shell every action worker shares: its own durable consumer on the ACTIONS work queue."""

from functools import partial

from faststream.nats import NatsRouter
from redis.asyncio import Redis

from actions.lifecycle.request import FAILURE_SENTENCE, Compose, run_action_request
from policypal.bus import (
    CurrentBroker,
    DeliveredMessage,
    durable_pull_subscriber,
    is_last_delivery,
    jstream,
    process_delivery,
)
from policypal.config import Settings
from policypal.contracts import ActionName, ActionRequested
from policypal.contracts.action_registry import action_spec
from policypal.contracts.streams import ACTIONS, DLQ, EVENTS
from policypal.contracts.subjects import dead_letter, tenant_action_requested
from policypal.llm import LLM


def durable_name(action: ActionName) -> str:
    """The durable consumer of an action's worker; replicas share it and split the requests."""
    return action_spec(action).durable


def configured_llm(settings: Settings, llm: LLM | None = None) -> LLM | None:
    """``llm``, else a model opened from the settings when one is configured there, else None (offline)."""
    if llm is None and settings.llm_configured:
        return LLM.from_settings(settings)
    return llm


def action_router(
    settings: Settings,
    action: ActionName,
    compose: Compose,
    *,
    redis: Redis,
    failure_sentence: str = FAILURE_SENTENCE,
) -> NatsRouter:
    """Router consuming ``actions.<action>.requested`` and answering each request once with ``compose``.

    ``failure_sentence`` is what the user is told when the last delivery of a request failed.
    """
    spec = action_spec(action)
    subject, durable = spec.subject, spec.durable
    router = NatsRouter()
    # Publishers declare the streams they write to at start-up, so start order does not matter.
    router.publisher("events.*.*.*", stream=jstream(EVENTS), title=f"{durable}:events")
    router.publisher(dead_letter(subject), stream=jstream(DLQ), title=f"{durable}:dlq")
    router.publisher(dead_letter(f"{subject}.*"), stream=jstream(DLQ), title=f"{durable}:dlq-tenants")

    # Other systems publish on actions.<action>.requested.<tenant> (docs/adr/0007): a durable of its own,
    # since a work-queue stream lets no two consumers share a subject.
    @durable_pull_subscriber(router, subject, stream=ACTIONS, durable=durable, settings=settings)
    @durable_pull_subscriber(
        router,
        tenant_action_requested(action, "*"),
        stream=ACTIONS,
        durable=f"{durable}-tenants",
        settings=settings,
    )
    async def on_action_requested(msg: DeliveredMessage, broker: CurrentBroker) -> None:
        # The handler must know a delivery is the last one to tell the user before dead-lettering.
        handle = partial(
            run_action_request,
            compose=compose,
            broker=broker,
            redis=redis,
            final_delivery=is_last_delivery(msg, settings.max_deliver),
            failure_sentence=failure_sentence,
        )
        await process_delivery(msg, ActionRequested, handle, broker=broker, max_deliver=settings.max_deliver)

    return router
