"""A program that behaves differently by the name it is invoked by, against a rule forbidding it."""

import pytest

from actions.audit.invocation_name import behaviour_by_invocation_name, forbids_name_dependent_behaviour
from actions.audit.judgement import judge

RULE = "Please don’t make the behavior of a utility depend on the name used to invoke it."
LINK_RULE = (
    "It is useful sometimes to make a link to a utility with a different name, and that should not change "
    "what it does."
)


def test_the_rules_on_a_program_s_name_are_recognised() -> None:
    assert forbids_name_dependent_behaviour(RULE)
    assert forbids_name_dependent_behaviour(LINK_RULE)
    assert not forbids_name_dependent_behaviour("Please don't use the term pathname for a file name.")


@pytest.mark.parametrize(
    "clause",
    [
        "Run through the ledger-audit alias, the tool comes up in dry-run mode.",
        "The program reads argv[0] and checks the name, printing totals when invoked as ledger-sum.",
        "A hard link named rotate-now makes the daemon enter one-shot mode.",
    ],
)
def test_a_program_changing_by_its_invocation_name_breaks_it(clause: str) -> None:
    assert behaviour_by_invocation_name(clause) is not None
    verdict = judge(clause, RULE, "recommendation_against", "Please don’t")
    assert verdict is not None
    assert (verdict.conflict, verdict.reading) == (True, "name_dependent")


@pytest.mark.parametrize(
    "clause",
    [
        "The ledger-audit symlink behaves exactly like the ledger binary; dry-run mode needs --dry-run.",
        "The package ships /usr/bin/ledger as a symlink to /usr/lib/ledger/ledger with mode 0755.",
        "The tool has a dry-run mode, selected with the --dry-run option.",
    ],
)
def test_a_link_that_changes_nothing_breaks_nothing(clause: str) -> None:
    assert behaviour_by_invocation_name(clause) is None
