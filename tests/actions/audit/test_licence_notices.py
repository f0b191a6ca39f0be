"""A work passed on without the licence's text, or with its notices stripped, against the GPL-3."""

import pytest

from actions.audit.judgement import judge
from actions.audit.licence_notices import (
    requires_intact_notices,
    requires_licence_copy,
    stripped_notices,
    withheld_licence_copy,
)

COPY = (
    "You may convey verbatim copies of the Program's source code as you receive it, in any medium, provided "
    "that you give all recipients a copy of this License along with the Program."
)
NOTICES = (
    "You may convey verbatim copies of the Program's source code as you receive it, in any medium, provided "
    "that you keep intact all notices of the absence of any warranty"
)


def test_the_provisions_on_the_licence_s_copy_and_notices_are_recognised_apart() -> None:
    assert requires_licence_copy(COPY)
    assert not requires_intact_notices(COPY)
    assert requires_intact_notices(NOTICES)
    assert not requires_licence_copy(NOTICES)


@pytest.mark.parametrize(
    "clause",
    [
        "The appliance image ships without any copy of the licence; the manual links to it.",
        "Release 2 no longer carries the COPYING file, to save space on the flash.",
    ],
)
def test_a_work_passed_on_without_the_licence_text_breaks_it(clause: str) -> None:
    assert withheld_licence_copy(clause) is not None
    verdict = judge(clause, COPY, "obligation", "provided that")
    assert verdict is not None
    assert (verdict.conflict, verdict.reading) == (True, "withheld_licence")


@pytest.mark.parametrize(
    "clause",
    [
        "Our build script strips the copyright headers from every vendored C file.",
        "Integrators may replace the warranty notice in each file with their own terms.",
    ],
)
def test_notices_taken_out_or_allowed_out_break_it(clause: str) -> None:
    assert stripped_notices(clause) is not None
    verdict = judge(clause, NOTICES, "obligation", "provided that")
    assert verdict is not None
    assert (verdict.conflict, verdict.reading) == (True, "stripped_notices")


@pytest.mark.parametrize(
    "clause",
    [
        "Every download carries the COPYING file with the full licence text.",
        "We never remove licence headers from third-party files.",
        "Developers must not strip the copyright notices from vendored code.",
    ],
)
def test_a_work_keeping_its_licence_and_notices_breaks_nothing(clause: str) -> None:
    assert withheld_licence_copy(clause) is None
    assert stripped_notices(clause) is None
