"""Explicit mentions through the pipeline: each error the user can fix, questions, and the plan.

Changed deliberately (was: only @Inquire with tagged documents): a message without an
@action is classified, every action is routed, @Inquire may have no documents, and a tag-only
@Inquire asks for the question (text_input) instead of ending in an error.
"""

import pytest
from redis.asyncio import Redis

from policypal.bus import Unprocessable
from policypal.contracts import ActionName, UserContext
from policypal.state import ConversationRecord, ConversationStore, Question, Refusal
from resolver.handoff import action_request
from resolver.pipeline import Plan
from resolver.resolution import owned_conversation
from resolver.validation import WEB_DROPPED_NOTICE
from tests.resolver.factories import CONV, TENANT, USER, chat, document, run_turn

CATALOG = [
    document("d1"),
    document("d2"),
    document("other", tenant="globex"),
    document("busy", status="processing"),
    document("bad", status="failed"),
]


async def test_explicit_inquire_becomes_a_plan_with_clean_query_and_titles() -> None:
    event = chat("@Inquire @Policy d1 @Policy d2 How long are records kept?", "inquire", ("d1", "d2", "d1"))

    outcome, stages = await run_turn(event, [c for c in CATALOG if c.tenant_id == TENANT])

    assert isinstance(outcome, Plan)
    turn = outcome.turn
    assert (turn.action, turn.clean_query, turn.inference_source) == (
        "inquire",
        "How long are records kept?",
        "explicit",
    )
    assert [(d.document_id, d.title, d.version, d.doc_type) for d in turn.documents] == [
        ("d1", "Policy d1", "2024", "policy"),
        ("d2", "Policy d2", "2024", "policy"),
    ]
    # Explicit @action: no intent step and no status line for it (docs/product.md, Intent).
    assert stages == [
        "documents: Finding documents…",
        "docs_found: Found 2 documents: Policy d1 (2024), Policy d2 (2024)",
        "validation: Validating request…",
    ]


async def test_the_clean_query_drops_chat_filler_and_pointers_at_the_resolved_documents() -> None:
    text = (
        "@Inquire @Policy d1 hey team, quick one: according to Policy d1, how long are records kept? thanks!"
    )
    event = chat(text, "inquire", ("d1",))

    outcome, _ = await run_turn(event, CATALOG[:2])

    assert isinstance(outcome, Plan)
    assert outcome.turn.clean_query == "how long are records kept?"
    assert action_request(event, outcome, [], UserContext()).query == "how long are records kept?"


async def test_mentions_as_the_gateway_inserts_them_are_understood() -> None:
    # /v1/mentions suggests "@PrudentialRulebook" for a document and "@CapitalRules" for a set.
    rulebook = document("d1", "Prudential Rulebook", doc_type="regulatory").model_copy(
        update={"set_name": "Capital Rules"}
    )
    handbook = document("d2", "Staff Handbook").model_copy(update={"set_name": "Capital Rules"})
    for text, mentioned in (
        ("@inquire @PrudentialRulebook What total capital ratio must institutions maintain?", ("d1",)),
        ("@inquire @CapitalRules What total capital ratio must institutions maintain?", ("d1", "d2")),
    ):
        outcome, _ = await run_turn(chat(text, "inquire", mentioned), [rulebook, handbook])

        assert isinstance(outcome, Plan), text
        assert outcome.turn.clean_query == "What total capital ratio must institutions maintain?"
        assert [d.document_id for d in outcome.turn.documents] == list(mentioned)


async def test_a_message_of_only_filler_keeps_its_words_as_the_question() -> None:
    outcome, _ = await run_turn(chat("@Inquire @Policy d1 thanks!", "inquire", ("d1",)), CATALOG[:2])

    assert isinstance(outcome, Plan)
    assert outcome.turn.clean_query == "thanks!"


