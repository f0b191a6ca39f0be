"""Scripted answers of the resolver's two LLM calls, and reading back what the resolver asked."""

from typing import Any

from policypal.contracts import ActionName, ConfidenceTier
from resolver.llm_documents import INSTRUCTIONS as DOCUMENT_INSTRUCTIONS
from resolver.llm_intent import INSTRUCTIONS as INTENT_INSTRUCTIONS
from tests.support.openai_server import RecordedRequest, Reply


def intent(
    action: ActionName,
    confidence: ConfidenceTier = "high",
    *,
    web: bool = False,
    actions: tuple[ActionName, ...] = (),
) -> Reply:
    """The classifier's answer; several ``actions`` make it a multi-action answer."""
    return Reply.json(
        {
            "action": action,
            "confidence": confidence,
            "enable_web_search": web,
            "multi_action_detected": len(actions) > 1,
            "requested_actions": list(actions or (action,)),
            "reasoning": "scripted",
        }
    )


def documents(
    resolved: tuple[str, ...] = (),
    *,
    unresolved: tuple[str, ...] = (),
    candidates: tuple[str, ...] = (),
    confidence: ConfidenceTier = "high",
    implicit: bool = False,
) -> Reply:
    """The document resolver's answer."""
    return Reply.json(
        {
            "resolved_ids": list(resolved),
            "unresolved_names": list(unresolved),
            "candidate_ids": list(candidates),
            "inference_confidence": confidence,
            "has_implicit_refs": implicit,
            "reasoning": "scripted",
        }
    )


def task_of(request: RecordedRequest) -> str:
    """ "intent" or "documents": which of the resolver's calls ``request`` was."""
    system = request.messages[0]["content"]
    if INTENT_INSTRUCTIONS in system:
        return "intent"
    if DOCUMENT_INSTRUCTIONS in system:
        return "documents"
    raise AssertionError("not a resolver prompt")


def tasks(requests: list[RecordedRequest]) -> list[str]:
    """The calls in the order they were made."""
    return [task_of(r) for r in requests]


def prompt_text(request: RecordedRequest) -> str:
    """Everything the model was sent in ``request``, as one string."""
    return "\n".join(str(m.get("content", "")) for m in request.messages)


def conversation_turns(request: RecordedRequest) -> list[dict[str, Any]]:
    """The messages between the system prompt and the latest user message (the history sent)."""
    return request.messages[1:-1]
