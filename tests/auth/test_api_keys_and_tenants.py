"""API keys (hashed, scoped, revocable, tenant-prefixed) and the widget's allowed-origin check."""

import pytest
from redis.asyncio import Redis

from policypal.auth import ApiKeyStore, InvalidToken, TenantSettings, TenantStore, origin_allowed
from policypal.auth.api_keys import parse_api_key


@pytest.mark.parametrize(
    ("origin", "allowed"),
    [
        ("https://shop.example.com", True),
        ("https://shop.example.com:8443", True),
        ("http://localhost:3000", True),
        ("http://localhost:3001", False),
        ("https://a.b.example.org", True),
        ("https://example.org", False),
        ("https://evil-shop.example.com", False),
        ("https://shop.example.com.evil.net", False),
        ("null", False),
        ("", False),
        (None, False),
        ("https://shop.example.com/path", False),
        ("ftp://shop.example.com", False),
    ],
)
def test_origin_must_be_an_allowed_domain(origin: str | None, allowed: bool) -> None:
    domains = TenantSettings(allowed_domains=["Shop.Example.com", "*.example.org", "localhost:3000"])
    assert origin_allowed(origin, domains.allowed_domains) is allowed


def test_domain_patterns_are_validated() -> None:
    with pytest.raises(ValueError, match=r"should match pattern"):
        TenantSettings(allowed_domains=["https://shop.example.com"])


@pytest.mark.parametrize("key", ["pp_", "pp_acme.k1", "pp_acme.k1.s.x", "pp_a:b.k1.s", "eyJhbGciOi"])
def test_malformed_api_keys_are_refused(key: str) -> None:
    with pytest.raises(InvalidToken, match="malformed"):
        parse_api_key(key)


@pytest.mark.integration
async def test_api_key_lifecycle(redis_client: Redis) -> None:
    store = ApiKeyStore(redis_client)
    record, api_key = await store.create("acme", "bot", ["audit", "ingest"], created_by="admin1")
    assert api_key.startswith(f"pp_acme.{record.key_id}.")
    assert len(api_key) > 50
    # Only the hash is stored, under the tenant's prefix.
    stored = await redis_client.get(f"pp:acme:apikey:{record.key_id}")
    assert stored is not None
    assert api_key not in stored
    assert record.sha256 in stored
    assert all(key.startswith("pp:acme:") for key in await redis_client.keys("*"))

    principal = await store.verify(api_key)
    assert principal.role == "service"
    assert principal.scopes == frozenset({"audit", "ingest"})
    assert (principal.tenant_id, principal.key_id) == ("acme", record.key_id)

    with pytest.raises(InvalidToken, match="unknown"):
        await store.verify(api_key[:-2] + ("AA" if not api_key.endswith("AA") else "BB"))
    with pytest.raises(InvalidToken, match="unknown"):  # the same key presented for another tenant
        await store.verify(api_key.replace("pp_acme.", "pp_other.", 1))

    assert await store.revoke("other", record.key_id) is None
    revoked = await store.revoke("acme", record.key_id)
    assert revoked is not None
    assert revoked.revoked_at is not None
    with pytest.raises(InvalidToken, match="revoked"):
        await store.verify(api_key)
    assert [key.key_id for key in await store.list("acme")] == [record.key_id]
    assert await store.list("other") == []


@pytest.mark.integration
async def test_tenant_profile_defaults_then_stored(redis_client: Redis) -> None:
    store = TenantStore(redis_client)
    assert (await store.get("acme")).allowed_domains == []
    await store.put("acme", TenantSettings(allowed_domains=["a.example.com"], industry="banking"))
    profile = await store.get("acme")
    assert (profile.allowed_domains, profile.industry) == (["a.example.com"], "banking")
    assert (await store.get("other")).industry is None
