"""The company profile each user gives at onboarding: who they work for, where, and in what line of business."""

from datetime import datetime

from pydantic import BaseModel, Field
from redis.asyncio import Redis

from policypal.contracts import CompanyContext
from policypal.contracts.company import MAX_PROFILE_DESCRIPTION, MAX_PROFILE_LINE
from policypal.contracts.envelope import utc_now
from policypal.state import keys


class CompanyProfile(BaseModel):
    """What a user says about their company; every field may stay empty until they fill it in."""

    company_name: str | None = None
    country: str | None = None
    industry: str | None = None
    description: str | None = None
    updated_at: datetime = Field(default_factory=utc_now)


class ProfileStore:
    """One profile per user of a tenant, replaced whole on each save."""

    def __init__(self, redis: Redis) -> None:
        self._redis = redis

    async def get(self, tenant_id: str, user_id: str) -> CompanyProfile | None:
        """The user's profile, or None when they never saved one."""
        raw = await self._redis.get(keys.user_profile(tenant_id, user_id))
        return None if raw is None else CompanyProfile.model_validate_json(raw)

    async def put(self, tenant_id: str, user_id: str, profile: CompanyProfile) -> CompanyProfile:
        """Store ``profile`` as the user's, stamped with the time of this save."""
        saved = profile.model_copy(update={"updated_at": utc_now()})
        await self._redis.set(keys.user_profile(tenant_id, user_id), saved.model_dump_json())
        return saved


def company_context(profile: CompanyProfile | None) -> CompanyContext | None:
    """What travels to an action's worker of the user's saved ``profile``; None when nothing was filled in.

    Fields are cut to the contract's limits: a profile stored by another path than the gateway must
    not make the hand-off invalid.
    """
    if profile is None:
        return None
    line = MAX_PROFILE_LINE
    context = CompanyContext(
        company_name=_clipped(profile.company_name, line),
        country=_clipped(profile.country, line),
        industry=_clipped(profile.industry, line),
        description=_clipped(profile.description, MAX_PROFILE_DESCRIPTION),
    )
    return context if context != CompanyContext() else None


def _clipped(text: str | None, limit: int) -> str | None:
    cleaned = (text or "").strip()
    return cleaned[:limit] or None
