"""Error codes, status stages, failure reasons, dedup ids and results keep their wire values."""

import json
from pathlib import Path

import pytest

from policypal.contracts import (
    DocumentFailureCode,
    ErrorCode,
    ErrorEvent,
    ResponseEvent,
    StatusEvent,
    StatusStage,
    dedup_ids,
    parse_event,
)
from policypal.contracts.audit import AuditResult
from policypal.contracts.comparison import FocusedComparison

SAMPLES = Path(__file__).parent / "samples" / "v1"


def test_known_codes_parse_as_enum_members_and_serialise_as_before() -> None:
    error = parse_event((SAMPLES / "error.json").read_text())
    assert isinstance(error, ErrorEvent)
    assert error.code is ErrorCode.DOCUMENT_NOT_FOUND
    assert json.loads(error.model_dump_json())["code"] == "document_not_found"
    status = parse_event((SAMPLES / "status.json").read_text())
    assert isinstance(status, StatusEvent)
    assert status.stage is StatusStage.RETRIEVING


def test_a_code_unknown_to_this_version_is_still_read() -> None:
    raw = json.loads((SAMPLES / "error.json").read_text()) | {"code": "quota_exhausted"}
    error = parse_event(json.dumps(raw))
    assert isinstance(error, ErrorEvent)
    assert (type(error.code), error.code) == (str, "quota_exhausted")


@pytest.mark.parametrize(
    ("enum", "values"),
    [
        (
            ErrorCode,
            {"action_failed", "request_failed", "deadline_exceeded", "cancelled", "interrupt_expired"},
        ),
        (StatusStage, {"intent", "documents", "docs_found", "validation", "retrieving"}),
        (DocumentFailureCode, {"no_text_layer", "corrupt", "encrypted", "not_queued", "deleted"}),
    ],
)
def test_wire_values_are_the_ones_clients_already_know(
    enum: type[ErrorCode] | type[StatusStage] | type[DocumentFailureCode], values: set[str]
) -> None:
    assert values <= {member.value for member in enum}


def test_dedup_ids_keep_their_prefixes() -> None:
    assert dedup_ids.action_handoff_id("r1") == "action:r1"
    assert dedup_ids.terminal_id("r1") == "terminal:r1"
    assert dedup_ids.status_id("r1", StatusStage.DOCS_FOUND) == "status:r1:docs_found"
    assert dedup_ids.reviewer_answer_id("e1") == "reviewer:e1"
    assert dedup_ids.dead_letter_id("CHAT", 42) == "dlq:CHAT:42"
    assert dedup_ids.interrupt_id_for("r1") == "interrupt-r1"


def test_an_audit_result_is_read_as_the_model() -> None:
    response = json.loads((SAMPLES / "response.json").read_text())
    audit = json.loads((SAMPLES / "results" / "audit.result.json").read_text())
    as_audit = parse_event(json.dumps(response | {"action": "audit", "result": audit}))
    assert isinstance(as_audit, ResponseEvent)
    assert isinstance(as_audit.result, AuditResult)


def test_a_drafted_focused_comparison_keeps_its_two_fields_on_the_wire() -> None:
    response = json.loads((SAMPLES / "response.json").read_text())
    compare = {"mode": "focused", "topic": "retention"}
    as_compare = parse_event(json.dumps(response | {"action": "compare", "result": compare}))
    assert isinstance(as_compare, ResponseEvent)
    assert isinstance(as_compare.result, FocusedComparison)
    assert json.loads(as_compare.model_dump_json())["result"] == compare
