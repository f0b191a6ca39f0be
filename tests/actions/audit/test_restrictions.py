"""Restrictions a licence forbids, and the clauses that impose them on the work's recipients."""

import pytest

from actions.audit.restrictions import forbids_further_restrictions, restriction_of

NO_FURTHER = "You may not impose any further restrictions on the exercise of the rights granted or affirmed under this License."


def test_a_prohibition_of_further_restrictions_on_the_rights_granted_is_recognised() -> None:
    assert forbids_further_restrictions(NO_FURTHER)
    # Restrictions on other software are another matter (the DFSG's "must not contaminate").
    assert not forbids_further_restrictions(
        "The license must not place restrictions on other software that is distributed along with it."
    )
    assert not forbids_further_restrictions("Packages must not impose a load on the build daemons.")


@pytest.mark.parametrize(
    ("clause", "restricted"),
    [
        (
            "Customers may not pass copies of the firmware on to third parties.",
            "pass copies of the firmware on",
        ),
        ("Redistribution of the SDK requires our prior written approval.", "Redistribution"),
        (
            "The daemon is released under the GPL with an added clause that forbids commercial use.",
            "commercial use",
        ),
        ("Resellers must not modify the firmware images.", "modify"),
    ],
)
def test_a_clause_restricting_what_recipients_may_do_with_the_work_is_a_restriction(
    clause: str, restricted: str
) -> None:
    assert restriction_of(clause) == restricted


@pytest.mark.parametrize(
    "clause",
    [
        # A grant, not a restriction.
        "Customers may copy and redistribute the firmware under the terms of the GPL without asking us.",
        # The company's own staff keeping the licence.
        "Engineers must not distribute builds without the corresponding source.",
        # A restriction on something that is no work a licence grants rights in.
        "Users must not share their passwords.",
    ],
)
def test_grants_staff_duties_and_other_matters_are_no_restriction(clause: str) -> None:
    assert restriction_of(clause) is None
