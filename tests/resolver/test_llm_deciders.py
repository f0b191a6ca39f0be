"""The LLM classifier and document matcher against a real OpenAI-compatible HTTP server (scripted).

What the resolver sends (progressive context, the full message, the registry) and what it keeps of the
answers (invented ids dropped, tagged documents not doubled), and the offline fallback on failures.
"""

from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

from policypal.config import Settings
from policypal.contracts import InterruptOption
from policypal.llm import LLM
from policypal.state import Question
from policypal.telemetry import request_scope, service_span
from resolver.documents import RegistryDocumentMatcher
from resolver.intent import IntentRequest, PatternIntentClassifier
from resolver.llm_documents import OFFLINE_NOTICE as DOCUMENTS_OFFLINE
from resolver.llm_documents import LLMDocumentMatcher
from resolver.llm_intent import OFFLINE_NOTICE as INTENT_OFFLINE
from resolver.llm_intent import LLMIntentClassifier
from resolver.pipeline import Context, Deciders, Plan, advance
from resolver.service import deciders_for
from resolver.turn import Turn
from tests.resolver.conftest import llm_settings
from tests.resolver.factories import chat, entry, run_turn
from tests.resolver.llm_script import conversation_turns, documents, intent, tasks
from tests.resolver.scenario_set import BY_ID, CATALOG
from tests.support.openai_server import Reply, ScriptedOpenAI

RECENT = ("user: @Summarize @Bank Negara Capital Guidelines", "assistant: The guidelines set a ratio.")


async def _ignore_status(stage: str, message: str) -> None:
    return None


def classifier(llm: LLM) -> LLMIntentClassifier:
    return LLMIntentClassifier(llm, fallback=PatternIntentClassifier())


async def test_a_sure_first_answer_takes_one_call_on_the_latest_message_alone(
    openai_server: ScriptedOpenAI, llm: LLM
) -> None:
    openai_server.enqueue(intent("compare"))
    guess = await classifier(llm).classify(IntentRequest("Compare them", "Compare them", history=RECENT))
    assert (guess.action, guess.confidence, guess.candidates, guess.notice) == ("compare", "high", (), None)
    [request] = openai_server.requests
    assert conversation_turns(request) == []
    assert request.messages[-1] == {"role": "user", "content": "Compare them"}
    assert request.body["response_format"]["json_schema"]["name"] == "IntentClassification"


async def test_an_unsure_answer_is_asked_again_once_with_the_last_five_turns(
    openai_server: ScriptedOpenAI, llm: LLM
) -> None:
    openai_server.enqueue(intent("inquire", "low"), intent("summarize", "medium"))
    recent = tuple(f"user: message {i}" for i in range(7))
    guess = await classifier(llm).classify(IntentRequest("and 2025", "and 2025", history=recent))
    assert (guess.action, guess.confidence) == ("summarize", "medium")
    first, second = openai_server.requests
    assert conversation_turns(first) == []
    assert [t["content"] for t in conversation_turns(second)] == [f"message {i}" for i in range(2, 7)]
    assert second.messages[-1]["content"] == "and 2025"


async def test_without_earlier_turns_there_is_no_second_call_and_low_offers_every_action(
    openai_server: ScriptedOpenAI, llm: LLM
) -> None:
    openai_server.enqueue(intent("inquire", "low"))
    guess = await classifier(llm).classify(IntentRequest("capital buffers", "capital buffers"))
    assert (guess.confidence, guess.candidates) == ("low", ("inquire", "summarize", "compare", "audit"))
    assert len(openai_server.requests) == 1


async def test_multi_action_and_web_and_the_summarize_about_rule(
    openai_server: ScriptedOpenAI, llm: LLM
) -> None:
    openai_server.enqueue(
        intent("summarize", actions=("summarize", "audit")),
        intent("summarize", web=True),
    )
    multi = await classifier(llm).classify(IntentRequest("Summarize and audit it", "Summarize and audit it"))
    assert (multi.multi_action, multi.candidates) == (True, ("summarize", "audit"))
    topic = await classifier(llm).classify(
        IntentRequest("Summarize the capital rules in @GDPR", "Summarize the capital rules in")
    )
    assert (topic.action, topic.web, topic.multi_action) == ("inquire", True, False)


