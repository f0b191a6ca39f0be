"""Fair turns: round-robin over tenants, then documents; a cancelled waiter never loses a turn."""

import asyncio

import pytest

from ingestor import rejections
from ingestor.rejections import DocumentRejected
from ingestor.work_turns import DocumentSteps, FairTurns


async def test_turns_alternate_between_tenants_then_documents() -> None:
    turns = FairTurns(slots=1)
    order: list[str] = []
    release = asyncio.Event()

    async def step(tenant: str, document: str) -> None:
        async with turns.turn(tenant, document):
            order.append(f"{tenant}/{document}")
            await release.wait()

    holder = asyncio.create_task(step("a", "big"))
    await asyncio.sleep(0)
    # Tenant a queues three steps of its big document and one of another; tenant b one step.
    waiters = [asyncio.create_task(step("a", "big")) for _ in range(3)]
    waiters.append(asyncio.create_task(step("a", "other")))
    waiters.append(asyncio.create_task(step("b", "small")))
    await asyncio.sleep(0)
    assert turns.waiting == 5
    release.set()
    await asyncio.gather(holder, *waiters)
    assert order == ["a/big", "a/big", "b/small", "a/other", "a/big", "a/big"]


async def test_a_cancelled_waiter_passes_its_turn_on() -> None:
    turns = FairTurns(slots=1)
    gate = asyncio.Event()
    done: list[str] = []

    async def step(name: str) -> None:
        async with turns.turn("t", name):
            await gate.wait()
            done.append(name)

    first = asyncio.create_task(step("first"))
    await asyncio.sleep(0)
    cancelled = asyncio.create_task(step("cancelled"))
    last = asyncio.create_task(step("last"))
    await asyncio.sleep(0)
    cancelled.cancel()
    gate.set()
    await asyncio.gather(first, last)
    assert done == ["first", "last"]
    assert turns.waiting == 0


async def test_a_deleted_document_stops_at_its_next_step() -> None:
    wanted = [True]

    async def still_wanted() -> bool:
        return wanted[0]

    steps = DocumentSteps(
        FairTurns(), tenant_id="t", document_id="d", still_wanted=still_wanted, check_every=0
    )
    async with steps.step():
        pass
    wanted[0] = False
    with pytest.raises(DocumentRejected) as rejected:
        async with steps.step():
            pass
    assert rejected.value.reason_code == rejections.DELETED
