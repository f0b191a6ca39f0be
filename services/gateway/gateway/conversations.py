"""Conversations: create, list, rename, delete, read with history, and post a message (``chat.requested``)."""

import uuid
from typing import Annotated

from fastapi import APIRouter, Body, Header, HTTPException, Response, status

from gateway.answers import post_answer
from gateway.conversation_titles import DEFAULT_TITLE, title_from_message
from gateway.deadlines import register_deadline
from gateway.models import (
    CancelCreate,
    ConversationCreate,
    ConversationDetail,
    ConversationList,
    ConversationRename,
    ConversationSummaryView,
    ConversationView,
    ErrorBody,
    MessageAccepted,
    MessageCreate,
    ResumeCreate,
)
from gateway.publishing import publish_or_503
from gateway.resources import Resources, ResourcesDep
from gateway.widget import reserved_conversation
from policypal.auth import Principal
from policypal.auth.http import BearerPrincipal
from policypal.contracts import ChatRequested, MessageMentions, ResumeValue, new_event_id
from policypal.state import (
    ConversationMemory,
    ConversationRecord,
    StoredMessage,
    user_message_id,
)

router = APIRouter(prefix="/v1/conversations", tags=["conversations"])

# Fixed namespace so an Idempotency-Key maps to the same request id in every gateway replica.
_IDEMPOTENCY_NAMESPACE = uuid.UUID("6f1c2a4e-9d3b-5e7f-8a1c-2b4d6e8f0a13")
_NOT_FOUND = "No such conversation."
_AUTH_404: dict[int | str, dict[str, object]] = {401: {"model": ErrorBody}, 404: {"model": ErrorBody}}
#: Characters of the newest message shown in the conversation list.
PREVIEW_CHARS = 120


def conversation_events_url(resources: Resources, conversation_id: str) -> str:
    """Where a client follows a conversation's events (served by the notifier)."""
    return f"{resources.settings.events_base_url}/v1/conversations/{conversation_id}/events"


def conversation_view(resources: Resources, record: ConversationRecord) -> ConversationView:
    """The owner's view of a conversation record."""
    return ConversationView(
        conversation_id=record.conversation_id,
        title=record.title,
        created_at=record.created_at,
        last_message_at=record.last_message_at,
        events_url=conversation_events_url(resources, record.conversation_id),
    )


def message_preview(content: str, limit: int = PREVIEW_CHARS) -> str:
    """``content`` on one line, cut at a word boundary to at most ``limit`` characters with an ellipsis."""
    line = " ".join(content.split())
    if len(line) <= limit:
        return line
    cut = line[: limit - 1]
    # Back to the last space, unless that would drop most of the preview (one very long word).
    if " " in cut and cut.rindex(" ") > limit // 2:
        cut = cut[: cut.rindex(" ")]
    return cut.rstrip(" ,;:.-") + "…"


def request_id_for(principal: Principal, conversation_id: str, idempotency_key: str | None) -> str:
    """A fresh request id, or a deterministic one for a client-supplied Idempotency-Key."""
    if idempotency_key is None:
        return new_event_id()
    name = f"{principal.tenant_id}\x1f{principal.user_id}\x1f{conversation_id}\x1f{idempotency_key}"
    return str(uuid.uuid5(_IDEMPOTENCY_NAMESPACE, name))


async def owned_conversation(
    resources: Resources, principal: Principal, conversation_id: str
) -> ConversationRecord:
    """The caller's conversation, or 404 whether it is missing, someone else's, or not the one a
    widget session is bound to."""
    record = None
    if not principal.bound_elsewhere(conversation_id):
        record = await resources.conversations.get(principal.tenant_id, principal.user_id, conversation_id)
    if record is None:
        raise HTTPException(status.HTTP_404_NOT_FOUND, _NOT_FOUND)
    return record


async def reachable_conversation(
    resources: Resources, principal: Principal, conversation_id: str
) -> ConversationRecord:
    """Like ``owned_conversation``, or the conversation a widget session is bound to, stored or not yet."""
    reserved = reserved_conversation(principal, conversation_id)
    if reserved is None:
        return await owned_conversation(resources, principal, conversation_id)
    stored = await resources.conversations.get(principal.tenant_id, principal.user_id, conversation_id)
    if stored is None and await resources.conversations.exists(principal.tenant_id, conversation_id):
        raise HTTPException(status.HTTP_404_NOT_FOUND, _NOT_FOUND)  # the reserved id is someone else's
    return stored or reserved


