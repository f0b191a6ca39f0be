"""A question and a refusal become the same events whichever service ends the request with them."""

import pytest

from policypal.contracts import ErrorCode, InterruptOption, ResumePoint
from policypal.state import PendingInterrupt, Question, Refusal
from tests.resolver.factories import CONV, TENANT, USER, chat

REQUEST = chat("Summarize it", request_id="req-7")
POINT = ResumePoint(request_id="req-7", message_id="user-req-7", text="Summarize it", step="documents")


def test_a_question_answers_its_request_with_a_stable_interrupt_and_keeps_its_resume_point() -> None:
    options = [InterruptOption(id="d1", label="Policy (3)")]
    question = Question(POINT, "doc_choice", "Which document?", options)

    pending = question.pending_for(REQUEST)
    again = question.pending_for(REQUEST)

    interrupt = pending.interrupt
    assert (interrupt.tenant_id, interrupt.user_id, interrupt.request_id, interrupt.thread_id) == (
        TENANT,
        USER,
        "req-7",
        CONV,
    )
    assert (interrupt.interrupt_type, interrupt.message, interrupt.options) == (
        "doc_choice",
        "Which document?",
        options,
    )
    # A redelivery asks the same question under the same id, so its answer still matches.
    assert interrupt.interrupt_id == again.interrupt.interrupt_id == "interrupt-req-7"
    assert interrupt.event_id != again.interrupt.event_id
    assert pending.resume_point == POINT
    stored = PendingInterrupt.model_validate_json(pending.model_dump_json())
    assert stored.resume_point == POINT


def test_a_refusal_ends_its_request_with_its_code_and_the_notices_after_the_message() -> None:
    refusal = Refusal(ErrorCode.TOO_MANY_DOCUMENTS, "At most five documents.", ["Used the latest version."])

    error = refusal.error_for(REQUEST)

    assert (error.request_id, error.thread_id, error.code, error.retryable) == (
        "req-7",
        CONV,
        ErrorCode.TOO_MANY_DOCUMENTS,
        False,
    )
    assert error.message == "At most five documents. Used the latest version."
    assert Refusal(ErrorCode.NO_DOCUMENTS, "Tag a document.").error_for(REQUEST).message == "Tag a document."


def test_a_refusal_is_raised_with_its_message() -> None:
    with pytest.raises(Refusal, match="Tag a document") as raised:
        raise Refusal(ErrorCode.NO_DOCUMENTS, "Tag a document.")
    assert raised.value.code is ErrorCode.NO_DOCUMENTS
