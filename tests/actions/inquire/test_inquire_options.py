"""@Inquire reads its options through the contract's one function: the sub-model first, else the flat fields."""

import pytest

from actions.inquire.confidence import LOW_CAUTION, Confidence, asks_how_to_go_on, caution_for
from policypal.contracts import ActionRequested, InquireOptions
from tests.actions.inquire.hand_made_hits import chunk_hit

WEAK = Confidence(tier="low", score=0.31)
HITS = [chunk_hit("Office equipment is replaced every four years.")]


def _request(**options: object) -> ActionRequested:
    return ActionRequested(
        tenant_id="t",
        user_id="u",
        request_id="r1",
        thread_id="c1",
        action="inquire",
        query="q",
        documents=[],
        **options,
    )


@pytest.mark.parametrize(
    "request_",
    [
        _request(accept_low_confidence=True),
        _request(inquire=InquireOptions(accept_low_confidence=True)),
    ],
    ids=["flat", "sub-model"],
)
def test_continue_anyway_is_read_from_either_form(request_: ActionRequested) -> None:
    assert not asks_how_to_go_on(WEAK, HITS, request_)
    assert caution_for(WEAK, request_) == LOW_CAUTION


def test_the_sub_model_wins_over_the_flat_fields() -> None:
    request_ = _request(accept_low_confidence=True, inquire=InquireOptions(accept_low_confidence=False))

    assert asks_how_to_go_on(WEAK, HITS, request_)
    assert caution_for(WEAK, request_) is None