async def test_a_failed_model_falls_back_to_the_rules_with_a_notice(
    openai_server: ScriptedOpenAI, llm: LLM
) -> None:
    # One retry in the adapter: two failures exhaust it.
    openai_server.enqueue(Reply.failure(500), Reply.failure(503))
    guess = await classifier(llm).classify(IntentRequest("Compare them", "Compare them"))
    assert (guess.action, guess.confidence, guess.notice) == ("compare", "high", INTENT_OFFLINE)
    assert len(openai_server.requests) == 2


async def test_a_reply_out_of_schema_twice_falls_back_too(openai_server: ScriptedOpenAI, llm: LLM) -> None:
    openai_server.enqueue(Reply.text("compare, I think"), Reply.json({"action": "delete everything"}))
    guess = await classifier(llm).classify(IntentRequest("Compare them", "Compare them"))
    assert (guess.action, guess.notice) == ("compare", INTENT_OFFLINE)


async def test_the_document_call_sees_the_full_message_and_no_history_on_a_registry_hit(
    openai_server: ScriptedOpenAI, deciders: Deciders
) -> None:
    openai_server.enqueue(intent("audit"), documents(("fsa", "aml"), implicit=True))
    registry = [entry(BY_ID["fsa"], 2), entry(BY_ID["kyc"], 1)]
    event = chat("Audit @Our AML Policy against FSA Conduct Rules", documents=("aml",))
    outcome, _ = await run_turn(event, CATALOG, registry, deciders)
    assert isinstance(outcome, Plan)
    # The tagged document echoed back by the model is not doubled.
    assert [d.document_id for d in outcome.turn.documents] == ["aml", "fsa"]
    assert (outcome.source_document_id, outcome.target_document_ids) == ("aml", ("fsa",))
    request = openai_server.requests[1]
    text = request.messages[-1]["content"]
    assert "Message: Audit @Our AML Policy against FSA Conduct Rules" in text
    assert "- aml: Our AML Policy (v3), policy" in text
    assert "- fsa: FSA Conduct Rules (2023), regulatory, last used in turn 2" in text
    assert conversation_turns(request) == []


async def test_without_a_registry_hit_the_last_five_messages_are_sent(
    openai_server: ScriptedOpenAI, deciders: Deciders
) -> None:
    openai_server.enqueue(intent("audit"), documents(("bn24",), implicit=True))
    registry = [entry(BY_ID["bn24"], 1)]
    event = chat("Does @Our AML Policy comply with that regulation?", documents=("aml",))
    context = Context(CATALOG, registry, RECENT, year=2026)
    outcome = await advance(Turn.start(event), context, deciders, _ignore_status)
    assert isinstance(outcome, Plan)
    assert (outcome.source_document_id, outcome.target_document_ids) == ("aml", ("bn24",))
    assert tasks(openai_server.requests) == ["intent", "documents"]
    sent = conversation_turns(openai_server.requests[1])
    assert [t["role"] for t in sent] == ["user", "assistant"]
    # The intent call was sure at once, so it saw the latest message only.
    assert conversation_turns(openai_server.requests[0]) == []


async def test_the_action_decided_goes_on_the_handling_span_and_the_document_calls_span(
    openai_server: ScriptedOpenAI, deciders: Deciders, finished_spans: InMemorySpanExporter
) -> None:
    openai_server.enqueue(intent("audit"), documents(("fsa", "aml"), implicit=True))
    registry = [entry(BY_ID["fsa"], 2)]
    event = chat("Audit @Our AML Policy against FSA Conduct Rules", documents=("aml",))
    with request_scope("acme", "req-1"), service_span("handle resolver"):
        outcome, _ = await run_turn(event, CATALOG, registry, deciders)
    assert isinstance(outcome, Plan)

    # The request's own spans (the scripted server's are in this process too, outside the request).
    ours = [dict(span.attributes or {}) for span in finished_spans.get_finished_spans()]
    ours = [attributes for attributes in ours if attributes.get("policypal.request_id") == "req-1"]
    action = {str(a.get("policypal.llm.task", "handle resolver")): a.get("policypal.action") for a in ours}
    # docs/architecture.md, Invariant: one trace: the intent call runs before the action is known; everything after it carries it.
    assert action == {"intent": None, "doc_resolution": "audit", "handle resolver": "audit"}


