"""Answers to PalAssist questions: checked against the pending interrupt, kept, published as ``chat.resumed``."""

from fastapi import HTTPException, status

from gateway.deadlines import register_deadline
from gateway.publishing import publish_or_503
from gateway.resources import Resources
from policypal.contracts import AnsweredInterrupt, ChatResumed, InterruptAnswer, InterruptEvent, ResumeValue
from policypal.state import ConversationMemory, ConversationRecord, StoredMessage, user_message_id

_NOT_OPEN = (
    "There is no open question with this id: it was answered, cancelled or replaced by a newer message."
)
_CHOICES = {"action_choice", "doc_choice", "retrieval_low"}


async def post_answer(
    resources: Resources,
    conversation: ConversationRecord,
    interrupt_id: str,
    answer: ResumeValue,
    request_id: str,
) -> str:
    """Store the answer as the user's turn and publish ``chat.resumed``; returns the turn's message id.

    A retry with the same request id (Idempotency-Key) re-publishes the same event even when the
    question has been answered meanwhile; JetStream drops the duplicate.
    """
    message_id = user_message_id(request_id)
    answered = await _stored_answer(resources, conversation, message_id)
    if answered is None:
        pending = await ConversationMemory(resources.redis).pending(
            conversation.tenant_id, conversation.conversation_id
        )
        if pending is None or pending.interrupt.interrupt_id != interrupt_id:
            raise HTTPException(status.HTTP_409_CONFLICT, _NOT_OPEN)
        answered = AnsweredInterrupt(
            interrupt_id=interrupt_id, resumes_request_id=pending.interrupt.request_id, resume_value=answer
        )
        turn = StoredMessage(
            message_id=message_id,
            role="user",
            content=answer_text(pending.interrupt, answer),
            request_id=request_id,
            metadata=InterruptAnswer(resume=answered),
        )
        await resources.conversations.append(conversation, turn)
    if answered.interrupt_id != interrupt_id or answered.resume_value != answer:
        raise HTTPException(
            status.HTTP_409_CONFLICT, "This Idempotency-Key was already used for another answer."
        )
    event = ChatResumed(
        tenant_id=conversation.tenant_id,
        user_id=conversation.user_id,
        request_id=request_id,
        thread_id=conversation.conversation_id,
        interrupt_id=interrupt_id,
        resumes_request_id=answered.resumes_request_id,
        resume_value=answer,
    )
    await register_deadline(resources, conversation, request_id)
    await publish_or_503(
        resources,
        event,
        msg_id=request_id,
        refusal="The answer is saved but could not be queued; send it again with the same Idempotency-Key.",
    )
    return message_id


def answer_text(interrupt: InterruptEvent, answer: ResumeValue) -> str:
    """The answer as the history shows it (an option's label, the typed text, "Cancel"); 422 if it does not fit."""
    if answer.type == "cancel":
        return "Cancel"
    if answer.type != interrupt.interrupt_type:
        raise HTTPException(
            status.HTTP_422_UNPROCESSABLE_CONTENT,
            f"This question expects a {interrupt.interrupt_type} answer (or a cancel), not {answer.type}.",
        )
    value = (answer.value or "").strip()
    if answer.type in _CHOICES:
        labels = {option.id: option.label for option in interrupt.options or []}
        if value not in labels:
            raise HTTPException(
                status.HTTP_422_UNPROCESSABLE_CONTENT,
                f"Choose one of the offered options: {', '.join(labels) or 'none'}.",
            )
        return labels[value]
    if not value:
        raise HTTPException(status.HTTP_422_UNPROCESSABLE_CONTENT, "Type an answer to the question.")
    # A typed question may offer choices too ("Search the web" for a document not in the library).
    return next((o.label for o in interrupt.options or [] if o.id == value), value)


async def _stored_answer(
    resources: Resources, conversation: ConversationRecord, message_id: str
) -> AnsweredInterrupt | None:
    """What the stored answer turn ``message_id`` answered, if the turn is there."""
    history = await resources.conversations.messages(conversation.tenant_id, conversation.conversation_id)
    answers = (m.metadata for m in history if m.message_id == message_id)
    return next((meta.resume for meta in answers if isinstance(meta, InterruptAnswer)), None)
