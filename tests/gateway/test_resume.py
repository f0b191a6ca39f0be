"""PalAssist answers through a real gateway: resume, cancel, stale ids, and the pending question in GET."""

import httpx
import pytest
from nats.js import JetStreamContext
from redis.asyncio import Redis

from policypal.config import Settings
from policypal.contracts import ChatResumed, InterruptEvent, InterruptOption
from policypal.contracts.streams import CHAT
from policypal.contracts.subjects import CHAT_RESUMED
from policypal.state import ConversationMemory, PendingInterrupt
from tests.support.gateway_client import bearer, new_conversation, new_id
from tests.support.jetstream import retained_events

pytestmark = pytest.mark.integration


async def open_question(
    client: httpx.AsyncClient, redis: Redis, settings: Settings
) -> tuple[dict[str, str], str, InterruptEvent]:
    tenant, user = new_id("t"), new_id("u")
    headers = bearer(settings, tenant, user)
    conversation_id = await new_conversation(client, headers)
    interrupt = InterruptEvent(
        tenant_id=tenant,
        user_id=user,
        request_id="req-asked",
        thread_id=conversation_id,
        interrupt_id="interrupt-req-asked",
        interrupt_type="doc_choice",
        message="Please confirm:",
        options=[
            InterruptOption(id="d1", label="Doc One (2024)"),
            InterruptOption(id="all", label="All of these"),
        ],
    )
    await ConversationMemory(redis).save_pending(PendingInterrupt(interrupt=interrupt, resume_point={}))
    return headers, conversation_id, interrupt


async def test_resume_publishes_the_answer_and_keeps_it_as_the_users_turn(
    client: httpx.AsyncClient, js: JetStreamContext, redis_client: Redis, settings: Settings
) -> None:
    headers, conversation_id, interrupt = await open_question(client, redis_client, settings)
    detail = await client.get(f"/v1/conversations/{conversation_id}", headers=headers)
    assert detail.json()["pending_interrupt"]["interrupt_id"] == interrupt.interrupt_id

    body = {"interrupt_id": interrupt.interrupt_id, "resume_value": {"type": "doc_choice", "value": "d1"}}
    response = await client.post(f"/v1/conversations/{conversation_id}/resume", headers=headers, json=body)
    assert response.status_code == 202, response.text
    request_id = response.json()["request_id"]
    assert request_id != interrupt.request_id

    [event] = await retained_events(js, CHAT.name, CHAT_RESUMED, ChatResumed, request_id=request_id)
    assert (event.interrupt_id, event.resumes_request_id, event.resume_value.value) == (
        interrupt.interrupt_id,
        "req-asked",
        "d1",
    )
    messages = (await client.get(f"/v1/conversations/{conversation_id}", headers=headers)).json()["messages"]
    assert (messages[-1]["role"], messages[-1]["content"]) == ("user", "Doc One (2024)")


async def test_cancel_is_a_resume_of_type_cancel(
    client: httpx.AsyncClient, js: JetStreamContext, redis_client: Redis, settings: Settings
) -> None:
    headers, conversation_id, interrupt = await open_question(client, redis_client, settings)
    response = await client.post(
        f"/v1/conversations/{conversation_id}/cancel",
        headers=headers,
        json={"interrupt_id": interrupt.interrupt_id},
    )
    assert response.status_code == 202, response.text
    [event] = await retained_events(
        js, CHAT.name, CHAT_RESUMED, ChatResumed, request_id=response.json()["request_id"]
    )
    assert (event.resume_value.type, event.resume_value.value) == ("cancel", None)


@pytest.mark.parametrize(
    ("path", "body", "code"),
    [
        ("resume", {"interrupt_id": "stale", "resume_value": {"type": "doc_choice", "value": "d1"}}, 409),
        ("cancel", {"interrupt_id": "stale"}, 409),
        (
            "resume",
            {"interrupt_id": "interrupt-req-asked", "resume_value": {"type": "doc_choice", "value": "x"}},
            422,
        ),
        (
            "resume",
            {"interrupt_id": "interrupt-req-asked", "resume_value": {"type": "text_input", "value": "x"}},
            422,
        ),
    ],
)
async def test_stale_or_unfit_answers_are_refused(
    client: httpx.AsyncClient,
    redis_client: Redis,
    settings: Settings,
    path: str,
    body: dict[str, object],
    code: int,
) -> None:
    headers, conversation_id, _ = await open_question(client, redis_client, settings)
    response = await client.post(f"/v1/conversations/{conversation_id}/{path}", headers=headers, json=body)
    assert response.status_code == code, response.text
    assert response.json()["detail"]


async def test_a_typed_answer_longer_than_an_audit_text_is_refused_before_it_reaches_the_bus(
    client: httpx.AsyncClient, redis_client: Redis, settings: Settings
) -> None:
    headers, conversation_id, _ = await open_question(client, redis_client, settings)
    body = {
        "interrupt_id": "interrupt-req-asked",
        "resume_value": {"type": "text_input", "value": "Records are kept. " * 3000},
    }
    response = await client.post(f"/v1/conversations/{conversation_id}/resume", headers=headers, json=body)
    assert response.status_code == 422
    assert "at most 50,000 are accepted" in response.text


async def test_nothing_pending_is_a_conflict(client: httpx.AsyncClient, auth: dict[str, str]) -> None:
    conversation_id = await new_conversation(client, auth)
    assert (await client.get(f"/v1/conversations/{conversation_id}", headers=auth)).json()[
        "pending_interrupt"
    ] is None
    response = await client.post(
        f"/v1/conversations/{conversation_id}/cancel", headers=auth, json={"interrupt_id": "x"}
    )
    assert response.status_code == 409
