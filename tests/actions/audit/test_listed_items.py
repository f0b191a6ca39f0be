"""Items a rule requires by listing them, and a clause that keeps to only some of them."""

import pytest

from actions.audit.judgement import judge
from actions.audit.listed_items import listed_items

TARGETS = (
    "The following targets are required and must be implemented by debian/rules: clean, binary, "
    "binary-arch, binary-indep, build, build-arch and build-indep."
)


def test_a_list_after_a_colon_of_single_names_is_what_the_rule_lists() -> None:
    assert listed_items(": clean, binary, binary-arch and build-indep.") == [
        "clean",
        "binary",
        "binary-arch",
        "build-indep",
    ]
    # Two items are no list; nor are items of several words.
    assert listed_items(": clean and binary.") == []
    assert listed_items(": the clean target, the binary target and the build target.") == []


def test_a_clause_enumerating_only_some_of_the_listed_items_goes_without_the_rest() -> None:
    verdict = judge(
        "Our debian/rules files only need to implement `build`, `binary` and `clean`; the split "
        "`build-arch` and `binary-arch` targets add nothing for us, so leave them out.",
        TARGETS,
        "obligation",
        "are required",
    )

    assert verdict is not None
    assert (verdict.conflict, verdict.reading) == (True, "lacks_listed")
    assert "goes without binary-arch, binary-indep, build-arch, build-indep" in verdict.rationale


@pytest.mark.parametrize(
    "clause",
    [
        # Common words after "only", but no enumeration of the listed names.
        "Our debian/rules only build binary packages and clean up after themselves.",
        # The rest named in another part, not left out there.
        "Only build and clean are written by hand; binary, binary-arch, binary-indep, build-arch and "
        "build-indep come from the debhelper sequence.",
        # An enumeration of what else the clause says of some of them, not of what it implements.
        "We implement all seven targets; only build and binary do real work, clean is a no-op.",
        # All of them.
        "Our debian/rules implement only clean, binary, binary-arch, binary-indep, build, build-arch and "
        "build-indep.",
    ],
)
def test_an_enumeration_of_all_or_no_enumeration_is_no_lack(clause: str) -> None:
    verdict = judge(clause, TARGETS, "obligation", "are required")

    assert verdict is None or verdict.reading != "lacks_listed"