async def test_ids_the_model_invents_are_dropped(openai_server: ScriptedOpenAI, deciders: Deciders) -> None:
    openai_server.enqueue(intent("compare"), documents(("ghost", "bn24", "bn25", "other-tenant-doc")))
    registry = [entry(BY_ID["bn24"], 1), entry(BY_ID["bn25"], 1)]
    outcome, _ = await run_turn(chat("Compare them"), CATALOG, registry, deciders)
    assert isinstance(outcome, Plan)
    assert [d.document_id for d in outcome.turn.documents] == ["bn24", "bn25"]


async def test_only_invented_ids_make_the_turn_ask(openai_server: ScriptedOpenAI, deciders: Deciders) -> None:
    openai_server.enqueue(intent("summarize"), documents(("ghost",)))
    outcome, _ = await run_turn(chat("Summarize that policy"), CATALOG, [entry(BY_ID["kyc"], 1)], deciders)
    assert isinstance(outcome, Question)
    assert (outcome.interrupt_type, outcome.resume_point.documents) == ("text_input", [])
    assert outcome.message.startswith("I could not tell which document you mean.")


async def test_unresolved_names_go_to_the_fuzzy_stage_and_ambiguity_to_doc_choice(
    openai_server: ScriptedOpenAI, deciders: Deciders
) -> None:
    openai_server.enqueue(
        intent("summarize"),
        documents(unresolved=("FSA conduct rules",)),
        intent("summarize"),
        documents(candidates=("kyc", "priv"), confidence="medium", implicit=True),
    )
    found, _ = await run_turn(chat("Summarize the FSA conduct rules"), CATALOG, [], deciders)
    assert isinstance(found, Plan)
    assert [d.document_id for d in found.turn.documents] == ["fsa"]
    registry = [entry(BY_ID["kyc"], 1), entry(BY_ID["priv"], 2)]
    ambiguous, _ = await run_turn(chat("Summarize the policy"), CATALOG, registry, deciders)
    assert isinstance(ambiguous, Question)
    assert ambiguous.options == [
        InterruptOption(id="kyc", label="KYC Procedure (2022)"),
        InterruptOption(id="priv", label="Privacy Policy (2021)"),
        InterruptOption(id="all", label="All of these"),
    ]


async def test_failed_document_call_falls_back_with_a_notice_that_reaches_the_plan(
    openai_server: ScriptedOpenAI, deciders: Deciders
) -> None:
    openai_server.enqueue(intent("compare"), Reply.failure(500), Reply.failure(500))
    registry = [entry(BY_ID["bn24"], 1), entry(BY_ID["bn25"], 1)]
    outcome, _ = await run_turn(chat("Compare those two versions"), CATALOG, registry, deciders)
    assert isinstance(outcome, Plan)
    assert [d.document_id for d in outcome.turn.documents] == ["bn24", "bn25"]
    assert DOCUMENTS_OFFLINE in outcome.notices


async def test_explicit_action_and_pure_mentions_make_no_call(
    openai_server: ScriptedOpenAI, deciders: Deciders
) -> None:
    outcome, stages = await run_turn(
        chat("@Summarize @Our AML Policy", "summarize", ("aml",)), CATALOG, [], deciders
    )
    assert isinstance(outcome, Plan)
    assert openai_server.requests == []
    assert not any(s.startswith("intent") for s in stages)


def test_the_settings_choose_the_deciders(openai_server: ScriptedOpenAI) -> None:
    chosen = deciders_for(llm_settings(openai_server))
    assert isinstance(chosen.classifier, LLMIntentClassifier)
    assert isinstance(chosen.matcher, LLMDocumentMatcher)
    offline = deciders_for(Settings(_env_file=None, openai_api_key=None, openai_base_url=None))
    assert isinstance(offline.classifier, PatternIntentClassifier)
    assert isinstance(offline.matcher, RegistryDocumentMatcher)
