"""A resolver on the test nats-server and Valkey, and a user who talks to it the way the gateway does."""

import asyncio
import contextlib
import uuid
from dataclasses import dataclass
from typing import Any

from faststream.nats import NatsBroker
from nats.js import JetStreamContext
from nats.js.errors import NotFoundError
from redis.asyncio import Redis

from policypal.bus import publish_event
from policypal.contracts import ActionName, ChatMentions, ChatRequested, ChatResumed, ResumeValue
from policypal.state import (
    ConversationRecord,
    ConversationStore,
    DocumentCatalog,
    DocumentRecord,
    StoredMessage,
    user_message_id,
)
from tests.support.jetstream import payload, reset_bus, stream_messages

USER = "alice"


async def reset_resolver_bus(js: JetStreamContext, *, durable: str, resume_durable: str) -> None:
    """Fresh resolver consumers and empty chat and action subjects."""
    await reset_bus(
        js, durables={"CHAT": durable}, purge={"CHAT": "chat.>", "ACTIONS": "actions.*.requested"}
    )
    with contextlib.suppress(NotFoundError):
        await js.delete_consumer("CHAT", resume_durable)


@dataclass
class Talk:
    """One user's conversation, driven over the bus: messages, answers, and what comes back."""

    broker: NatsBroker
    js: JetStreamContext
    redis: Redis
    tenant: str
    conversation_id: str = "conv1"

    @classmethod
    async def open(cls, broker: NatsBroker, js: JetStreamContext, redis: Redis) -> "Talk":
        """A new tenant with one conversation."""
        talk = cls(broker, js, redis, f"t{uuid.uuid4().hex[:10]}")
        record = ConversationRecord(conversation_id=talk.conversation_id, tenant_id=talk.tenant, user_id=USER)
        await ConversationStore(redis).create(record)
        return talk

    async def add_document(self, document_id: str, title: str, doc_type: str, version: str = "2024") -> None:
        """A ready document in the user's catalog."""
        await DocumentCatalog(self.redis).create(
            DocumentRecord(
                document_id=document_id,
                tenant_id=self.tenant,
                user_id=USER,
                title=title,
                version=version,
                doc_type=doc_type,  # type: ignore[arg-type]
                filename="f.pdf",
                content_type="application/pdf",
                size_bytes=1,
                sha256=f"{self.tenant}{document_id}",
                status="ready",
                request_id="upload",
            )
        )

    async def conversation(self) -> ConversationRecord:
        """The conversation record as stored now."""
        record = await ConversationStore(self.redis).get(self.tenant, USER, self.conversation_id)
        assert record is not None
        return record

    async def store_turn(self, role: str, content: str, request_id: str, **metadata: Any) -> None:
        """Append a turn as the gateway (user) or a worker (assistant) would."""
        message_id = user_message_id(request_id) if role == "user" else f"assistant-{request_id}"
        message = StoredMessage(
            message_id=message_id,
            role=role,  # type: ignore[arg-type]
            content=content,
            request_id=request_id,
            metadata=metadata,
        )
        await ConversationStore(self.redis).append(await self.conversation(), message)

    async def say(self, text: str, action: ActionName | None = None, documents: tuple[str, ...] = ()) -> str:
        """Post a message (stored, then ``chat.requested``); returns its request id."""
        request_id = f"req-{uuid.uuid4().hex[:10]}"
        mentions = ChatMentions(action=action, documents=list(documents))
        await self.store_turn("user", text, request_id, mentions=mentions.model_dump(mode="json"))
        event = ChatRequested(
            tenant_id=self.tenant,
            user_id=USER,
            request_id=request_id,
            thread_id=self.conversation_id,
            message_id=user_message_id(request_id),
            text=text,
            mentions=mentions,
        )
        await publish_event(self.broker, event, msg_id=request_id)
        return request_id

    async def answer(self, interrupt: dict[str, Any], kind: str, value: str | None) -> str:
        """Answer (or cancel) an interrupt as the gateway's resume endpoint does; returns the new request id."""
        request_id = f"req-{uuid.uuid4().hex[:10]}"
        await self.store_turn("user", value or "Cancel", request_id)
        event = ChatResumed(
            tenant_id=self.tenant,
            user_id=USER,
            request_id=request_id,
            thread_id=self.conversation_id,
            interrupt_id=interrupt["interrupt_id"],
            resumes_request_id=interrupt["request_id"],
            resume_value=ResumeValue(type=kind, value=value),  # type: ignore[arg-type]
        )
        await publish_event(self.broker, event, msg_id=request_id)
        return request_id

    async def outcome(self, request_id: str, *, within: float = 20.0) -> dict[str, Any]:
        """The action request or terminal event (interrupt, error) that ends ``request_id`` at the resolver."""
        deadline = asyncio.get_running_loop().time() + within
        while True:
            for msg in await stream_messages(self.js, "ACTIONS", "actions.*.requested"):
                body = payload(msg)
                if body["request_id"] == request_id:
                    return body
            for msg in await stream_messages(
                self.js, "EVENTS", f"events.{self.tenant}.{self.conversation_id}.>"
            ):
                body = payload(msg)
                if body["request_id"] == request_id and body["type"] in {"interrupt", "error"}:
                    return body
            if asyncio.get_running_loop().time() > deadline:
                raise AssertionError(f"no outcome for {request_id} after {within} s")
            await asyncio.sleep(0.05)

    async def statuses(self, request_id: str) -> list[str]:
        """The status lines of a request, as "stage: message"."""
        found = await stream_messages(
            self.js, "EVENTS", f"events.{self.tenant}.{self.conversation_id}.status"
        )
        return [f"{b['stage']}: {b['message']}" for b in map(payload, found) if b["request_id"] == request_id]
