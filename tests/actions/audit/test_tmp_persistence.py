"""Files in /tmp relied on later, against the FHS rule that /tmp keeps nothing between runs."""

import pytest

from actions.audit.judgement import judge
from actions.audit.tmp_persistence import keeps_nothing_in_tmp, relies_on_tmp

RULE = "Programs must not assume that any files or directories in /tmp are preserved between invocations of the program."


def test_the_rule_on_tmp_between_invocations_is_recognised() -> None:
    assert keeps_nothing_in_tmp(RULE)
    assert not keeps_nothing_in_tmp("The /tmp directory must be made available for programs.")


@pytest.mark.parametrize(
    "clause",
    [
        "The indexer leaves its half-built index in /tmp/ledger-index and resumes from it on the next run.",
        "Queued uploads wait in /tmp/ledger-queue and are sent after a reboot.",
    ],
)
def test_using_later_what_was_left_in_tmp_breaks_it(clause: str) -> None:
    assert relies_on_tmp(clause) is not None
    verdict = judge(clause, RULE, "prohibition", "must not")
    assert verdict is not None
    assert (verdict.conflict, verdict.reading) == (True, "relies_on_tmp")


@pytest.mark.parametrize(
    "clause",
    [
        "Queued uploads that must survive a reboot wait in /var/tmp/ledger, never in /tmp.",
        "Scratch files go to /tmp and are recreated on every run.",
        "The indexer resumes from its checkpoint in /var/lib/ledger after a reboot.",
        # Denying the reliance keeps the rule.
        "Scratch files are written under /tmp, and the sweep never relies on finding them on its next run.",
    ],
)
def test_state_kept_elsewhere_or_scratch_recreated_breaks_nothing(clause: str) -> None:
    assert relies_on_tmp(clause) is None
