"""Admin endpoints for the tenant's profile: widget domains, industry, location, rate limits."""

from fastapi import APIRouter

from gateway.models import ErrorBody
from gateway.resources import ResourcesDep
from policypal.auth import TenantProfile, TenantSettings, TenantStore
from policypal.auth.cors import AllowedOrigins
from policypal.auth.http import AdminPrincipal

router = APIRouter(prefix="/v1/admin/tenant", tags=["admin"])

_ERRORS: dict[int | str, dict[str, object]] = {
    401: {"model": ErrorBody},
    403: {"model": ErrorBody},
    429: {"model": ErrorBody},
}


@router.get("", response_model=TenantProfile, responses=_ERRORS)
async def get_tenant(principal: AdminPrincipal, resources: ResourcesDep) -> TenantProfile:
    """The caller's tenant profile (defaults when never set)."""
    return await TenantStore(resources.redis).get(principal.tenant_id)


@router.put("", response_model=TenantProfile, responses=_ERRORS)
async def put_tenant(
    body: TenantSettings, principal: AdminPrincipal, resources: ResourcesDep
) -> TenantProfile:
    """Replace the caller's tenant profile; its allowed domains get CORS from now on (see policypal.auth.cors)."""
    store = TenantStore(resources.redis)
    previous = await store.get(principal.tenant_id)
    profile = await store.put(principal.tenant_id, body)
    await AllowedOrigins(resources.redis).replace(
        principal.tenant_id, previous.allowed_domains, profile.allowed_domains
    )
    return profile
