"""The allowed-origin index behind CORS (policypal.auth.cors): its lookup and its updates, on real Valkey."""

import pytest
from redis.asyncio import Redis

from policypal.auth import MalformedOrigin, origin_allowed, parse_origin
from policypal.auth.cors import AllowedOrigins, deployment_origins, origin_patterns


@pytest.mark.parametrize(
    "origin",
    [
        "https://shop.example.com",
        "https://SHOP.example.com:443",
        "http://a.shop.example.com",
        "https://x.y.example.org:8443",
        "https://example.org",
        "http://localhost:3000",
        "https://shop.example.com.evil.net",
        "ftp://shop.example.com",
    ],
)
@pytest.mark.parametrize(
    "pattern",
    [
        "shop.example.com",
        "*.shop.example.com",
        "*.example.org",
        "example.org:8443",
        "*.example.org:8443",
        "localhost",
        "*.com",
    ],
)
def test_the_index_lookup_agrees_with_origin_allowed(origin: str, pattern: str) -> None:
    assert (pattern in origin_patterns(origin)) == origin_allowed(origin, [pattern])


@pytest.mark.integration
async def test_the_index_follows_each_tenants_domains(redis_client: Redis) -> None:
    origins = AllowedOrigins(redis_client)
    await origins.replace("acme", [], ["shop.example.com", "*.brand.example.org"])
    await origins.replace("globex", [], ["shop.example.com"])
    assert await origins.allows("https://shop.example.com:8443")
    assert await origins.allows("https://eu.brand.example.org")
    assert not await origins.allows("https://brand.example.org")
    assert not await origins.allows("not an origin")

    await origins.replace("acme", ["shop.example.com", "*.brand.example.org"], ["new.example.com"])
    assert await origins.allows("https://shop.example.com")  # still globex's
    assert not await origins.allows("https://eu.brand.example.org")
    assert await origins.allows("https://new.example.com")
    await origins.replace("globex", ["shop.example.com"], [])
    assert not await origins.allows("https://shop.example.com")


@pytest.mark.parametrize(
    ("base_url", "origins"),
    [
        ("http://127.0.0.1:8000", {"http://127.0.0.1:8000", "http://localhost:8000"}),
        ("http://LOCALHOST:8000/", {"http://127.0.0.1:8000", "http://localhost:8000"}),
        ("https://policypal.example.com", {"https://policypal.example.com"}),
        ("https://policypal.example.com:8443/api", {"https://policypal.example.com:8443"}),
    ],
)
def test_a_deployment_origin_is_its_base_urls_origin_with_the_loopback_twin(
    base_url: str, origins: set[str]
) -> None:
    assert deployment_origins(base_url) == origins


@pytest.mark.parametrize(
    "origin",
    ["https://x.example.org:abc", "https://shop.example.com:99999", "ftp://shop.example.com", "null"],
)
def test_a_malformed_origin_is_named_and_allowed_nowhere(origin: str) -> None:
    with pytest.raises(MalformedOrigin):
        parse_origin(origin)
    assert not origin_allowed(origin, ["shop.example.com", "*.example.org"])
    assert origin_patterns(origin) == []
