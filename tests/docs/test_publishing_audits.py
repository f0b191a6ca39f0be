"""The guide to publishing audits on NATS shows a payload the contract accepts, on the subject it names."""

import json
import re
from pathlib import Path

import jsonschema

from policypal.contracts import ActionRequested, parse_event
from policypal.contracts.subjects import subject_for

GUIDE = Path(__file__).resolve().parents[2] / "docs" / "publishing-audits.md"
SCHEMAS = Path(__file__).resolve().parents[2] / "libs" / "contracts" / "schemas"


def _example() -> str:
    [block] = re.findall(r"```json\n(.*?)```", GUIDE.read_text(), flags=re.DOTALL)
    return str(block)


def test_the_example_parses_as_an_audit_request_for_the_subject_the_guide_names() -> None:
    event = parse_event(_example())
    assert isinstance(event, ActionRequested)
    assert event.action == "audit"
    assert event.source_text
    assert event.target_document_ids == ["gdpr2016"]
    assert {d.document_id for d in event.documents} >= set(event.target_document_ids)
    assert subject_for(event) == "actions.audit.requested"
    assert "`actions.audit.requested`" in GUIDE.read_text()


def test_the_example_validates_against_the_published_json_schema() -> None:
    schema = json.loads((SCHEMAS / "action.requested.v1.json").read_text())
    jsonschema.validate(json.loads(_example()), schema)
