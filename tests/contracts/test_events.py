"""Contract tests: every event round-trips, stored v1 samples still parse, subjects are right."""

import json
from pathlib import Path

import pytest
from pydantic import ValidationError

from policypal.contracts import EVENT_TYPES, ChatRequested, Envelope, StatusEvent, parse_event
from policypal.contracts.subjects import subject_for

SAMPLES = Path(__file__).parent / "samples" / "v1"


def _samples() -> list[Path]:
    return sorted(SAMPLES.glob("*.json"))


def test_there_is_a_stored_sample_for_every_event_type() -> None:
    assert {p.stem for p in _samples()} == set(EVENT_TYPES)


@pytest.mark.parametrize("path", _samples(), ids=lambda p: p.stem)
def test_stored_v1_sample_still_parses_and_round_trips(path: Path) -> None:
    raw = path.read_text()
    event = parse_event(raw)
    assert type(event) is EVENT_TYPES[path.stem]
    assert event.schema_version == 1
    again = parse_event(event.model_dump_json())
    assert again == event
    # Nothing stored in the sample is dropped by the current model.
    assert set(json.loads(raw)) <= set(json.loads(event.model_dump_json()))


def test_unknown_fields_from_a_newer_producer_are_ignored() -> None:
    raw = json.loads((SAMPLES / "status.json").read_text())
    raw["added_in_a_later_version"] = {"x": 1}
    event = parse_event(json.dumps(raw))
    assert isinstance(event, StatusEvent)


def test_new_events_get_uuid7_ids_in_time_order() -> None:
    first = StatusEvent(tenant_id="t", user_id="u", request_id="r", thread_id="c", stage="s", message="m")
    second = StatusEvent(tenant_id="t", user_id="u", request_id="r", thread_id="c", stage="s", message="m")
    assert first.event_id[14] == "7"
    assert first.event_id < second.event_id


@pytest.mark.parametrize("tenant", ["a.b", "a*", "a>", "", "a b", "x" * 65])
def test_tenant_ids_that_would_break_subjects_are_refused(tenant: str) -> None:
    with pytest.raises(ValidationError):
        StatusEvent(tenant_id=tenant, user_id="u", request_id="r", thread_id="c", stage="s", message="m")


def test_unknown_event_type_is_refused() -> None:
    with pytest.raises(ValidationError):
        parse_event('{"type": "nope", "tenant_id": "t", "user_id": "u", "request_id": "r"}')


@pytest.mark.parametrize(
    ("sample", "subject"),
    [
        ("document.uploaded", "docs.uploaded"),
        ("chat.requested", "chat.requested"),
        ("chat.resumed", "chat.resumed"),
        ("token", "events.acme.conv1.token"),
        ("interrupt", "events.acme.conv1.interrupt"),
        ("action.requested", "actions.inquire.requested"),
        ("ingest.progress", "events.acme.doc1.progress"),
        ("document.ready", "events.acme.doc1.ready"),
        ("document.failed", "events.acme.doc1.failed"),
        ("status", "events.acme.conv1.status"),
        ("response", "events.acme.conv1.response"),
        ("error", "events.acme.conv1.error"),
    ],
)
def test_subject_of_each_event(sample: str, subject: str) -> None:
    assert subject_for(parse_event((SAMPLES / f"{sample}.json").read_text())) == subject


def test_thread_event_without_thread_cannot_be_published() -> None:
    event: Envelope = StatusEvent(tenant_id="t", user_id="u", request_id="r", stage="s", message="m")
    with pytest.raises(ValueError, match="thread_id"):
        subject_for(event)


def test_chat_mentions_default_to_none() -> None:
    event = ChatRequested(
        tenant_id="t", user_id="u", request_id="r", thread_id="c", message_id="m", text="hi"
    )
    assert event.mentions.action is None
    assert event.mentions.documents == []
