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
        # A right granted only within a scope.
        ("Clients may run the software only on hosts we have audited.", "run"),
        ("Distributors may redistribute the toolkit only to their existing clients.", "redistribute"),
        # A price set on exercising a right.
        ("Vendors who ship the library inside their appliances must pay us 2 EUR per unit.", "ship"),
        ("Anybody who adapts the plugin for another editor owes us a fee of 50 EUR.", "adapts"),
        (
            "Partners who pass the agent on to their clients owe us a redistribution fee of EUR 6.",
            "pass the agent on",
        ),
        (
            "Integrators must pay a redistribution fee of EUR 40 per site for our binaries.",
            "redistribution",
        ),
        # The company's own licence terms for the work.
        ("The setup wizard's EULA will say that the agent may not be modified.", "modified"),
        # A grant followed by what it withholds.
        (
            "Partners may install the builds for their own customers, but may not pass copies on to anyone else.",
            "pass copies on",
        ),
        # Recipients by what they are to the company: sites, owners, operators.
        (
            "Hospitals may adapt the viewer, but modified builds may not be passed on to other sites.",
            "passed on",
        ),
        # The right, named as an act on the work, kept to some recipients.
        ("Copying of the planner is restricted to operators who hold a fleet licence.", "Copying"),
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
        "Customers may use the portal only during business hours.",
        # A condition the licence itself may set, not a scope.
        "Resellers may sell the firmware only with the written offer for the source included.",
        # A price for copies or for support: the licence allows both.
        "Customers pay 300 EUR for each copy of the firmware image they download.",
        "Customers who want a support contract for the agent pay 200 EUR per year.",
        "Customers pay for installing the software on site.",
        # What a grant withholds that is no work: a trademark.
        "Customers may copy the manual, but may not use the Acme logo.",
        # Kept to the company's own people, or no right in the work.
        "Distribution of the nightly builds is limited to staff.",
        "Access to the staging server is limited to operators on call.",
    ],
)
def test_grants_staff_duties_and_other_matters_are_no_restriction(clause: str) -> None:
    assert restriction_of(clause) is None
