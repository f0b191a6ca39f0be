"""The hand-off of a complete turn: the action request, and what the conversation keeps of it."""

from policypal.contracts import ActionRequested, CompanyContext, HistoryTurn, UserContext
from policypal.contracts.envelope import Envelope, answering
from policypal.state import RegistryEntry
from resolver.pipeline import Plan


def action_request(
    event: Envelope,
    plan: Plan,
    history: list[HistoryTurn],
    user_context: UserContext,
    company: CompanyContext | None = None,
) -> ActionRequested:
    """``actions.<action>.requested`` for ``plan``, answering ``event``'s request.

    For a resumed turn ``event`` is the ``chat.resumed`` (a new request id: the worker's answer ends
    that request); ``message_id`` stays the user message that started the turn. ``user_context`` is the
    tenant's industry and location (its profile), ``company`` the requesting user's own company profile,
    both for the worker's prompts.
    """
    turn = plan.turn
    assert turn.action is not None, "a plan has an action"
    return ActionRequested(
        **answering(event),
        action=turn.action,
        query=turn.clean_query,
        documents=turn.documents,
        history=history,
        message_id=turn.message_id,
        source_document_id=plan.source_document_id,
        source_text=plan.source_text,
        target_document_ids=list(plan.target_document_ids),
        web=turn.web,
        user_context=user_context,
        inference_confidence=turn.document_confidence,
        notices=list(plan.notices),
        company=company,
    )


def registry_entries(plan: Plan) -> list[RegistryEntry]:
    """The documents of a handed-off turn, as entries of the conversation's registry."""
    return [
        RegistryEntry(document_id=d.document_id, title=d.title, version=d.version, doc_type=d.doc_type)
        for d in plan.turn.documents
    ]
