"""What an action's worker is handed of a user's saved company profile."""

from policypal.contracts import CompanyContext
from policypal.contracts.company import MAX_PROFILE_DESCRIPTION, MAX_PROFILE_LINE
from policypal.state import CompanyProfile, company_context


def test_no_profile_or_an_empty_one_gives_no_company() -> None:
    assert company_context(None) is None
    assert company_context(CompanyProfile(company_name="  ", description="")) is None


def test_filled_fields_travel_trimmed() -> None:
    profile = CompanyProfile(company_name=" Acme Bank ", industry="Banking", description="Retail.\n")
    assert company_context(profile) == CompanyContext(
        company_name="Acme Bank", industry="Banking", description="Retail."
    )


def test_a_profile_stored_past_the_limits_is_cut_to_them_not_refused() -> None:
    profile = CompanyProfile(company_name="A" * 500, description="d" * 5000)
    context = company_context(profile)
    assert context is not None
    assert context.company_name == "A" * MAX_PROFILE_LINE
    assert context.description == "d" * MAX_PROFILE_DESCRIPTION
