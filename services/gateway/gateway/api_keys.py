"""Admin endpoints that create, list and revoke the tenant's API keys."""

from datetime import datetime
from typing import Annotated

from fastapi import APIRouter, HTTPException, Path, Response, status
from pydantic import BaseModel, Field, StringConstraints

from gateway.models import ErrorBody
from gateway.resources import ResourcesDep
from policypal.auth import ApiKeyRecord, ApiKeyStore, Scope
from policypal.auth.http import AdminPrincipal

router = APIRouter(prefix="/v1/admin/api-keys", tags=["admin"])

KeyId = Annotated[str, Path(pattern=r"^[A-Za-z0-9_-]{1,64}$")]
_ERRORS: dict[int | str, dict[str, object]] = {
    401: {"model": ErrorBody},
    403: {"model": ErrorBody},
    429: {"model": ErrorBody},
}


class ApiKeyCreate(BaseModel):
    """A key to make for another system."""

    name: Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=100)] = Field(
        examples=["billing-audit-bot"]
    )
    scopes: list[Scope] = Field(min_length=1, examples=[["audit"]])


class ApiKeyView(BaseModel):
    """A key as listed: never the key itself."""

    key_id: str
    name: str
    scopes: list[Scope]
    created_by: str
    created_at: datetime
    revoked_at: datetime | None


class ApiKeyCreated(ApiKeyView):
    """A new key; ``api_key`` is shown this once only."""

    api_key: str = Field(description="Send as 'Authorization: Bearer <key>' or 'X-API-Key: <key>'.")


class ApiKeyList(BaseModel):
    """The tenant's keys, oldest first."""

    api_keys: list[ApiKeyView]


def _view(record: ApiKeyRecord) -> ApiKeyView:
    return ApiKeyView.model_validate(record.model_dump())


@router.post("", status_code=status.HTTP_201_CREATED, response_model=ApiKeyCreated, responses=_ERRORS)
async def create_api_key(
    body: ApiKeyCreate, principal: AdminPrincipal, resources: ResourcesDep
) -> ApiKeyCreated:
    """Create an API key of the caller's tenant with the given scopes."""
    record, api_key = await ApiKeyStore(resources.redis).create(
        principal.tenant_id, body.name, body.scopes, created_by=principal.user_id
    )
    return ApiKeyCreated(**_view(record).model_dump(), api_key=api_key)


@router.get("", response_model=ApiKeyList, responses=_ERRORS)
async def list_api_keys(principal: AdminPrincipal, resources: ResourcesDep) -> ApiKeyList:
    """Every API key of the caller's tenant, revoked ones included."""
    records = await ApiKeyStore(resources.redis).list(principal.tenant_id)
    return ApiKeyList(api_keys=[_view(record) for record in records])


@router.delete(
    "/{key_id}",
    status_code=status.HTTP_204_NO_CONTENT,
    responses={**_ERRORS, 404: {"model": ErrorBody}},
)
async def revoke_api_key(key_id: KeyId, principal: AdminPrincipal, resources: ResourcesDep) -> Response:
    """Revoke a key: it stops working at once; its record stays for audit."""
    if await ApiKeyStore(resources.redis).revoke(principal.tenant_id, key_id) is None:
        raise HTTPException(status.HTTP_404_NOT_FOUND, "No such API key.")
    return Response(status_code=status.HTTP_204_NO_CONTENT)
