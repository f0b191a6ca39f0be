"""The resolver's scenario suite on the offline path, over a real nats-server and Valkey.

Each test talks to the resolver the way the gateway does (stored turn, then ``chat.requested`` or
``chat.resumed``) and reads what it publishes: action requests, interrupts, errors, status lines.
"""

from collections.abc import AsyncIterator

import nats
import pytest
from faststream.nats import NatsBroker
from nats.js import JetStreamContext
from redis.asyncio import Redis

from policypal.auth.tenants import TenantSettings, TenantStore
from policypal.bus import build_broker
from policypal.config import Settings
from policypal.contracts import ErrorNotice
from policypal.devstack import ManagedProcess
from policypal.state import CompanyProfile, ConversationMemory, ConversationStore, ProfileStore
from resolver.service import DURABLE, RESUME_DURABLE, build_router
from tests.resolver.bus_harness import USER, Talk, reset_resolver_bus

pytestmark = pytest.mark.integration


@pytest.fixture
async def js(nats_server: ManagedProcess) -> AsyncIterator[JetStreamContext]:
    nc = await nats.connect(str(nats_server.url))
    yield nc.jetstream()
    await nc.drain()


@pytest.fixture
async def broker(
    nats_server: ManagedProcess, redis_client: Redis, js: JetStreamContext
) -> AsyncIterator[NatsBroker]:
    await reset_resolver_bus(js, durable=DURABLE, resume_durable=RESUME_DURABLE)
    settings = Settings(nats_url=nats_server.url, max_deliver=3, ack_wait_seconds=30)
    broker = build_broker(settings)
    broker.include_router(build_router(settings, redis=redis_client))
    await broker.start()
    yield broker
    await broker.stop()


@pytest.fixture
async def talk(broker: NatsBroker, js: JetStreamContext, redis_client: Redis) -> Talk:
    talk = await Talk.open(broker, js, redis_client)
    await talk.add_document("bn24", "Bank Negara Capital Guidelines", "regulatory", "2024")
    await talk.add_document("bn25", "Bank Negara Capital Guidelines", "regulatory", "2025")
    await talk.add_document("pol", "Our AML Policy", "policy", "v3")
    await talk.add_document("kyc", "KYC Procedure", "policy", "2022")
    await talk.add_document("fsa", "FSA Conduct Rules", "regulatory", "2023")
    return talk


def ids(action: dict[str, object]) -> list[str]:
    documents = action["documents"]
    assert isinstance(documents, list)
    return [d["document_id"] for d in documents]


async def test_explicit_compare_is_routed_to_the_compare_worker(talk: Talk) -> None:
    request = await talk.say(
        "Compare @Bank Negara Capital Guidelines and @Bank Negara Capital Guidelines",
        "compare",
        ("bn24", "bn25"),
    )
    action = await talk.outcome(request)
    assert (action["type"], action["action"], ids(action)) == (
        "action.requested",
        "compare",
        ["bn24", "bn25"],
    )
    assert action["message_id"] == f"user-{request}"
    assert await talk.statuses(request) == [
        "documents: Finding documents…",
        "docs_found: Found 2 documents: Bank Negara Capital Guidelines (2024), Bank Negara Capital Guidelines (2025)",
        "validation: Validating request…",
    ]


async def test_implicit_high_after_a_compare_uses_the_same_documents(talk: Talk) -> None:
    await talk.outcome(await talk.say("Compare @Bank Negara @Bank Negara", "compare", ("bn24", "bn25")))
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
    assert (await talk.statuses(request))[0] == "intent: Clarifying intent…"


async def test_hybrid_high_audits_the_policy_against_that_regulation(talk: Talk) -> None:
    await talk.outcome(await talk.say("@Summarize @Bank Negara Capital Guidelines", "summarize", ("bn24",)))
    action = await talk.outcome(
        await talk.say("Does @Our AML Policy comply with that regulation?", None, ("pol",))
    )
    assert (action["action"], ids(action)) == ("audit", ["pol", "bn24"])
    assert (action["source_document_id"], action["target_document_ids"]) == ("pol", ["bn24"])


