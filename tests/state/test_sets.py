"""Document sets against a real Valkey: one per name whatever its case, per tenant."""

import pytest
from redis.asyncio import Redis

from policypal.state import DocumentSet, SetStore, set_key

pytestmark = pytest.mark.integration


def test_set_key_folds_case_and_spacing() -> None:
    assert set_key("  HR   Policies ") == set_key("hr policies") == "hr policies"
    assert set_key("Straße") == set_key("STRASSE")


async def test_a_name_is_stored_once_per_tenant(redis_client: Redis) -> None:
    store = SetStore(redis_client)
    first = DocumentSet(tenant_id="acme", name="HR Policies", colour="teal", created_by="alice")
    assert await store.add(first) is first
    again = await store.add(DocumentSet(tenant_id="acme", name="hr policies", colour="red", created_by="bob"))
    assert (again.name, again.colour, again.created_by) == ("HR Policies", "teal", "alice")
    other = DocumentSet(tenant_id="globex", name="hr policies", colour="red", created_by="carol")
    assert await store.add(other) is other

    assert [(s.name, s.colour) for s in await store.list("acme")] == [("HR Policies", "teal")]
    assert [(s.name, s.colour) for s in await store.list("globex")] == [("hr policies", "red")]
    found = await store.get("acme", "HR POLICIES")
    assert found is not None
    assert found.name == "HR Policies"
    assert await store.get("initech", "HR Policies") is None


async def test_sets_are_listed_by_name(redis_client: Redis) -> None:
    store = SetStore(redis_client)
    for name in ("privacy", "Banking", "AML"):
        await store.add(DocumentSet(tenant_id="acme", name=name, colour="blue", created_by="alice"))
    assert [s.name for s in await store.list("acme")] == ["AML", "Banking", "privacy"]
