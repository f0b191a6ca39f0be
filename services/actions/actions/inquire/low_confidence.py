"""Low retrieval confidence: the request ends with a ``retrieval_low`` question instead of a weak answer.

docs/product.md, Interrupt kinds: "I couldn't find strong matches… tag documents / search the web /
continue anyway", plus "ask a reviewer" (docs/product.md, Escalation to a reviewer). Like every
PalAssist question (ADR 0003) the interrupt is the request's
terminal event, recorded in the ledger, kept in the history as a system notice, and saved as the
conversation's pending interrupt before it is published, so the gateway accepts the answer.

The resume point (``policypal.contracts.ResumePoint``) is read by the resolver, which continues the
turn from it: the request, the message, the question, the action and documents, the validation step,
and the whole action request, so a resumed "continue anyway" or "search the web" can be handed back
to this worker unchanged but for that choice.
"""

from actions.inquire.confidence import Confidence
from policypal.contracts import ActionRequested, InterruptOption, ResumePoint
from policypal.state import Question

OPTIONS = [
    InterruptOption(id="tag_documents", label="Tag specific documents"),
    InterruptOption(id="search_web", label="Search the web"),
    InterruptOption(id="continue", label="Continue anyway"),
    InterruptOption(id="ask_reviewer", label="Ask a reviewer"),
]


def low_confidence_question(event: ActionRequested, confidence: Confidence) -> Question:
    """The ``retrieval_low`` question ending ``event``, resumed from ``resume_point(event)``."""
    where = "the tagged documents" if event.documents else "your library"
    return Question(
        resume_point(event),
        "retrieval_low",
        f"I couldn't find strong matches in {where} (similarity {confidence.score:.2f}). "
        "Limited information available. Would you like me to search specific documents, search the "
        "web, continue anyway with a caution, or ask a reviewer?",
        OPTIONS,
    )


def resume_point(event: ActionRequested) -> ResumePoint:
    """Where the resolver continues the turn: at validation, with the action request itself."""
    return ResumePoint(
        request_id=event.request_id,
        message_id=event.message_id or "",
        text=event.query,
        action="inquire",
        documents=event.documents,
        clean_query=event.query,
        step="validation",
        options=OPTIONS,
        action_request=event,
    )