async def post_message(
    resources: Resources,
    principal: Principal,
    conversation: ConversationRecord,
    message: MessageCreate,
    idempotency_key: str | None,
) -> MessageAccepted:
    """Store the user turn and publish ``chat.requested``; a retried key repeats neither."""
    request_id = request_id_for(principal, conversation.conversation_id, idempotency_key)
    message_id = user_message_id(request_id)
    turn = StoredMessage(
        message_id=message_id,
        role="user",
        content=message.text,
        request_id=request_id,
        metadata=MessageMentions(mentions=message.mentions),
    )
    appended = await resources.conversations.append(conversation, turn)
    if not appended:
        await _check_same_message(resources, conversation, turn)
    elif conversation.last_message_at is None and conversation.title == DEFAULT_TITLE:
        # Titled from its first message, so the list shows what each conversation is about.
        await resources.conversations.title_untitled(conversation, title_from_message(message.text))
    await register_deadline(resources, conversation, request_id)
    event = ChatRequested(
        tenant_id=principal.tenant_id,
        user_id=principal.user_id,
        request_id=request_id,
        thread_id=conversation.conversation_id,
        message_id=message_id,
        text=message.text,
        mentions=message.mentions,
    )
    # Published even on a retry: the first attempt may have stored the turn and then failed to
    # publish. Nats-Msg-Id = request id makes JetStream drop the copy when the first one got through.
    await publish_or_503(
        resources,
        event,
        msg_id=request_id,
        refusal="The message is saved but could not be queued; send it again with the same Idempotency-Key.",
    )
    events_url = conversation_events_url(resources, conversation.conversation_id)
    return MessageAccepted(
        request_id=request_id, message_id=message_id, events_url=f"{events_url}?request_id={request_id}"
    )


async def _check_same_message(
    resources: Resources, conversation: ConversationRecord, turn: StoredMessage
) -> None:
    """A reused Idempotency-Key must carry the same text, else it is a client bug worth reporting."""
    history = await resources.conversations.messages(conversation.tenant_id, conversation.conversation_id)
    for stored in history:
        if stored.message_id == turn.message_id and stored.content != turn.content:
            raise HTTPException(
                status.HTTP_409_CONFLICT, "This Idempotency-Key was already used for a different message."
            )


@router.post(
    "",
    status_code=status.HTTP_201_CREATED,
    response_model=ConversationView,
    responses={401: {"model": ErrorBody}},
)
async def create_conversation(
    principal: BearerPrincipal,
    resources: ResourcesDep,
    body: Annotated[ConversationCreate | None, Body()] = None,
) -> ConversationView:
    """Start a conversation for the caller; a widget session has its one conversation and starts none."""
    if principal.conversation_id is not None:
        raise HTTPException(
            status.HTTP_403_FORBIDDEN,
            "A chat-widget session has one conversation and cannot start another; open a new session.",
        )
    record = ConversationRecord(
        conversation_id=uuid.UUID(new_event_id()).hex,
        tenant_id=principal.tenant_id,
        user_id=principal.user_id,
    )
    if body is not None and body.title:
        record = record.model_copy(update={"title": body.title})
    await resources.conversations.create(record)
    return conversation_view(resources, record)


@router.get("", response_model=ConversationList, responses={401: {"model": ErrorBody}})
async def list_conversations(principal: BearerPrincipal, resources: ResourcesDep) -> ConversationList:
    """The caller's conversations, most recently active first (at most 100), with a preview of each."""
    records = await resources.conversations.recent(principal.tenant_id, principal.user_id)
    newest = await resources.conversations.last_messages(
        principal.tenant_id, [r.conversation_id for r in records]
    )
    return ConversationList(
        conversations=[
            ConversationSummaryView(
                **conversation_view(resources, record).model_dump(),
                last_message_preview=message_preview(last.content) if last else None,
                last_message_role=last.role if last else None,
            )
            for record, last in zip(records, newest, strict=True)
        ]
    )


@router.patch("/{conversation_id}", response_model=ConversationView, responses=_AUTH_404)
async def rename_conversation(
    conversation_id: str, body: ConversationRename, principal: BearerPrincipal, resources: ResourcesDep
) -> ConversationView:
    """Give the conversation a new title."""
    record = await owned_conversation(resources, principal, conversation_id)
    renamed = await resources.conversations.rename(record, body.title)
    if renamed is None:  # deleted between the read and the rename
        raise HTTPException(status.HTTP_404_NOT_FOUND, _NOT_FOUND)
    return conversation_view(resources, renamed)


@router.delete("/{conversation_id}", status_code=status.HTTP_204_NO_CONTENT, responses=_AUTH_404)
async def delete_conversation(
    conversation_id: str, principal: BearerPrincipal, resources: ResourcesDep
) -> Response:
    """Delete the conversation with its messages and pending question; an answer still running is dropped."""
    record = await owned_conversation(resources, principal, conversation_id)
    await resources.conversations.delete(record)
    return Response(status_code=status.HTTP_204_NO_CONTENT)