async def test_hybrid_medium_asks_which_document_then_resumes(talk: Talk, redis_client: Redis) -> None:
    await talk.outcome(await talk.say("@Summarize @KYC Procedure", "summarize", ("kyc",)))
    await talk.outcome(await talk.say("@Summarize @Our AML Policy", "summarize", ("pol",)))
    question = await talk.outcome(
        await talk.say("Audit @FSA Conduct Rules against the policy", None, ("fsa",))
    )
    assert (question["type"], question["interrupt_type"]) == ("interrupt", "doc_choice")
    assert (
        question["message"] == "I will audit FSA Conduct Rules (2023) against the following. Please confirm:"
    )
    assert [o["id"] for o in question["options"]] == ["pol", "kyc", "all"]
    detail = await ConversationMemory(redis_client).pending(talk.tenant, talk.conversation_id)
    assert detail is not None
    assert detail.interrupt.interrupt_id == question["interrupt_id"]

    resumed = await talk.answer(question, "doc_choice", "kyc")
    action = await talk.outcome(resumed)
    assert (action["action"], ids(action)) == ("audit", ["fsa", "kyc"])
    assert (action["source_document_id"], action["target_document_ids"]) == ("fsa", ["kyc"])
    # Resumed at validation: no intent or document step again.
    assert await talk.statuses(resumed) == ["validation: Validating request…"]
    assert await ConversationMemory(redis_client).pending(talk.tenant, talk.conversation_id) is None


async def test_implicit_low_asks_for_the_document_and_shows_the_prompt_in_history(
    talk: Talk, redis_client: Redis
) -> None:
    await talk.outcome(await talk.say("@Summarize @Bank Negara Capital Guidelines", "summarize", ("bn24",)))
    request = await talk.say("What about the ABC guidelines?")
    question = await talk.outcome(request)
    assert question["interrupt_type"] == "text_input"
    assert [o["id"] for o in question["options"]] == ["search_library", "search_web"]
    assert "“ABC guidelines”" in question["message"]
    history = await ConversationStore(redis_client).messages(talk.tenant, talk.conversation_id)
    notice = history[-1]
    assert (notice.role, notice.content, getattr(notice.metadata, "kind", None)) == (
        "system",
        question["message"],
        "pal_assist_prompt",
    )


async def test_multi_action_asks_which_action_then_resumes_from_the_documents_step(talk: Talk) -> None:
    await talk.outcome(await talk.say("@Summarize @Our AML Policy", "summarize", ("pol",)))
    question = await talk.outcome(await talk.say("Summarize and audit this document"))
    assert question["interrupt_type"] == "action_choice"
    assert [o["id"] for o in question["options"]] == ["summarize", "audit"]

    resumed = await talk.answer(question, "action_choice", "summarize")
    action = await talk.outcome(resumed)
    assert (action["action"], ids(action)) == ("summarize", ["pol"])
    assert (await talk.statuses(resumed))[0] == "documents: Finding documents…"


async def test_compare_with_one_document_asks_for_another_and_proceeds(talk: Talk) -> None:
    question = await talk.outcome(await talk.say("@Compare @KYC Procedure", "compare", ("kyc",)))
    assert (question["interrupt_type"], question["message"]) == (
        "text_input",
        "Compare requires at least 2 documents. Please tag the additional document.",
    )
    action = await talk.outcome(await talk.answer(question, "text_input", "Our AML Policy"))
    assert (action["action"], ids(action)) == ("compare", ["kyc", "pol"])


async def test_cancel_ends_cleanly_and_the_next_message_starts_fresh(talk: Talk, redis_client: Redis) -> None:
    question = await talk.outcome(await talk.say("@Compare @KYC Procedure", "compare", ("kyc",)))
    cancelled = await talk.outcome(await talk.answer(question, "cancel", None))
    assert (cancelled["type"], cancelled["code"], cancelled["retryable"]) == ("error", "cancelled", False)
    assert await ConversationMemory(redis_client).pending(talk.tenant, talk.conversation_id) is None
    history = await ConversationStore(redis_client).messages(talk.tenant, talk.conversation_id)
    assert (history[-1].role, history[-1].metadata) == ("system", ErrorNotice(error_code="cancelled"))

    action = await talk.outcome(await talk.say("@Summarize @KYC Procedure", "summarize", ("kyc",)))
    assert (action["action"], ids(action)) == ("summarize", ["kyc"])


async def test_a_new_message_supersedes_the_pending_question(talk: Talk, redis_client: Redis) -> None:
    question = await talk.outcome(await talk.say("@Compare @KYC Procedure", "compare", ("kyc",)))
    action = await talk.outcome(await talk.say("@Summarize @Our AML Policy", "summarize", ("pol",)))
    assert action["action"] == "summarize"
    assert await ConversationMemory(redis_client).pending(talk.tenant, talk.conversation_id) is None

    late = await talk.outcome(await talk.answer(question, "text_input", "Our AML Policy"))
    assert (late["type"], late["code"]) == ("error", "interrupt_expired")


