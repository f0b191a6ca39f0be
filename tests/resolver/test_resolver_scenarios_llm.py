"""The resolver's scenario suite on the LLM path, over a real nats-server, Valkey and OpenAI-compatible server.

The model is a real HTTP server scripted per scenario; each test asserts how many calls the turn took
and which (intent, documents), that a resumed turn repeats none, that a failed model falls back to the
offline rules with a notice, and that prompts never carry another tenant's documents or a secret.
"""

from collections.abc import AsyncIterator

import nats
import pytest
from faststream.nats import NatsBroker
from nats.js import JetStreamContext
from redis.asyncio import Redis

from policypal.bus import build_broker
from policypal.config import DEV_JWT_SECRET, Settings
from policypal.devstack import ManagedProcess
from policypal.llm import LLM
from policypal.state import ConversationMemory, ConversationStore, RegistryEntry
from resolver.llm_documents import OFFLINE_NOTICE as DOCUMENTS_OFFLINE
from resolver.llm_intent import OFFLINE_NOTICE as INTENT_OFFLINE
from resolver.service import DURABLE, RESUME_DURABLE, build_router, llm_deciders
from tests.resolver.bus_harness import Talk, reset_resolver_bus
from tests.resolver.conftest import API_KEY
from tests.resolver.llm_script import conversation_turns, documents, intent, prompt_text, tasks
from tests.support.openai_server import Reply, ScriptedOpenAI

pytestmark = pytest.mark.integration


@pytest.fixture
async def js(nats_server: ManagedProcess) -> AsyncIterator[JetStreamContext]:
    nc = await nats.connect(str(nats_server.url))
    yield nc.jetstream()
    await nc.drain()


@pytest.fixture
async def broker(
    nats_server: ManagedProcess, redis_client: Redis, js: JetStreamContext, llm: LLM
) -> AsyncIterator[NatsBroker]:
    await reset_resolver_bus(js, durable=DURABLE, resume_durable=RESUME_DURABLE)
    settings = Settings(nats_url=nats_server.url, max_deliver=3, ack_wait_seconds=30)
    broker = build_broker(settings)
    broker.include_router(build_router(settings, redis=redis_client, deciders=llm_deciders(llm)))
    await broker.start()
    yield broker
    await broker.stop()


async def open_talk(broker: NatsBroker, js: JetStreamContext, redis: Redis) -> Talk:
    talk = await Talk.open(broker, js, redis)
    await talk.add_document("bn24", "Bank Negara Capital Guidelines", "regulatory", "2024")
    await talk.add_document("bn25", "Bank Negara Capital Guidelines", "regulatory", "2025")
    await talk.add_document("pol", "Our AML Policy", "policy", "v3")
    await talk.add_document("kyc", "KYC Procedure", "policy", "2022")
    await talk.add_document("fsa", "FSA Conduct Rules", "regulatory", "2023")
    return talk


@pytest.fixture
async def talk(broker: NatsBroker, js: JetStreamContext, redis_client: Redis) -> Talk:
    return await open_talk(broker, js, redis_client)


def ids(action: dict[str, object]) -> list[str]:
    documents = action["documents"]
    assert isinstance(documents, list)
    return [d["document_id"] for d in documents]


async def test_explicit_action_skips_the_classifier_and_pure_mentions_skip_the_model(
    talk: Talk, openai_server: ScriptedOpenAI
) -> None:
    pure = await talk.outcome(await talk.say("@Summarize @Our AML Policy", "summarize", ("pol",)))
    assert (pure["action"], ids(pure)) == ("summarize", ["pol"])
    assert openai_server.requests == []

    # Words that only point at the tagged documents need no model either.
    request = await talk.say(
        "Compare @Bank Negara Capital Guidelines and @Bank Negara Capital Guidelines: what changed between these two versions?",
        "compare",
        ("bn24", "bn25"),
    )
    action = await talk.outcome(request)
    assert (action["action"], ids(action)) == ("compare", ["bn24", "bn25"])
    assert openai_server.requests == []

    openai_server.enqueue(documents(("pol",), implicit=True))
    request = await talk.say(
        "Compare @Bank Negara Capital Guidelines and @Bank Negara Capital Guidelines with that policy",
        "compare",
        ("bn24", "bn25"),
    )
    action = await talk.outcome(request)
    assert (action["action"], ids(action)) == ("compare", ["bn24", "bn25", "pol"])
    assert tasks(openai_server.requests) == ["documents"]
    # docs/product.md, Document resolution: the full message, mentions in place.
    assert (
        "Message: Compare @Bank Negara Capital Guidelines and @Bank Negara Capital Guidelines with that policy"
        in openai_server.requests[0].messages[-1]["content"]
    )
    assert (await talk.statuses(request))[0] == "documents: Finding documents…"


