"""A release that unpacks into a directory without its version, against a rule naming that directory."""

import pytest

from actions.audit.judgement import judge
from actions.audit.release_directory import names_release_directory, unversioned_release_directory

RULE = "It should unpack into a subdirectory named foo-69.96."


def test_the_rule_naming_the_release_directory_is_recognised() -> None:
    assert names_release_directory(RULE)
    assert not names_release_directory("The distribution should contain a file named README.")


@pytest.mark.parametrize(
    "clause",
    [
        "The nightly archive extracts into a folder named `source/` so scripts can rely on one path.",
        "Our tarball unpacks into a plain directory called build-tree.",
        "The zip simply unpacks into the current directory, as our Windows users expect.",
    ],
)
def test_a_release_unpacking_without_its_version_breaks_it(clause: str) -> None:
    assert unversioned_release_directory(clause) is not None
    verdict = judge(clause, RULE, "recommendation", "should")
    assert verdict is not None
    assert (verdict.conflict, verdict.reading) == (True, "unversioned_directory")


@pytest.mark.parametrize(
    "clause",
    [
        "The release tarball is ledger-3.1.tar.gz and it unpacks into a ledger-3.1/ directory.",
        "It unpacks into a directory named ledger-3.1, so releases never collide.",
        "The archive never unpacks into a directory called src.",
    ],
)
def test_a_release_unpacking_into_its_versioned_directory_breaks_nothing(clause: str) -> None:
    assert unversioned_release_directory(clause) is None
