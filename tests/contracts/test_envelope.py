"""The envelope an answering event carries over from its request, and the head a relay reads of any event."""

from dataclasses import dataclass

import pytest

from policypal.contracts import ChatRequested, ErrorEvent, StatusEvent, answering
from policypal.contracts.codes import ErrorCode
from policypal.contracts.envelope import EnvelopeHead


def test_an_answering_event_keeps_the_request_and_gets_its_own_id_and_time() -> None:
    request = ChatRequested(
        tenant_id="acme", user_id="alice", request_id="r1", thread_id="c1", message_id="m1", text="hi"
    )
    status = StatusEvent(**answering(request), stage="retrieving", message="Looking.")
    assert (status.tenant_id, status.user_id, status.request_id, status.thread_id) == (
        "acme",
        "alice",
        "r1",
        "c1",
    )
    assert status.event_id != request.event_id
    assert status.occurred_at >= request.occurred_at


@dataclass(frozen=True)
class _KeptRecord:
    """A record kept about a request that is not itself an event (as a deadline or a ticket is)."""

    tenant_id: str
    user_id: str
    request_id: str
    thread_id: str
    deadline: float


def test_a_record_about_a_request_ends_it_on_its_thread() -> None:
    kept = _KeptRecord(tenant_id="acme", user_id="bob", request_id="r2", thread_id="c2", deadline=1.0)
    error = ErrorEvent.ending(kept, ErrorCode.DEADLINE_EXCEEDED, "Too slow.", retryable=True)
    assert (
        answering(error)
        == answering(kept)
        == {
            "tenant_id": "acme",
            "user_id": "bob",
            "request_id": "r2",
            "thread_id": "c2",
        }
    )
    assert (error.code, error.retryable) == ("deadline_exceeded", True)


def test_a_relay_reads_the_head_of_any_event_even_of_a_type_it_does_not_know() -> None:
    newer = b'{"type": "added.later", "tenant_id": "acme", "request_id": "r3", "extra": {"x": 1}}'
    assert EnvelopeHead.read(newer) == EnvelopeHead(type="added.later", tenant_id="acme", request_id="r3")
    status = StatusEvent(
        tenant_id="acme", user_id="u", request_id="r4", thread_id="c", stage="s", message="m"
    )
    assert EnvelopeHead.read(status.model_dump_json().encode()) == EnvelopeHead(
        type="status", tenant_id="acme", request_id="r4"
    )


@pytest.mark.parametrize(
    "data",
    [b"not json", b"\xff\xfe", b"[1, 2]", b'"status"', b'{"tenant_id": "acme"}', b'{"type": 5}'],
    ids=["text", "bytes", "array", "string", "no-type", "numeric-type"],
)
def test_what_is_not_an_object_with_a_string_type_has_no_head(data: bytes) -> None:
    assert EnvelopeHead.read(data) is None