async def test_implicit_high_after_a_compare_uses_the_same_documents(
    talk: Talk, openai_server: ScriptedOpenAI
) -> None:
    await talk.outcome(
        await talk.say(
            "@Compare @Bank Negara Capital Guidelines @Bank Negara Capital Guidelines",
            "compare",
            ("bn24", "bn25"),
        )
    )
    openai_server.enqueue(intent("compare"), documents(("bn24", "bn25"), implicit=True))
    request = await talk.say("What are the key differences in capital requirements?")
    action = await talk.outcome(request)
    assert (action["action"], ids(action), action["inference_confidence"]) == (
        "compare",
        ["bn24", "bn25"],
        "high",
    )
    assert action["notices"] == [
        "Using Bank Negara Capital Guidelines (2024), Bank Negara Capital Guidelines (2025) "
        "from earlier in this conversation."
    ]
    assert tasks(openai_server.requests) == ["intent", "documents"]
    # No registry title in the message: the document call gets the earlier messages as well.
    sent = conversation_turns(openai_server.requests[1])
    assert [t["content"] for t in sent] == [
        "@Compare @Bank Negara Capital Guidelines @Bank Negara Capital Guidelines"
    ]
    assert (await talk.statuses(request))[:2] == [
        "intent: Clarifying intent…",
        "documents: Finding documents…",
    ]


async def test_hybrid_high_audits_the_policy_against_that_regulation(
    talk: Talk, openai_server: ScriptedOpenAI
) -> None:
    await talk.outcome(await talk.say("@Summarize @Bank Negara Capital Guidelines", "summarize", ("bn24",)))
    openai_server.enqueue(intent("audit"), documents(("bn24",), implicit=True))
    action = await talk.outcome(
        await talk.say("Does @Our AML Policy comply with that regulation?", None, ("pol",))
    )
    assert (action["action"], ids(action)) == ("audit", ["pol", "bn24"])
    assert (action["source_document_id"], action["target_document_ids"]) == ("pol", ["bn24"])
    assert len(openai_server.requests) == 2


async def test_hybrid_medium_asks_which_document_and_the_resume_calls_no_model(
    talk: Talk, openai_server: ScriptedOpenAI, redis_client: Redis
) -> None:
    await talk.outcome(await talk.say("@Summarize @KYC Procedure", "summarize", ("kyc",)))
    await talk.outcome(await talk.say("@Summarize @Our AML Policy", "summarize", ("pol",)))
    openai_server.enqueue(
        intent("audit"), documents(candidates=("pol", "kyc"), confidence="medium", implicit=True)
    )
    question = await talk.outcome(
        await talk.say("Audit @FSA Conduct Rules against the policy", None, ("fsa",))
    )
    assert (question["interrupt_type"], [o["id"] for o in question["options"]]) == (
        "doc_choice",
        ["pol", "kyc", "all"],
    )
    assert (
        question["message"] == "I will audit FSA Conduct Rules (2023) against the following. Please confirm:"
    )
    assert len(openai_server.requests) == 2

    resumed = await talk.answer(question, "doc_choice", "kyc")
    action = await talk.outcome(resumed)
    assert (action["action"], ids(action)) == ("audit", ["fsa", "kyc"])
    assert (action["source_document_id"], action["target_document_ids"]) == ("fsa", ["kyc"])
    assert len(openai_server.requests) == 2, "the resumed turn asked the model again"
    assert await talk.statuses(resumed) == ["validation: Validating request…"]
    assert await ConversationMemory(redis_client).pending(talk.tenant, talk.conversation_id) is None


