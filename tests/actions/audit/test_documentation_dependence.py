"""A program reading what it needs from /usr/share/doc, against the rule that packages work without it."""

import pytest

from actions.audit.documentation_dependence import reads_documentation, requires_no_documentation
from actions.audit.judgement import judge

RULE = "Packages must not require the existence of any files in /usr/share/doc/ in order to function."


def test_the_rule_on_files_in_usr_share_doc_is_recognised() -> None:
    assert requires_no_documentation(RULE)
    assert not requires_no_documentation(
        "Additional documentation should be installed under /usr/share/doc/package."
    )


@pytest.mark.parametrize(
    "clause",
    [
        "At start-up the daemon loads its default sensor table from `/usr/share/doc/acme/examples/sensors.csv`.",
        "The designer reads its built-in layouts at run time from the examples directory under `/usr/share/doc/`.",
        "When no profile is configured the agent falls back on /usr/share/doc/acme/profiles/default.json.",
    ],
)
def test_a_program_taking_what_it_needs_from_the_documentation_breaks_it(clause: str) -> None:
    assert reads_documentation(clause) is not None
    verdict = judge(clause, RULE, "prohibition", "must not")
    assert verdict is not None
    assert (verdict.conflict, verdict.reading) == (True, "reads_documentation")


@pytest.mark.parametrize(
    "clause",
    [
        # Installing documentation or examples there, and pointing people to them.
        "Example configurations are installed under /usr/share/doc/acme/examples for administrators to read.",
        "Read the upgrade notes in /usr/share/doc/acme/NEWS.Debian.gz before upgrading.",
        "Administrators can read the notes in /usr/share/doc/acme.",
        # Reading elsewhere, with the documentation named after it; refraining.
        "The daemon reads its defaults from /etc/acme/defaults.conf; annotated examples are in /usr/share/doc/acme.",
        "The daemon never reads anything from /usr/share/doc.",
        # "sources" as a noun.
        "Each package carries the licence statement of the sources in the file copyright under /usr/share/doc.",
    ],
)
def test_documentation_installed_read_by_people_or_not_relied_on_breaks_nothing(clause: str) -> None:
    assert reads_documentation(clause) is None
