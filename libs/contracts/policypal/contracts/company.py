"""The user's company, as they described it in their profile, carried to the actions as context."""

from typing import Final

from pydantic import BaseModel, ConfigDict, Field

#: The longest one-line profile field (company name, country, industry), as the gateway accepts it.
MAX_PROFILE_LINE: Final = 200
#: The longest profile description, as the gateway accepts it.
MAX_PROFILE_DESCRIPTION: Final = 2000


class CompanyContext(BaseModel):
    """Who the user works for: what they said at onboarding (docs/product.md, Company profile)."""

    model_config = ConfigDict(extra="ignore", frozen=True)

    company_name: str | None = Field(default=None, max_length=MAX_PROFILE_LINE)
    country: str | None = Field(default=None, max_length=MAX_PROFILE_LINE)
    industry: str | None = Field(default=None, max_length=MAX_PROFILE_LINE)
    description: str | None = Field(default=None, max_length=MAX_PROFILE_DESCRIPTION)