async def test_implicit_low_asks_for_the_document(
    talk: Talk, openai_server: ScriptedOpenAI, redis_client: Redis
) -> None:
    await talk.outcome(await talk.say("@Summarize @Bank Negara Capital Guidelines", "summarize", ("bn24",)))
    openai_server.enqueue(intent("inquire"), documents(unresolved=("ABC guidelines",), confidence="low"))
    question = await talk.outcome(await talk.say("What about the ABC guidelines?"))
    # Not in the library: said so, with the ways on (never a silent answer from other documents).
    assert question["interrupt_type"] == "text_input"
    assert [o["id"] for o in question["options"]] == ["search_library", "search_web"]
    assert "“ABC guidelines”" in question["message"]
    history = await ConversationStore(redis_client).messages(talk.tenant, talk.conversation_id)
    assert (history[-1].role, getattr(history[-1].metadata, "kind", None)) == ("system", "pal_assist_prompt")
    assert len(openai_server.requests) == 2

    action = await talk.outcome(await talk.answer(question, "text_input", "search_web"))
    assert (action["action"], ids(action), action["web"]) == ("inquire", [], True)
    assert len(openai_server.requests) == 2  # the resume asks the model nothing


async def test_multi_action_asks_which_action_and_the_resume_only_resolves_documents(
    talk: Talk, openai_server: ScriptedOpenAI
) -> None:
    await talk.outcome(await talk.say("@Summarize @Our AML Policy", "summarize", ("pol",)))
    openai_server.enqueue(intent("summarize", actions=("summarize", "audit")))
    question = await talk.outcome(await talk.say("Summarize and audit this document"))
    assert (question["interrupt_type"], [o["id"] for o in question["options"]]) == (
        "action_choice",
        ["summarize", "audit"],
    )
    assert tasks(openai_server.requests) == ["intent"]

    openai_server.enqueue(documents(("pol",), implicit=True))
    resumed = await talk.answer(question, "action_choice", "summarize")
    action = await talk.outcome(resumed)
    assert (action["action"], ids(action)) == ("summarize", ["pol"])
    # The classifier is not asked again; the document call is the first of its kind in this turn.
    assert tasks(openai_server.requests) == ["intent", "documents"]
    assert "Action: summarize" in openai_server.requests[1].messages[-1]["content"]


async def test_low_intent_after_the_retry_asks_which_action(
    talk: Talk, openai_server: ScriptedOpenAI
) -> None:
    await talk.outcome(await talk.say("@Summarize @Our AML Policy", "summarize", ("pol",)))
    openai_server.enqueue(intent("inquire", "low"), intent("inquire", "low"))
    question = await talk.outcome(await talk.say("capital buffers"))
    assert question["interrupt_type"] == "action_choice"
    assert question["message"] == "Please choose the action you would like me to perform."
    first, second = openai_server.requests
    assert conversation_turns(first) == []
    assert [t["content"] for t in conversation_turns(second)] == ["@Summarize @Our AML Policy"]


async def test_compare_with_one_document_asks_for_another_and_proceeds(
    talk: Talk, openai_server: ScriptedOpenAI
) -> None:
    question = await talk.outcome(await talk.say("@Compare @KYC Procedure", "compare", ("kyc",)))
    assert question["message"] == "Compare requires at least 2 documents. Please tag the additional document."
    action = await talk.outcome(await talk.answer(question, "text_input", "Our AML Policy"))
    assert (action["action"], ids(action)) == ("compare", ["kyc", "pol"])
    assert openai_server.requests == []


async def test_cancel_ends_cleanly_and_the_next_message_starts_fresh(
    talk: Talk, openai_server: ScriptedOpenAI, redis_client: Redis
) -> None:
    openai_server.enqueue(intent("compare"), documents(unresolved=("KYC Procedure",)))
    question = await talk.outcome(await talk.say("Compare the KYC Procedure"))
    assert question["interrupt_type"] == "text_input"
    cancelled = await talk.outcome(await talk.answer(question, "cancel", None))
    assert (cancelled["type"], cancelled["code"]) == ("error", "cancelled")
    assert await ConversationMemory(redis_client).pending(talk.tenant, talk.conversation_id) is None
    assert len(openai_server.requests) == 2

    openai_server.enqueue(intent("summarize"), documents(unresolved=("KYC Procedure",)))
    action = await talk.outcome(await talk.say("Summarize the KYC Procedure"))
    assert (action["action"], ids(action)) == ("summarize", ["kyc"])
    assert action["notices"] == ["Using KYC Procedure (2022), found by name among your documents."]
    assert len(openai_server.requests) == 4


