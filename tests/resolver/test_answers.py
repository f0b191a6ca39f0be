"""Answers to PalAssist questions applied to the saved turn."""

from policypal.contracts import InterruptOption, ResolvedDocument, ResumeValue
from policypal.state import Question
from resolver.answers import apply_answer, documents_in_answer
from resolver.turn import Turn
from tests.resolver.factories import chat, document

CATALOG = [document("kyc", "KYC Procedure"), document("aml", "Our AML Policy")]


def saved(**fields: object) -> Turn:
    return Turn.start(chat("x")).model_copy(update=fields)


def test_action_choice_continues_with_documents() -> None:
    turn = saved(
        options=[InterruptOption(id="audit", label="Audit"), InterruptOption(id="summarize", label="S")]
    )
    answered = apply_answer(turn, "action_choice", ResumeValue(type="action_choice", value="audit"), CATALOG)
    assert isinstance(answered, Turn)
    assert (answered.action, answered.step, answered.options) == ("audit", "documents", [])


def test_doc_choice_all_takes_every_candidate() -> None:
    candidates = [
        ResolvedDocument(document_id=i, title=i, version="1", doc_type="policy") for i in ("a", "b")
    ]
    answered = apply_answer(
        saved(candidates=candidates), "doc_choice", ResumeValue(type="doc_choice", value="all"), CATALOG
    )
    assert isinstance(answered, Turn)
    assert ([d.document_id for d in answered.documents], answered.step) == (["a", "b"], "validation")


def test_text_input_fills_what_was_asked() -> None:
    question = apply_answer(
        saved(awaiting="question"), "text_input", ResumeValue(type="text_input", value="Why?"), CATALOG
    )
    assert isinstance(question, Turn)
    assert question.clean_query == "Why?"
    aml = ResolvedDocument(document_id="aml", title="Our AML Policy", version="2024", doc_type="policy")
    typed = "Hi! In Our AML Policy, who reviews alerts? Thanks"
    chatty = apply_answer(
        saved(awaiting="question", documents=[aml]),
        "text_input",
        ResumeValue(type="text_input", value=typed),
        CATALOG,
    )
    assert isinstance(chatty, Turn)
    assert chatty.clean_query == "who reviews alerts?"
    another = apply_answer(
        saved(awaiting="another_document"),
        "text_input",
        ResumeValue(type="text_input", value="our aml policy"),
        CATALOG,
    )
    assert isinstance(another, Turn)
    assert [d.document_id for d in another.documents] == ["aml"]


def test_an_answer_that_does_not_fit_asks_again() -> None:
    again = apply_answer(
        saved(awaiting="documents"), "text_input", ResumeValue(type="text_input", value="nothing"), CATALOG
    )
    assert isinstance(again, Question)
    assert again.message.startswith("I could not find “nothing” among your documents.")
    wrong_kind = apply_answer(saved(), "doc_choice", ResumeValue(type="text_input", value="x"), CATALOG)
    assert isinstance(wrong_kind, Question)


def test_documents_in_answer_by_id_title_or_fuzzy_name() -> None:
    assert [d.document_id for d in documents_in_answer("kyc", CATALOG)] == ["kyc"]
    assert [d.document_id for d in documents_in_answer("the KYC Procedure please", CATALOG)] == ["kyc"]
    assert [d.document_id for d in documents_in_answer("Our AML policy", CATALOG)] == ["aml"]