async def test_a_long_conversation_keeps_older_references_through_the_summary(talk: Talk) -> None:
    await talk.outcome(await talk.say("@Summarize @Bank Negara Capital Guidelines", "summarize", ("bn24",)))
    await talk.store_turn("assistant", "Bank Negara requires a total capital ratio of 8 %.", "worker-0")
    for turn in range(1, 8):  # 14 more messages of small talk about other things
        await talk.store_turn("user", f"Thanks, noted point {turn}.", f"chat-{turn}")
        await talk.store_turn("assistant", f"Acknowledged point {turn}.", f"chat-{turn}")

    action = await talk.outcome(
        await talk.say("Does @Our AML Policy comply with that regulation?", None, ("pol",))
    )
    assert (action["action"], ids(action), action["target_document_ids"]) == (
        "audit",
        ["pol", "bn24"],
        ["bn24"],
    )
    summary, *verbatim = action["history"]
    assert summary["role"] == "system"
    assert summary["content"].startswith("Conversation summary (messages 1-5):")
    assert "@Bank Negara Capital Guidelines (2024)" in summary["content"]
    assert len(verbatim) == 10


async def test_the_tenants_industry_and_location_reach_the_worker(talk: Talk) -> None:
    await TenantStore(talk.redis).put(talk.tenant, TenantSettings(industry="banking", location="Malaysia"))
    request = await talk.say("Summarize @KYC Procedure", "summarize", ("kyc",))
    action = await talk.outcome(request)
    assert action["user_context"] == {"industry": "banking", "location": "Malaysia"}


async def test_without_a_profile_the_user_context_is_unknown(talk: Talk) -> None:
    request = await talk.say("Summarize @KYC Procedure", "summarize", ("kyc",))
    action = await talk.outcome(request)
    assert action["user_context"] == {"industry": None, "location": None}


async def test_the_users_company_profile_reaches_the_worker(talk: Talk) -> None:
    profile = CompanyProfile(
        company_name="Acme Bank Berhad", country="Malaysia", description="  Retail bank.  "
    )
    await ProfileStore(talk.redis).put(talk.tenant, USER, profile)
    await ProfileStore(talk.redis).put(talk.tenant, "bob", CompanyProfile(company_name="Other Co"))
    request = await talk.say("Summarize @KYC Procedure", "summarize", ("kyc",))
    action = await talk.outcome(request)
    assert action["company"] == {
        "company_name": "Acme Bank Berhad",
        "country": "Malaysia",
        "industry": None,
        "description": "Retail bank.",
    }


async def test_without_a_company_profile_none_travels(talk: Talk) -> None:
    await ProfileStore(talk.redis).put(
        "another-tenant", USER, CompanyProfile(company_name="Acme Bank Berhad")
    )
    await ProfileStore(talk.redis).put(talk.tenant, "bob", CompanyProfile(company_name="Other Co"))
    request = await talk.say("Summarize @KYC Procedure", "summarize", ("kyc",))
    action = await talk.outcome(request)
    assert action["company"] is None


async def test_a_document_not_in_the_library_is_said_and_the_library_searched_on_request(talk: Talk) -> None:
    await talk.outcome(await talk.say("@Summarize @FSA Conduct Rules", "summarize", ("fsa",)))
    question = await talk.outcome(await talk.say("What about the Ubuntu packaging guide?"))
    assert "“Ubuntu packaging guide”" in question["message"]
    action = await talk.outcome(await talk.answer(question, "text_input", "search_library"))
    assert (action["action"], ids(action), action["web"]) == ("inquire", [], False)
    assert action["inference_confidence"] == "medium"


async def test_a_pasted_email_is_audited_against_the_two_documents_of_the_compare(talk: Talk) -> None:
    await talk.outcome(
        await talk.say(
            "Compare @Bank Negara Capital Guidelines @Bank Negara Capital Guidelines",
            "compare",
            ("bn24", "bn25"),
        )
    )
    email = (
        "From: ops@acme.example\nSubject: Deposits\nWe compare both offers and guarantee every customer a "
        "fixed return of twenty percent, with no identity checks."
    )
    action = await talk.outcome(await talk.say(f"Now audit this email against those two docs:\n{email}"))
    assert (action["action"], action["target_document_ids"]) == ("audit", ["bn24", "bn25"])
    assert action["source_text"] == email
    assert "twenty percent" not in action["query"]  # the payload is audited, never searched for