async def test_a_long_conversation_keeps_older_references_through_the_registry(
    talk: Talk, openai_server: ScriptedOpenAI
) -> None:
    await talk.outcome(await talk.say("@Summarize @Bank Negara Capital Guidelines", "summarize", ("bn24",)))
    await talk.store_turn("assistant", "Bank Negara requires a total capital ratio of 8 %.", "worker-0")
    for turn in range(1, 8):
        await talk.store_turn("user", f"Thanks, noted point {turn}.", f"chat-{turn}")
        await talk.store_turn("assistant", f"Acknowledged point {turn}.", f"chat-{turn}")
    openai_server.enqueue(intent("audit"), documents(("bn24",), implicit=True))
    action = await talk.outcome(
        await talk.say("Does @Our AML Policy comply with that regulation?", None, ("pol",))
    )
    assert (action["action"], ids(action), action["target_document_ids"]) == (
        "audit",
        ["pol", "bn24"],
        ["bn24"],
    )
    prompt = openai_server.requests[1]
    # The document was last named 16 messages ago: the registry still offers it, and only 5 messages go along.
    assert "- bn24: Bank Negara Capital Guidelines (2024), regulatory" in prompt.messages[-1]["content"]
    assert len(conversation_turns(prompt)) == 5
    assert action["history"][0]["content"].startswith("Conversation summary (messages 1-5):")


async def test_a_failing_model_falls_back_to_the_offline_rules_with_notices(
    talk: Talk, openai_server: ScriptedOpenAI
) -> None:
    await talk.outcome(
        await talk.say(
            "@Compare @Bank Negara Capital Guidelines @Bank Negara Capital Guidelines",
            "compare",
            ("bn24", "bn25"),
        )
    )
    # One retry per call in these settings: two failures exhaust each call.
    openai_server.enqueue(Reply.failure(500), Reply.failure(502), Reply.failure(429), Reply.failure(503))
    request = await talk.say("What are the key differences in capital requirements?")
    action = await talk.outcome(request)
    assert (action["type"], action["action"], ids(action)) == (
        "action.requested",
        "compare",
        ["bn24", "bn25"],
    )
    assert action["notices"][:2] == [INTENT_OFFLINE, DOCUMENTS_OFFLINE]
    assert len(openai_server.requests) == 4


async def test_invented_ids_never_reach_the_worker(talk: Talk, openai_server: ScriptedOpenAI) -> None:
    await talk.outcome(await talk.say("@Summarize @KYC Procedure", "summarize", ("kyc",)))
    openai_server.enqueue(intent("summarize"), documents(("kyc", "fsa-invented", "bn24-of-tenant-b")))
    action = await talk.outcome(await talk.say("Summarize that policy again"))
    assert ids(action) == ["kyc"]


async def test_prompts_carry_no_other_tenant_document_and_no_secret(
    broker: NatsBroker, js: JetStreamContext, redis_client: Redis, openai_server: ScriptedOpenAI
) -> None:
    other = await Talk.open(broker, js, redis_client)
    await other.add_document("zz-secret-doc", "Zeta Confidential Merger Plan", "policy", "v9")
    await ConversationMemory(redis_client).remember_documents(
        other.tenant,
        other.conversation_id,
        [
            RegistryEntry(
                document_id="zz-secret-doc",
                title="Zeta Confidential Merger Plan",
                version="v9",
                doc_type="policy",
                last_used_turn=1,
            )
        ],
    )
    await other.store_turn("user", "Zeta merger terms are strictly private.", "other-1")
    mine = await open_talk(broker, js, redis_client)
    await mine.outcome(await mine.say("@Summarize @KYC Procedure", "summarize", ("kyc",)))
    openai_server.enqueue(
        intent("inquire", "low"), intent("inquire"), documents(unresolved=("Zeta Confidential Merger Plan",))
    )
    question = await mine.outcome(await mine.say("what does the Zeta Confidential Merger Plan say"))
    # Another tenant's document is not found: the user is asked, nothing of it is used.
    assert question["interrupt_type"] == "text_input"
    assert len(openai_server.requests) == 3
    for request in openai_server.requests:
        sent = prompt_text(request)
        for private in ("zz-secret-doc", "v9", "strictly private", other.tenant, API_KEY, DEV_JWT_SECRET):
            assert private not in sent
        assert request.headers["authorization"] == f"Bearer {API_KEY}"
