"""The user's remedy for weak retrieval: the answer to an @Inquire worker's ``retrieval_low`` question.

The worker paused its request with the whole action request as the resume point (the options of docs/product.md, Interrupt kinds,
reviewer included). "Tag specific documents" continues the turn like any missing document;
"continue anyway" and "search the web" hand the same request back to the worker, changed only by
that choice; "ask a reviewer" escalates the question to a person (``resolver.escalation``).
"""

from dataclasses import dataclass

from policypal.contracts import ActionRequested
from policypal.contracts.codes import ErrorCode
from policypal.contracts.envelope import Envelope
from policypal.state import Question, Refusal
from resolver.turn import Turn

TAG_DOCUMENTS_PROMPT = "Please tag the documents you would like me to search, e.g. @Retention Policy."
NO_SAVED_REQUEST = "That question can no longer be continued. Please send your request again."


@dataclass(frozen=True)
class Retry:
    """Hand the paused request back to its worker with the user's choice applied."""

    request: ActionRequested


@dataclass(frozen=True)
class Escalate:
    """Open a ticket for a human reviewer with the paused turn's question."""

    turn: Turn

    @property
    def question(self) -> str:
        """The question the reviewer is asked: the paused request's clean query, else the user's words."""
        saved = self.turn.action_request
        return (saved.query if saved is not None and saved.query else self.turn.text).strip()


def apply_remedy(turn: Turn, choice: str) -> Turn | Question | Refusal | Retry | Escalate | None:
    """What the ``choice`` (an option id) makes of the paused ``turn``; None if it is not an option.

    Searching the web also accepts weak matches: the user has been asked once and chose to go on, and
    the worker says itself when web search is not configured.
    """
    saved = turn.action_request
    if choice == "tag_documents":
        turn.action_request, turn.options, turn.awaiting = None, [], "documents"
        return Question(turn, "text_input", TAG_DOCUMENTS_PROMPT)
    if choice == "ask_reviewer":
        return Escalate(turn)
    if choice not in {"continue", "search_web"}:
        return None
    if saved is None:
        return Refusal(ErrorCode.INTERRUPT_EXPIRED, NO_SAVED_REQUEST)
    changes = {"accept_low_confidence": True, **({"web": True} if choice == "search_web" else {})}
    return Retry(saved.model_copy(update=changes))


def retried_request(event: Envelope, retry: Retry) -> ActionRequested:
    """The handed-back request, answering ``event`` (the ``chat.resumed``): its request and thread ids.

    A fresh envelope (event id, time); the message id stays the user message that started the turn.
    """
    fields = retry.request.model_dump(exclude={"event_id", "occurred_at"})
    return ActionRequested.model_validate(
        {**fields, "request_id": event.request_id, "thread_id": event.thread_id}
    )
