"""The caller's company profile (onboarding): company name, country, industry and a short description.

Each user keeps their own, asked for when they first sign in to the console and editable later. It
travels with each of the user's action requests (``ActionRequested.company``: the resolver and the
audit API fill it) and frames the drafting prompts; the tenant's industry and location that travel
with every action request stay the administrator's (``PUT /v1/admin/tenant``, docs/product.md, User
context).
"""

from datetime import datetime
from typing import Annotated

from fastapi import APIRouter
from pydantic import AfterValidator, BaseModel, ConfigDict, Field, StringConstraints

from gateway.display_text import clean_display_text
from gateway.models import ErrorBody
from gateway.resources import ResourcesDep
from policypal.auth.http import BearerPrincipal
from policypal.state import CompanyProfile, ProfileStore

router = APIRouter(prefix="/v1/profile", tags=["profile"])

_ERRORS: dict[int | str, dict[str, object]] = {
    401: {"model": ErrorBody, "description": "Missing, invalid or expired credential."},
    403: {
        "model": ErrorBody,
        "description": "The credential lacks the 'ingest' scope: widget visitors have no profile.",
    },
    429: {"model": ErrorBody, "description": "Too many requests; see Retry-After."},
}


def clean_paragraphs(text: str) -> str:
    """``text`` cleaned line by line as titles are, its line breaks kept."""
    return "\n".join(clean_display_text(line) for line in text.splitlines()).strip()


#: A one-line field: no control characters; invisible and disguising characters removed; may be empty.
ProfileLine = Annotated[
    str,
    StringConstraints(strip_whitespace=True, max_length=200, pattern=r"^[^\x00-\x1f\x7f]*$"),
    AfterValidator(clean_display_text),
]
Description = Annotated[
    str, StringConstraints(strip_whitespace=True, max_length=2000), AfterValidator(clean_paragraphs)
]


class ProfileUpdate(BaseModel):
    """The whole profile as the user fills it in; an empty field is stored as not given."""

    model_config = ConfigDict(extra="forbid")

    company_name: ProfileLine = Field(default="", examples=["Acme Bank Berhad"])
    country: ProfileLine = Field(default="", examples=["Malaysia"])
    industry: ProfileLine = Field(default="", examples=["Banking"])
    description: Description = Field(
        default="", examples=["A retail bank with 40 branches; we keep our AML and privacy policies here."]
    )


class ProfileView(BaseModel):
    """The caller's profile; ``completed`` is false until they saved one with a company name."""

    company_name: str | None
    country: str | None
    industry: str | None
    description: str | None
    completed: bool
    updated_at: datetime | None


def profile_view(profile: CompanyProfile | None) -> ProfileView:
    """What the API shows of ``profile`` (None: never saved)."""
    if profile is None:
        return ProfileView(
            company_name=None, country=None, industry=None, description=None, completed=False, updated_at=None
        )
    return ProfileView(
        company_name=profile.company_name,
        country=profile.country,
        industry=profile.industry,
        description=profile.description,
        completed=bool(profile.company_name),
        updated_at=profile.updated_at,
    )


def stored_profile(update: ProfileUpdate) -> CompanyProfile:
    """The record of ``update``: empty fields become None."""
    return CompanyProfile(
        company_name=update.company_name or None,
        country=update.country or None,
        industry=update.industry or None,
        description=update.description or None,
    )


@router.get("", response_model=ProfileView, responses=_ERRORS)
async def get_profile(principal: BearerPrincipal, resources: ResourcesDep) -> ProfileView:
    """The caller's company profile; ``completed: false`` (and empty fields) before onboarding."""
    return profile_view(await ProfileStore(resources.redis).get(principal.tenant_id, principal.user_id))


@router.put("", response_model=ProfileView, responses={**_ERRORS, 422: {"model": ErrorBody}})
async def put_profile(
    body: ProfileUpdate, principal: BearerPrincipal, resources: ResourcesDep
) -> ProfileView:
    """Replace the caller's company profile."""
    saved = await ProfileStore(resources.redis).put(
        principal.tenant_id, principal.user_id, stored_profile(body)
    )
    return profile_view(saved)
