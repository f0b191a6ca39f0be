"""Redis records written before message metadata and the resume point were contracts still load.

The samples are shaped exactly as the earlier code wrote them (plain dicts, no ``kind``): each loads
as the typed model of its kind, keeps every value, and is written back with the same fields.
"""

import json
from pathlib import Path

import pytest
from redis.asyncio import Redis

from policypal.contracts import (
    AnswerDetails,
    ApiRequestOrigin,
    ErrorCode,
    ErrorNotice,
    EscalationNotice,
    InterruptAnswer,
    MessageMentions,
    PalAssistPrompt,
    ResumePoint,
    ReviewerAnswer,
)
from policypal.state import ConversationMemory, ConversationRecord, ConversationStore, keys

pytestmark = pytest.mark.integration

SAMPLES = Path(__file__).parent / "samples"
OLD_MESSAGES = (SAMPLES / "messages_before_kinds.jsonl").read_text().splitlines()
OLD_PENDING = json.loads((SAMPLES / "pending_before_resume_point.json").read_text())


async def _stored_history(redis: Redis) -> ConversationStore:
    store = ConversationStore(redis)
    await store.create(ConversationRecord(conversation_id="c1", tenant_id="acme", user_id="alice"))
    await redis.rpush(keys.conversation_messages("acme", "c1"), *OLD_MESSAGES)
    return store


async def test_old_message_metadata_loads_as_the_model_of_its_kind(redis_client: Redis) -> None:
    store = await _stored_history(redis_client)
    history = await store.messages("acme", "c1")
    assert [type(m.metadata) for m in history] == [
        MessageMentions,
        AnswerDetails,
        ApiRequestOrigin,
        ErrorNotice,
        PalAssistPrompt,
        InterruptAnswer,
        ErrorNotice,
        EscalationNotice,
        ReviewerAnswer,
        type(None),
    ]
    mentions, answer, _, failed, question, reply, cancelled, _, _, _ = (m.metadata for m in history)
    assert isinstance(mentions, MessageMentions)
    assert mentions.mentions.documents == ["gdpr2016"]
    assert isinstance(answer, AnswerDetails)
    assert answer.citations[0].chunk_id == "gdpr2016:41"
    assert isinstance(failed, ErrorNotice)
    assert failed.error_code is ErrorCode.ACTION_FAILED
    assert isinstance(cancelled, ErrorNotice)
    assert cancelled.error_code == "cancelled"
    assert isinstance(question, PalAssistPrompt)
    assert question.interrupt.options is not None
    assert isinstance(reply, InterruptAnswer)
    assert reply.resume.resume_value.value == "gdpr2016"


@pytest.mark.parametrize("index", range(len(OLD_MESSAGES)))
async def test_old_message_is_written_back_with_every_field_it_had(redis_client: Redis, index: int) -> None:
    store = await _stored_history(redis_client)
    message = (await store.messages("acme", "c1"))[index]
    old = json.loads(OLD_MESSAGES[index])
    again = json.loads(message.model_dump_json())
    old_meta, new_meta = old.pop("metadata"), again.pop("metadata")
    assert again == old | {"created_at": again["created_at"]}
    if not old_meta:
        # Nothing to say: None in the model, {} on the wire as before.
        assert (message.metadata, new_meta) == (None, {})
    else:
        # The same values, plus the kind that names them now.
        assert new_meta == old_meta | {"kind": new_meta["kind"]}


async def test_old_pending_interrupts_load_with_a_typed_resume_point(redis_client: Redis) -> None:
    memory = ConversationMemory(redis_client)
    loaded = {}
    for name, record in OLD_PENDING.items():
        await redis_client.set(keys.conversation_pending_interrupt("acme", "c1"), json.dumps(record))
        loaded[name] = await memory.pending("acme", "c1")
    resolver, worker, nothing = (
        loaded["resolver_turn"],
        loaded["worker_low_confidence"],
        loaded["nothing_to_resume"],
    )
    assert resolver is not None
    assert isinstance(resolver.resume_point, ResumePoint)
    assert resolver.resume_point.model_dump(mode="json") == OLD_PENDING["resolver_turn"]["resume_point"]
    assert worker is not None
    assert worker.resume_point is not None
    saved_request = worker.resume_point.action_request
    assert saved_request is not None
    assert saved_request.request_id == "r7"
    assert (worker.resume_point.step, worker.resume_point.action) == ("validation", "inquire")
    assert nothing is not None
    assert nothing.resume_point is None
