"""Changes passed on unmarked, against the GPL-3's notices of modification."""

import pytest

from actions.audit.judgement import judge
from actions.audit.modification_notices import requires_modification_notices, unmarked_changes

RULE = (
    "You may convey a work based on the Program, or the modifications to produce it from the Program, in the "
    "form of source code under the terms of section 4, provided that you also meet all of these conditions: "
    "The work must carry prominent notices stating that you modified it, and giving a relevant date."
)


def test_the_provision_on_notices_of_modification_is_recognised() -> None:
    assert requires_modification_notices(RULE)
    assert not requires_modification_notices("You must license the entire work under this License.")


@pytest.mark.parametrize(
    "clause",
    [
        "Our fixes to the vendored codec are committed with no comment in the files that they were modified.",
        "Resellers who patch the daemon need not add any note; there is no need to record the change.",
    ],
)
def test_changes_passed_on_unmarked_break_it(clause: str) -> None:
    assert unmarked_changes(clause) is not None
    verdict = judge(clause, RULE, "obligation", "must")
    assert verdict is not None
    assert (verdict.conflict, verdict.reading) == (True, "unmarked_changes")


@pytest.mark.parametrize(
    "clause",
    [
        "Each patched file carries a dated note saying what we changed.",
        "We never ship a modified file without a note of the change in its header.",
        "Internal paths may change between releases without notice.",
        "The init script is no longer marked as a conffile after the change.",
    ],
)
def test_marked_changes_and_other_matters_break_nothing(clause: str) -> None:
    assert unmarked_changes(clause) is None