@pytest.mark.parametrize(
    ("text", "documents", "code", "words"),
    [
        ("@Inquire what?", tuple(f"d{i}" for i in range(1, 7)), "too_many_documents", "at most 5"),
        ("@Inquire @nope what?", ("nope",), "document_not_found", "can't find"),
        ("@Inquire @Policy other what?", ("other",), "document_not_found", "can't find"),
        ("@Inquire @Policy busy what?", ("busy",), "document_not_ready", "still being processed"),
        ("@Inquire @Policy bad what?", ("bad",), "document_not_ready", "no text layer"),
    ],
)
async def test_requests_the_user_can_fix_end_in_a_refusal(
    text: str, documents: tuple[str, ...], code: str, words: str
) -> None:
    catalog = [*CATALOG, *(document(f"d{i}") for i in range(3, 7))]
    outcome, _ = await run_turn(
        chat(text, "inquire", documents), [c for c in catalog if c.tenant_id == TENANT]
    )
    assert isinstance(outcome, Refusal)
    assert outcome.code == code
    assert words in outcome.message


async def test_other_tenants_document_reads_exactly_like_an_unknown_one() -> None:
    other, _ = await run_turn(chat("@Inquire what?", "inquire", ("shared",)), [])
    unknown, _ = await run_turn(chat("@Inquire what?", "inquire", ("nope",)), [])
    assert isinstance(other, Refusal)
    assert isinstance(unknown, Refusal)
    assert other.code == unknown.code == "document_not_found"


async def test_tag_only_inquire_asks_for_the_question() -> None:
    outcome, _ = await run_turn(chat("@Inquire @Policy d1", "inquire", ("d1",)), CATALOG[:2])
    assert isinstance(outcome, Question)
    assert outcome.interrupt_type == "text_input"
    assert outcome.message == "What would you like to know about Policy d1? Please type your question."
    assert outcome.resume_point.awaiting == "question"


async def test_every_action_is_routed() -> None:
    outcome, _ = await run_turn(chat("@Summarize @Policy d1", "summarize", ("d1",)), CATALOG[:2])
    assert isinstance(outcome, Plan)
    assert outcome.turn.action == "summarize"


@pytest.mark.parametrize(
    ("text", "action", "mentioned", "web"),
    [
        ("@Inquire @Policy d1 How long are records kept?", "inquire", True, True),
        ("@Inquire @Policy d1 How long are records kept?", "inquire", False, False),
        ("@Policy d1 how long are records kept?", None, True, True),
        # The temporal-keyword scan still asks for the web without the mention.
        ("@Inquire @Policy d1 What is the current retention period?", "inquire", False, True),
        ("@Inquire @Policy d1 What is the current retention period?", "inquire", True, True),
    ],
)
async def test_a_structured_web_mention_asks_for_the_web(
    text: str, action: ActionName | None, mentioned: bool, web: bool
) -> None:
    event = chat(text, action, ("d1",), web=mentioned)
    outcome, _ = await run_turn(event, CATALOG[:2])
    assert isinstance(outcome, Plan)
    assert (outcome.turn.action, outcome.turn.web) == ("inquire", web)
    request = action_request(event, outcome, [], UserContext())
    assert request.web is web


async def test_a_structured_web_mention_is_dropped_for_compare_with_a_notice() -> None:
    outcome, _ = await run_turn(
        chat("@Compare @Policy d1 @Policy d2", "compare", ("d1", "d2"), web=True), CATALOG[:2]
    )
    assert isinstance(outcome, Plan)
    assert outcome.turn.web is False
    assert WEB_DROPPED_NOTICE in outcome.notices


@pytest.mark.integration
async def test_a_conversation_of_someone_else_is_unprocessable(redis_client: Redis) -> None:
    store = ConversationStore(redis_client)
    await store.create(ConversationRecord(conversation_id=CONV, tenant_id=TENANT, user_id=USER))
    assert await owned_conversation(chat("hi"), store)
    with pytest.raises(Unprocessable):
        await owned_conversation(chat("hi").model_copy(update={"user_id": "mallory"}), store)
