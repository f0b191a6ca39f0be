"""The company profile carried by ActionRequested: optional, so older producers' requests still parse."""

import json
from pathlib import Path

import pytest
from pydantic import ValidationError

from policypal.contracts import ActionRequested, CompanyContext, parse_event
from policypal.contracts.company import MAX_PROFILE_DESCRIPTION

SAMPLES = Path(__file__).parent / "samples" / "v1"


def test_a_request_with_a_company_parses_and_round_trips() -> None:
    event = parse_event((SAMPLES / "context" / "company.json").read_text())
    assert isinstance(event, ActionRequested)
    assert event.company == CompanyContext(
        company_name="Acme Bank Berhad",
        country="Malaysia",
        industry="Banking",
        description="A retail bank with 40 branches.",
    )
    assert parse_event(event.model_dump_json()) == event


def test_the_first_v1_sample_has_no_company() -> None:
    event = parse_event((SAMPLES / "action.requested.json").read_text())
    assert isinstance(event, ActionRequested)
    assert event.company is None


def test_a_company_with_some_fields_only_parses() -> None:
    raw = json.loads((SAMPLES / "context" / "company.json").read_text())
    event = ActionRequested.model_validate(raw | {"company": {"country": "Malaysia", "founded": 1990}})
    assert event.company == CompanyContext(country="Malaysia")


def test_a_description_longer_than_the_profile_accepts_is_refused() -> None:
    raw = json.loads((SAMPLES / "context" / "company.json").read_text())
    with pytest.raises(ValidationError):
        ActionRequested.model_validate(
            raw | {"company": {"description": "x" * (MAX_PROFILE_DESCRIPTION + 1)}}
        )
