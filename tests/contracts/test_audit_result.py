"""The audit result carried in ResponseEvent.result: the stored v1 sample parses, bad values are refused."""

import json
from pathlib import Path

import pytest
from pydantic import ValidationError

from policypal.contracts.audit import AuditResult

SAMPLE = Path(__file__).parent / "samples" / "v1" / "results" / "audit.result.json"


def test_stored_v1_sample_still_parses_and_round_trips() -> None:
    raw = json.loads(SAMPLE.read_text())
    result = AuditResult.model_validate(raw)
    assert AuditResult.model_validate_json(result.model_dump_json()) == result
    assert set(raw) <= set(json.loads(result.model_dump_json()))


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("severity", "Catastrophic"),
        ("confidence_score", 1.5),
        ("source_quote", "x" * 301),
        ("target_doc_id", "a b"),
    ],
)
def test_invalid_findings_are_refused(field: str, value: object) -> None:
    raw = json.loads(SAMPLE.read_text())
    raw["findings"][0][field] = value
    with pytest.raises(ValidationError):
        AuditResult.model_validate(raw)