@router.get("/{conversation_id}", response_model=ConversationDetail, responses=_AUTH_404)
async def get_conversation(
    conversation_id: str, principal: BearerPrincipal, resources: ResourcesDep
) -> ConversationDetail:
    """The conversation with every message, oldest first."""
    record = await reachable_conversation(resources, principal, conversation_id)
    messages = await resources.conversations.messages(principal.tenant_id, conversation_id)
    pending = await ConversationMemory(resources.redis).pending(principal.tenant_id, conversation_id)
    return ConversationDetail(
        **conversation_view(resources, record).model_dump(),
        messages=messages,
        pending_interrupt=pending.interrupt if pending is not None else None,
    )


@router.post(
    "/{conversation_id}/messages",
    status_code=status.HTTP_202_ACCEPTED,
    response_model=MessageAccepted,
    responses={**_AUTH_404, 409: {"model": ErrorBody}, 503: {"model": ErrorBody}},
)
async def create_message(
    conversation_id: str,
    message: MessageCreate,
    principal: BearerPrincipal,
    resources: ResourcesDep,
    idempotency_key: Annotated[
        str | None,
        Header(
            min_length=1,
            max_length=200,
            description="Makes a retry return the same request id and publish nothing new.",
        ),
    ] = None,
) -> MessageAccepted:
    """Post a user message; the answer arrives as events on ``events_url``."""
    reserved = reserved_conversation(principal, conversation_id)
    if reserved is None:
        conversation = await owned_conversation(resources, principal, conversation_id)
    else:
        # A widget visitor's first message stores its conversation; later ones find it stored.
        conversation = await resources.conversations.create_once(reserved)
        if conversation.user_id != principal.user_id:  # the id was someone else's: never theirs to write
            raise HTTPException(status.HTTP_404_NOT_FOUND, _NOT_FOUND)
    # Mentioned documents are not checked here: the resolver owns that, and answers a missing or
    # foreign one with a `document_not_found` error event (the same for both, so nothing leaks).
    return await post_message(resources, principal, conversation, message, idempotency_key)


_IDEMPOTENCY_HEADER = Header(
    min_length=1,
    max_length=200,
    description="Makes a retry return the same request id and publish nothing new.",
)
_ANSWER_RESPONSES: dict[int | str, dict[str, object]] = {
    **_AUTH_404,
    409: {"model": ErrorBody},
    422: {"model": ErrorBody},
    503: {"model": ErrorBody},
}


@router.post(
    "/{conversation_id}/resume",
    status_code=status.HTTP_202_ACCEPTED,
    response_model=MessageAccepted,
    responses=_ANSWER_RESPONSES,
)
async def resume_conversation(
    conversation_id: str,
    body: ResumeCreate,
    principal: BearerPrincipal,
    resources: ResourcesDep,
    idempotency_key: Annotated[str | None, _IDEMPOTENCY_HEADER] = None,
) -> MessageAccepted:
    """Answer the pending PalAssist question; 409 when it is not (or no longer) the open one."""
    return await _answer(
        resources, principal, conversation_id, body.interrupt_id, body.resume_value, idempotency_key
    )


@router.post(
    "/{conversation_id}/cancel",
    status_code=status.HTTP_202_ACCEPTED,
    response_model=MessageAccepted,
    responses=_ANSWER_RESPONSES,
)
async def cancel_interrupt(
    conversation_id: str,
    body: CancelCreate,
    principal: BearerPrincipal,
    resources: ResourcesDep,
    idempotency_key: Annotated[str | None, _IDEMPOTENCY_HEADER] = None,
) -> MessageAccepted:
    """Cancel the pending PalAssist question: the request ends with a ``cancelled`` error event."""
    cancel = ResumeValue(type="cancel")
    return await _answer(resources, principal, conversation_id, body.interrupt_id, cancel, idempotency_key)


async def _answer(
    resources: Resources,
    principal: Principal,
    conversation_id: str,
    interrupt_id: str,
    answer: ResumeValue,
    idempotency_key: str | None,
) -> MessageAccepted:
    conversation = await owned_conversation(resources, principal, conversation_id)
    request_id = request_id_for(principal, conversation_id, idempotency_key)
    message_id = await post_answer(resources, conversation, interrupt_id, answer, request_id)
    return _accepted(resources, conversation_id, request_id, message_id)


def _accepted(
    resources: Resources, conversation_id: str, request_id: str, message_id: str
) -> MessageAccepted:
    events_url = conversation_events_url(resources, conversation_id)
    return MessageAccepted(
        request_id=request_id, message_id=message_id, events_url=f"{events_url}?request_id={request_id}"
    )
