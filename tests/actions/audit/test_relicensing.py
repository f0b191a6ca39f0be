"""A work a copyleft licence requires be licensed under itself, passed on under other terms."""

import pytest

from actions.audit.judgement import judge
from actions.audit.relicensing import relicensing_of, requires_licensing_under_itself

UNDER_ITSELF = (
    "You must license the entire work, as a whole, under this License to anyone who comes into "
    "possession of a copy."
)


def test_the_rule_requires_the_work_licensed_under_the_licence_itself() -> None:
    assert requires_licensing_under_itself(UNDER_ITSELF)
    assert not requires_licensing_under_itself("You may convey verbatim copies of the Program's source code.")


@pytest.mark.parametrize(
    ("clause", "relicensed"),
    [
        (
            "Partners may ship their own modified builds under their own proprietary EULA.",
            "under their own proprietary EULA",
        ),
        (
            "Customers of the professional edition receive the modified SDK under our commercial licence.",
            "under our commercial licence",
        ),
    ],
)
def test_a_clause_passing_the_work_on_under_terms_of_its_own_breaks_it(clause: str, relicensed: str) -> None:
    verdict = judge(clause, UNDER_ITSELF, "obligation", "must")

    assert relicensing_of(clause) == relicensed
    assert verdict is not None
    assert (verdict.conflict, verdict.reading) == (True, "relicensed")


@pytest.mark.parametrize(
    "clause",
    [
        "The agent is released under the GPL, version 3 or later.",
        # Support or a warranty sold under a contract of one's own is no relicensing of the work.
        "Support contracts for the agent are sold under our commercial terms.",
        # Terms of one's own for something that is no work.
        "Visitors to the portal are bound by our own proprietary terms.",
    ],
)
def test_the_work_under_the_licence_or_a_service_under_a_contract_is_no_relicensing(clause: str) -> None:
    assert relicensing_of(clause) is None
