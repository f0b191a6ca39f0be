"""Answers to the @Inquire worker's retrieval_low question, applied to the resume point it saved."""

import pytest

from actions.inquire.low_confidence import resume_point
from policypal.contracts import ActionRequested, ChatResumed, ResolvedDocument, ResumeValue
from policypal.state import Question, Refusal
from resolver.answers import apply_answer
from resolver.low_retrieval import TAG_DOCUMENTS_PROMPT, Escalate, Retry, retried_request
from resolver.turn import Turn
from tests.resolver.factories import CONV, TENANT, USER

PAUSED = ActionRequested(
    tenant_id=TENANT,
    user_id=USER,
    request_id="req-1",
    thread_id=CONV,
    message_id="user-req-1",
    action="inquire",
    query="How long are records kept?",
    documents=[ResolvedDocument(document_id="ret", title="Retention", version="3", doc_type="policy")],
    notices=["Used the latest version."],
)


def answered(value: str) -> Turn | Question | Refusal | Retry | Escalate:
    turn = Turn.resumed(resume_point(PAUSED))
    return apply_answer(turn, "retrieval_low", ResumeValue(type="retrieval_low", value=value), [])


def resumed() -> ChatResumed:
    return ChatResumed(
        tenant_id=TENANT,
        user_id=USER,
        request_id="req-2",
        thread_id=CONV,
        interrupt_id="interrupt-req-1",
        resumes_request_id="req-1",
        resume_value=ResumeValue(type="retrieval_low", value="continue"),
    )


@pytest.mark.parametrize(("choice", "web"), [("continue", False), ("search_web", True)])
def test_continue_or_web_hands_the_same_request_back_for_the_new_request(choice: str, web: bool) -> None:
    retry = answered(choice)
    assert isinstance(retry, Retry)
    request = retried_request(resumed(), retry)
    assert (request.request_id, request.thread_id, request.message_id) == ("req-2", CONV, "user-req-1")
    assert (request.accept_low_confidence, request.web) == (True, web)
    assert request.event_id != PAUSED.event_id
    same = {"event_id", "occurred_at", "request_id", "accept_low_confidence", "web"}
    assert request.model_dump(exclude=same) == PAUSED.model_dump(exclude=same)


def test_tag_documents_asks_for_them_as_text() -> None:
    question = answered("tag_documents")
    assert isinstance(question, Question)
    assert (question.interrupt_type, question.message) == ("text_input", TAG_DOCUMENTS_PROMPT)
    assert (
        question.resume_point.awaiting,
        question.resume_point.options,
        question.resume_point.action_request,
    ) == (
        "documents",
        [],
        None,
    )
    assert question.resume_point.step == "validation"


def test_ask_a_reviewer_escalates_the_paused_question() -> None:
    escalate = answered("ask_reviewer")
    assert isinstance(escalate, Escalate)
    assert escalate.question == "How long are records kept?"
    assert escalate.turn.action_request == PAUSED


def test_an_unknown_choice_asks_again_keeping_the_paused_request() -> None:
    again = answered("pray")
    assert isinstance(again, Question)
    assert again.interrupt_type == "retrieval_low"
    assert [o.id for o in again.options or []] == ["tag_documents", "search_web", "continue", "ask_reviewer"]
    assert again.resume_point.action_request == PAUSED
    saved_again = Turn.model_validate(again.resume_point.model_dump(mode="json"))
    assert saved_again.action_request == PAUSED
