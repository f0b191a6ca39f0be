"""Per-action options of ActionRequested: the sub-model when a producer sends it, else the flat fields of
older producers; both shapes parse, round-trip, and give the same typed options."""

import json
from pathlib import Path

import pytest
from pydantic import ValidationError

from policypal.contracts import (
    ActionRequested,
    AuditOptions,
    InquireOptions,
    audit_options,
    inquire_options,
    parse_event,
)
from policypal.contracts.limits import MAX_SOURCE_TEXT

OPTIONS = Path(__file__).parent / "samples" / "v1" / "options"
V1_SAMPLE = Path(__file__).parent / "samples" / "v1" / "action.requested.json"


def _request(name: str) -> ActionRequested:
    event = parse_event((OPTIONS / name).read_text())
    assert isinstance(event, ActionRequested)
    assert parse_event(event.model_dump_json()) == event
    return event


def test_an_audit_from_an_older_producer_is_read_from_its_flat_fields() -> None:
    event = _request("audit.flat.json")
    assert event.audit is None
    assert audit_options(event) == AuditOptions(source_document_id="policy1", target_document_ids=["gdpr"])


def test_an_audit_sub_model_is_read_as_sent() -> None:
    event = _request("audit.sub_model.json")
    options = audit_options(event)
    assert options.source_text == "Personal data is kept for ten years."
    assert (options.source_document_id, options.target_document_ids) == (None, ["gdpr"])


def test_the_sub_model_wins_over_the_flat_fields() -> None:
    raw = json.loads((OPTIONS / "audit.sub_model.json").read_text())
    event = ActionRequested.model_validate(raw | {"source_document_id": "other", "target_document_ids": []})
    assert audit_options(event).target_document_ids == ["gdpr"]
    assert audit_options(event).source_document_id is None


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("inquire.flat.json", InquireOptions(web=True, accept_low_confidence=True)),
        ("inquire.sub_model.json", InquireOptions(web=True, accept_low_confidence=False)),
    ],
)
def test_inquire_options_come_from_either_shape(name: str, expected: InquireOptions) -> None:
    assert inquire_options(_request(name)) == expected


def test_the_first_v1_sample_gives_default_options() -> None:
    event = parse_event(V1_SAMPLE.read_text())
    assert isinstance(event, ActionRequested)
    assert audit_options(event) == AuditOptions()
    assert inquire_options(event) == InquireOptions()


def test_an_audit_sub_model_keeps_the_flat_fields_limits() -> None:
    raw = json.loads((OPTIONS / "audit.sub_model.json").read_text())
    with pytest.raises(ValidationError):
        ActionRequested.model_validate(raw | {"audit": {"source_text": "x" * (MAX_SOURCE_TEXT + 1)}})
    with pytest.raises(ValidationError):
        ActionRequested.model_validate(raw | {"audit": {"target_document_ids": ["not.safe"]}})
