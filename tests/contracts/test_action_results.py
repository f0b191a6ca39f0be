"""Summary and comparison results in ResponseEvent.result: each stored v1 shape is read as its model and
goes back on the wire exactly as it came (no key added, none dropped); a result no model reads is an
UnrecognisedResult kept whole, so the event still parses."""

import json
from pathlib import Path

import pytest
from pydantic import BaseModel, ValidationError

from policypal.contracts import (
    FocusedComparison,
    HolisticComparison,
    RedlineComparison,
    ResponseEvent,
    SummaryResult,
    UnrecognisedResult,
    parse_event,
)
from policypal.contracts.audit import AuditResult
from policypal.contracts.comparison import ProvisionChange

SAMPLES = Path(__file__).parent / "samples" / "v1"
RESULTS = SAMPLES / "results"

EXPECTED: dict[str, type[BaseModel]] = {
    "audit.result.json": AuditResult,
    "summary.result.json": SummaryResult,
    "summary.drafted.result.json": SummaryResult,
    "compare.redline.result.json": RedlineComparison,
    "compare.holistic.result.json": HolisticComparison,
    "compare.holistic.drafted.result.json": HolisticComparison,
    "compare.focused.result.json": FocusedComparison,
    "compare.focused.drafted.result.json": FocusedComparison,
}


def _response_with(result: object) -> ResponseEvent:
    response = json.loads((SAMPLES / "response.json").read_text())
    event = parse_event(json.dumps(response | {"result": result}))
    assert isinstance(event, ResponseEvent)
    return event


def test_every_stored_result_sample_is_listed() -> None:
    assert sorted(p.name for p in RESULTS.glob("*.json")) == sorted(EXPECTED)


@pytest.mark.parametrize("name", sorted(set(EXPECTED) - {"audit.result.json"}))
def test_a_stored_result_is_read_as_its_model_and_round_trips_unchanged(name: str) -> None:
    raw = json.loads((RESULTS / name).read_text())
    event = _response_with(raw)
    assert type(event.result) is EXPECTED[name]
    assert json.loads(event.model_dump_json())["result"] == raw
    assert parse_event(event.model_dump_json()) == event


def test_fields_only_some_answers_have_stay_off_the_wire_when_absent() -> None:
    offline = SummaryResult(documents=[])
    assert offline.model_dump(mode="json") == {"documents": []}
    added = ProvisionChange(kind="added", substance=[])
    assert added.model_dump(mode="json") == {"kind": "added", "substance": []}


def test_a_redline_pair_travels_with_from_not_a_python_name() -> None:
    raw = json.loads((RESULTS / "compare.redline.result.json").read_text())
    redline = RedlineComparison.model_validate(raw)
    assert redline.pairs[0].from_ == "charter-1"
    assert "from_" not in redline.pairs[0].model_dump_json()


@pytest.mark.parametrize(
    "result",
    [
        {"mode": "timeline", "events": [1, 2]},
        {"answer_mode": "extractive"},
        {"mode": "focused"},
    ],
)
def test_a_result_no_model_reads_stays_the_object_it_is(result: dict[str, object]) -> None:
    event = _response_with(result)
    assert isinstance(event.result, UnrecognisedResult)
    assert event.result.model_dump() == result
    assert json.loads(event.model_dump_json())["result"] == result
    assert parse_event(event.model_dump_json()) == event


def test_an_invalid_comparison_is_refused_by_its_model() -> None:
    raw = json.loads((RESULTS / "compare.holistic.result.json").read_text())
    raw["differences"][0]["markers"] = [0, 2]
    with pytest.raises(ValidationError):
        HolisticComparison.model_validate(raw)
