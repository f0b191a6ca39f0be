"""Message metadata: a discriminated union by ``kind``, recognising records written before ``kind``."""

import pytest
from pydantic import TypeAdapter

from policypal.contracts import (
    AnswerDetails,
    ChatMentions,
    ErrorCode,
    ErrorNotice,
    MessageMentions,
    MessageMetadata,
    UnrecognisedMetadata,
)
from policypal.contracts.message_metadata import metadata_kind

METADATA: TypeAdapter[MessageMetadata] = TypeAdapter(MessageMetadata)


@pytest.mark.parametrize(
    "model",
    [
        MessageMentions(mentions=ChatMentions(action="compare", documents=["a", "b"], web=True)),
        AnswerDetails(action="audit", model="gpt-4o"),
        ErrorNotice(error_code=ErrorCode.DEADLINE_EXCEEDED),
        ErrorNotice(error_code="a_code_added_later"),
    ],
)
def test_each_kind_round_trips_through_json(model: MessageMentions | AnswerDetails | ErrorNotice) -> None:
    again = METADATA.validate_json(METADATA.dump_json(model))
    assert type(again) is type(model)
    assert again == model


def test_the_kind_written_wins_over_the_fields_present() -> None:
    # An error notice that also names an action is still an error notice.
    assert metadata_kind({"kind": "error", "error_code": "x", "action": "inquire", "model": "m"}) == "error"
    assert metadata_kind({"error_code": "x", "action": "inquire", "model": "m"}) == "error"


@pytest.mark.parametrize(
    ("old", "kind"),
    [
        ({"mentions": {"action": None, "documents": [], "web": False}}, "user_message"),
        ({"via": "api", "requested_by": "u1"}, "api_request"),
        ({"error_code": "cancelled"}, "error"),
        (
            {"answered_by": "reviewer", "escalation_id": "e", "action": "inquire", "model": "m"},
            "reviewer_answer",
        ),
        ({"action": "summarize", "citations": [], "model": "offline-extractive"}, "answer"),
        ({"something": "else"}, "unrecognised"),
    ],
)
def test_records_without_a_kind_are_recognised_by_their_fields(old: dict[str, object], kind: str) -> None:
    parsed = METADATA.validate_python(old)
    assert parsed.kind == kind


def test_a_kind_from_a_newer_service_is_kept_as_it_is() -> None:
    newer = {"kind": "poll", "question": "Which one?", "choices": ["a", "b"]}
    parsed = METADATA.validate_python(newer)
    assert isinstance(parsed, UnrecognisedMetadata)
    assert METADATA.dump_python(parsed, mode="json") == newer
