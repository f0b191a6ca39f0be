"""Conversation memory against a real Valkey: a registry that only grows, summary, pending interrupt."""

import pytest
from redis.asyncio import Redis

from policypal.contracts import InterruptEvent, ResumePoint
from policypal.state import ConversationMemory, ConversationSummary, PendingInterrupt, RegistryEntry

pytestmark = pytest.mark.integration


def _entry(document_id: str, title: str) -> RegistryEntry:
    return RegistryEntry(document_id=document_id, title=title, version="2024", doc_type="regulatory")


def _interrupt(interrupt_id: str, tenant: str = "acme") -> InterruptEvent:
    return InterruptEvent(
        tenant_id=tenant,
        user_id="alice",
        request_id="r1",
        thread_id="c1",
        interrupt_id=interrupt_id,
        interrupt_type="text_input",
        message="Please tag the document.",
    )


async def test_registry_only_grows_and_orders_by_recency(redis_client: Redis) -> None:
    memory = ConversationMemory(redis_client)
    await memory.remember_documents("acme", "c1", [_entry("a", "Alpha"), _entry("b", "Beta")])
    await memory.remember_documents("acme", "c1", [_entry("b", "Beta")])
    await memory.remember_documents("acme", "c1", [])
    registry = await memory.registry("acme", "c1")
    assert [(e.document_id, e.last_used_turn) for e in registry] == [("b", 2), ("a", 1)]
    assert registry[0].display_title == "Beta (2024)"
    assert await memory.registry("globex", "c1") == []


async def test_summary_round_trip(redis_client: Redis) -> None:
    memory = ConversationMemory(redis_client)
    assert await memory.summary("acme", "c1") is None
    await memory.save_summary("acme", "c1", ConversationSummary(text="older turns", covers_messages=5))
    stored = await memory.summary("acme", "c1")
    assert stored is not None
    assert (stored.text, stored.covers_messages) == ("older turns", 5)


async def test_pending_interrupt_is_cleared_only_by_its_own_id(redis_client: Redis) -> None:
    memory = ConversationMemory(redis_client)
    point = ResumePoint(request_id="r1", message_id="user-r1", text="Audit it", step="validation")
    await memory.save_pending(PendingInterrupt(interrupt=_interrupt("i1"), resume_point=point))
    assert not await memory.clear_pending("acme", "c1", "i0")
    pending = await memory.pending("acme", "c1")
    assert pending is not None
    assert pending.resume_point == point
    assert await memory.pending("globex", "c1") is None
    assert await memory.clear_pending("acme", "c1", "i1")
    assert await memory.pending("acme", "c1") is None
