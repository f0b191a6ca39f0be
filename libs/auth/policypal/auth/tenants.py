"""A tenant's profile: the web origins its widget may run on, its industry and location, its limits."""

from typing import Annotated
from urllib.parse import urlsplit

from pydantic import BaseModel, Field, StringConstraints
from redis.asyncio import Redis

from policypal.contracts.envelope import SafeId

#: A host name, or ``*.`` and a host name for every subdomain of it.
DomainPattern = Annotated[
    str,
    StringConstraints(
        strip_whitespace=True,
        to_lower=True,
        # Both cases spelled out, no inline (?i) flag: OpenAPI patterns are ECMA-262 regular expressions.
        pattern=r"^(\*\.)?[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*(:[0-9]{1,5})?$",
    ),
]


class TenantLimits(BaseModel):
    """Per-tenant overrides of the default rate limits (requests per window); None: the default."""

    requests_per_window: int | None = Field(default=None, ge=1, description="All callers of the tenant.")
    principal_requests_per_window: int | None = Field(
        default=None, ge=1, description="Each user, API key or widget session."
    )
    widget_sessions_per_window: int | None = Field(
        default=None,
        ge=1,
        description="Widget sessions all visitors may open (apart from the users' budget).",
    )
    widget_sessions_per_address: int | None = Field(
        default=None, ge=1, description="Widget sessions one client address may open."
    )


#: A CSS colour the widget accepts: ``#rgb`` or ``#rrggbb`` (nothing a stylesheet could be escaped with).
HexColour = Annotated[str, StringConstraints(strip_whitespace=True, pattern=r"^#(?:[0-9a-fA-F]{3}){1,2}$")]


class WidgetSettings(BaseModel):
    """How the website widget greets, when it hands over to a person, and its colours."""

    greeting: str = Field(
        default="Hello! Ask me a question and I will answer from our published documents.",
        min_length=1,
        max_length=300,
    )
    confidence_threshold: float = Field(
        default=0.4,
        ge=0.0,
        le=1.0,
        description="Answers whose retrieval similarity is below this go to a person instead.",
    )
    title: str = Field(default="Questions? Ask us", min_length=1, max_length=60)
    accent_colour: HexColour = "#1f5fbf"
    text_colour: HexColour = "#ffffff"


class TenantSettings(BaseModel):
    """What a tenant administrator sets."""

    allowed_domains: list[DomainPattern] = Field(
        default_factory=list,
        max_length=100,
        description="Hosts the chat widget may be embedded on, e.g. shop.example.com or *.example.com.",
        examples=[["shop.example.com", "*.example.org"]],
    )
    industry: str | None = Field(default=None, max_length=100, examples=["banking"])
    location: str | None = Field(default=None, max_length=100, examples=["European Union"])
    limits: TenantLimits = Field(default_factory=TenantLimits)
    widget: WidgetSettings = Field(default_factory=WidgetSettings)


class TenantProfile(TenantSettings):
    """A tenant's stored settings."""

    tenant_id: SafeId


class MalformedOrigin(ValueError):  # noqa: N818 - the name reads as the verdict
    """The ``Origin`` header is not ``scheme://host[:port]`` (e.g. a port that is not a number)."""


def parse_origin(origin: str) -> tuple[str, str, int | None]:
    """``(scheme, host, port)`` of a browser ``Origin``, lower-cased; raises ``MalformedOrigin``."""
    try:
        parts = urlsplit(origin.strip().lower())
        port = parts.port
    except ValueError as exc:  # urllib's verdict on a port out of range or not a number
        raise MalformedOrigin(f"malformed origin: {exc}") from exc
    if parts.scheme not in ("http", "https") or not parts.hostname or parts.path not in ("", "/"):
        raise MalformedOrigin("an origin is http(s)://host[:port]")
    return parts.scheme, parts.hostname, port


def origin_allowed(origin: str | None, allowed_domains: list[str]) -> bool:
    """True when the browser ``Origin`` (scheme://host[:port]) is one of the allowed domains.

    A malformed origin is allowed nowhere; callers that want to tell it apart use ``parse_origin``.
    """
    if not origin:
        return False
    try:
        _, host, port = parse_origin(origin)
    except MalformedOrigin:
        return False
    with_port = f"{host}:{port}" if port else host
    for domain in allowed_domains:
        # A domain without a port allows any port of that host; one with a port only that port.
        candidate = with_port if ":" in domain else host
        if candidate == domain or (domain.startswith("*.") and candidate.endswith(domain[1:])):
            return True
    return False


def _tenant_key(tenant_id: str) -> str:
    return f"pp:{tenant_id}:tenant"


class TenantStore:
    """Tenant profiles in Redis, one JSON record per tenant."""

    def __init__(self, redis: Redis) -> None:
        self._redis = redis

    async def get(self, tenant_id: str) -> TenantProfile:
        """The tenant's profile; a tenant never configured has the defaults (no widget domains)."""
        raw = await self._redis.get(_tenant_key(tenant_id))
        if raw is None:
            return TenantProfile(tenant_id=tenant_id)
        return TenantProfile.model_validate_json(raw)

    async def put(self, tenant_id: str, settings: TenantSettings) -> TenantProfile:
        """Replace the tenant's settings."""
        profile = TenantProfile(tenant_id=tenant_id, **settings.model_dump())
        await self._redis.set(_tenant_key(tenant_id), profile.model_dump_json())
        return profile
