"""Event tickets in a real Valkey: one thread, one use, a short life, nothing usable at rest."""

import asyncio
import hashlib

from redis.asyncio import Redis

from policypal.auth import EventTicketStore, Principal


async def test_a_ticket_is_redeemed_once_even_by_racing_connections(redis_client: Redis) -> None:
    store = EventTicketStore(redis_client, ttl_seconds=60)
    alice = Principal(tenant_id="acme", user_id="alice")
    issued = await store.issue(alice, "conversation", "c1")
    grants = await asyncio.gather(*(store.redeem(issued.ticket) for _ in range(20)))
    granted = [grant for grant in grants if grant is not None]
    assert len(granted) == 1
    assert granted[0].principal == alice
    assert granted[0].opens("conversation", "c1")
    assert not granted[0].opens("conversation", "c2")
    assert not granted[0].opens("document", "c1")


async def test_only_a_hash_is_stored_and_it_expires(redis_client: Redis) -> None:
    store = EventTicketStore(redis_client, ttl_seconds=60)
    issued = await store.issue(Principal(tenant_id="acme", user_id="alice"), "document", "d1")
    secret = issued.ticket.split(".", 2)[2]
    keys = [key async for key in redis_client.scan_iter("pp:acme:event_ticket:*")]
    assert keys == [f"pp:acme:event_ticket:{hashlib.sha256(secret.encode()).hexdigest()}"]
    assert secret not in str(await redis_client.get(keys[0]))
    assert 0 < await redis_client.ttl(keys[0]) <= 60


async def test_malformed_or_retargeted_tickets_grant_nothing(redis_client: Redis) -> None:
    store = EventTicketStore(redis_client, ttl_seconds=60)
    issued = await store.issue(Principal(tenant_id="acme", user_id="alice"), "conversation", "c1")
    secret = issued.ticket.split(".", 2)[2]
    for forged in (
        f"ppt.globex.{secret}",  # another tenant's key space
        f"ppt.acme:x.{secret}",
        f"pp_.acme.{secret}",
        "ppt.acme.",
        "ppt..x",
        "garbage",
        f"ppt.acme.{secret}{'x' * 200}",
    ):
        assert await store.redeem(forged) is None, forged
    assert await store.redeem(issued.ticket) is not None
