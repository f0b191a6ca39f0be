"""Forbidding circumvention of a technological measure, against a licence that waives that power."""

import pytest

from actions.audit.circumvention import forbidden_circumvention, waives_forbidding_circumvention
from actions.audit.judgement import judge

WAIVED = (
    "When you convey a covered work, you waive any legal power to forbid circumvention of technological "
    "measures to the extent such circumvention is effected by exercising rights under this License."
)


def test_the_rule_waiving_the_power_to_forbid_circumvention_is_recognised() -> None:
    assert waives_forbidding_circumvention(WAIVED)
    assert not waives_forbidding_circumvention("You may not impose any further restrictions on the rights.")


@pytest.mark.parametrize(
    "clause",
    [
        "Customers must not remove or work around the licence key check; we treat any such workaround as "
        "circumvention of a technological protection measure.",
        "Bypassing the firmware signature check counts as circumvention of a technological protection measure.",
        "We will pursue anyone who strips that check out under the anti-circumvention provisions of copyright law.",
        "The licence agreement prohibits owners from bypassing the secure boot verification to run their own builds.",
        "Users may not work around the signature check of the installer.",
    ],
)
def test_a_clause_forbidding_circumvention_or_threatening_action_breaks_it(clause: str) -> None:
    assert forbidden_circumvention(clause) is not None
    verdict = judge(clause, WAIVED, "prohibition", "waive any legal power to")
    assert verdict is not None
    assert (verdict.conflict, verdict.reading) == (True, "forbids_circumvention")


@pytest.mark.parametrize(
    "clause",
    [
        "We will not pursue anyone for circumvention of the licence check in a modified build.",
        "As the GPL requires, we waive any power to forbid circumvention of the licence check.",
        "Customers must not share their licence keys with other sites.",
        "Owners may bypass the signature check by enabling developer mode in the settings.",
        "The proxy forbids clients from bypassing the cache.",
    ],
)
def test_a_clause_claiming_no_power_over_circumvention_breaks_nothing(clause: str) -> None:
    assert forbidden_circumvention(clause) is None
