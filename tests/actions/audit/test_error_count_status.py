"""A count of errors used as the exit status, against a rule forbidding it."""

import pytest

from actions.audit.error_count_status import error_count_status, forbids_error_count_status
from actions.audit.judgement import judge

RULE = "Do not use a count of errors as the exit status for a program."


def test_the_rule_on_error_counts_as_exit_status_is_recognised() -> None:
    assert forbids_error_count_status(RULE)
    assert not forbids_error_count_status("Please don't make the behavior of a utility depend on its name.")


@pytest.mark.parametrize(
    "clause",
    [
        "ledger-check exits with the number of unbalanced accounts it found.",
        "The exit code is the count of rejected rows, so 0 means a clean import.",
        "Plug-ins may return the total of failed checks as their exit status.",
    ],
)
def test_a_program_exiting_with_a_count_breaks_it(clause: str) -> None:
    assert error_count_status(clause) is not None
    verdict = judge(clause, RULE, "prohibition", "Do not")
    assert verdict is not None
    assert (verdict.conflict, verdict.reading) == (True, "error_count_status")


@pytest.mark.parametrize(
    "clause",
    [
        "ledger-check exits with status 1 when any account fails, and reports the number of failures on stderr.",
        "The importer exits with status 0 or 1, whatever the number of rejected rows.",
    ],
)
def test_a_fixed_status_with_the_count_reported_elsewhere_is_not_judged_by_shared_words(clause: str) -> None:
    assert error_count_status(clause) is None
    assert judge(clause, RULE, "prohibition", "Do not") is None
