"""The user's answer to a PalAssist question, applied to the saved turn (docs/product.md, Resume and cancel).

action_choice sets the action and continues with the documents; doc_choice adds the chosen document
(or all candidates) and continues with validation; text_input fills what was asked for: a document,
the text to audit, or the question (or, for a document not in the library, to search the library
or the web instead); retrieval_low applies the chosen remedy (``low_retrieval``).
An answer that does not fit asks again.
"""

from collections.abc import Sequence

from policypal.contracts import ActionName, InterruptKind, ResumeValue
from policypal.state import DocumentRecord, Question, Refusal
from resolver.document_pointers import document_names, plain_question
from resolver.documents import resolved
from resolver.low_retrieval import Escalate, Retry, apply_remedy
from resolver.matching import fuzzy_matches, loose_names, title_hits
from resolver.pipeline import SEARCH_WEB
from resolver.turn import Turn

_ACTIONS: tuple[ActionName, ...] = ("summarize", "inquire", "compare", "audit")


def apply_answer(
    turn: Turn, asked: InterruptKind, answer: ResumeValue, catalog: Sequence[DocumentRecord]
) -> Turn | Question | Refusal | Retry | Escalate:
    """``turn`` updated with the ``answer`` to the question ``asked``, or the question to ask again.

    A retrieval_low answer may also end the turn (``Refusal``), hand the paused request back (``Retry``)
    or send its question to a reviewer (``Escalate``).
    """
    value = (answer.value or "").strip()
    option_ids = [o.id for o in turn.options]
    if answer.type != asked:
        return _again(turn, asked, "Please answer the question above.")
    if answer.type == "action_choice":
        action = next((a for a in _ACTIONS if a == value), None)
        if action is None or (option_ids and value not in option_ids):
            return _again(turn, "action_choice", f"“{value}” is not one of the choices.")
        turn.action, turn.intent_confidence, turn.step = action, "high", "documents"
    elif answer.type == "doc_choice":
        chosen = turn.candidates if value == "all" else [d for d in turn.candidates if d.document_id == value]
        if not chosen:
            return _again(turn, "doc_choice", f"“{value}” is not one of the choices.")
        turn.add_documents(chosen)
        turn.document_confidence, turn.step = "high", "validation"
    elif answer.type == "retrieval_low":
        remedy = apply_remedy(turn, value)
        if remedy is None or (option_ids and value not in option_ids):
            return _again(turn, "retrieval_low", f"“{value}” is not one of the choices.")
        return remedy
    elif answer.type == "text_input" and value:
        question = _fill(turn, value, catalog)
        if question is not None:
            return question
    else:
        return _again(turn, "text_input", "Please type your answer.")
    turn.candidates, turn.options, turn.awaiting = [], [], None
    return turn


def _fill(turn: Turn, value: str, catalog: Sequence[DocumentRecord]) -> Question | None:
    if turn.awaiting == "question":
        turn.clean_query = plain_question(value, document_names(turn.documents))
    elif turn.awaiting == "audit_source":
        turn.source_text = value
    elif turn.awaiting == "documents" and value in {o.id for o in turn.options}:
        # The named document is not in the library: go on without it, over the library or the web.
        turn.web = turn.web or value == SEARCH_WEB
        turn.unresolved_names = []
        turn.document_confidence = "medium"
    else:
        found = documents_in_answer(value, [d for d in catalog if d.status == "ready"])
        if not found:
            return _again(turn, "text_input", f"I could not find “{value}” among your documents.")
        turn.add_documents([resolved(d) for d in found])
        turn.unresolved_names = []
        turn.document_confidence = "high"
    turn.step = "validation"
    return None


def documents_in_answer(value: str, catalog: Sequence[DocumentRecord]) -> list[DocumentRecord]:
    """The documents an answer names: by id, by title written out, or by a fuzzy name."""
    by_id = {d.document_id: d for d in catalog}
    if value in by_id:
        return [by_id[value]]
    ids = [hit.document_id for hit in title_hits(value, catalog)]
    for name in [value, *(n for n, _ in loose_names(value))]:
        if ids:
            break
        ids = fuzzy_matches(name, catalog)
    return [by_id[i] for i in dict.fromkeys(ids)]


def _again(turn: Turn, kind: InterruptKind, reason: str) -> Question:
    """Repeat the saved question, saying why the answer did not fit."""
    if kind == "text_input" or not turn.options:
        return Question(turn, "text_input", f"{reason} {_prompt_for(turn)}")
    return Question(turn, kind, f"{reason} Please choose one of the options.", turn.options)


def _prompt_for(turn: Turn) -> str:
    prompts = {
        "question": "Please type your question.",
        "audit_source": "Please enter the text you would like to audit.",
        "audit_targets": "Please tag the regulations you would like to audit against.",
        "another_document": "Please tag the additional document.",
    }
    return prompts.get(turn.awaiting or "", "Please tag the document you would like to reference.")
