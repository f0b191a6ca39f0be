"""New directories at the top level of an area a rule keeps closed."""

import pytest

from actions.audit.judgement import judge
from actions.audit.top_level import added_at_top_level, closed_top_level, unknown_at_top_level

VAR_RULE = (
    "Applications must generally not add directories to the top level of /var.",
    "prohibition",
    "must generally not",
)
ROOT_RULE = (
    "Creating a new subdirectory of the root filesystem is prohibited.",
    "prohibition",
    "is prohibited",
)


@pytest.mark.parametrize(
    ("act", "area"),
    [
        ("add directories to the top level of /var.", "/var"),
        ("create new directories in the root hierarchy", "/"),
        ("Creating a new subdirectory of the root filesystem", "/"),
        ("add files to /var/lib", None),
        # What "There must be no" leaves of its rule, and the rule whole.
        (" subdirectories in /usr/bin.", "/usr/bin"),
        ("There must be no subdirectories in /usr/bin.", "/usr/bin"),
        ("use the top level of /var for data", None),
        ("Large software packages must not use a direct subdirectory under the /usr hierarchy.", "/usr"),
    ],
)
def test_the_area_whose_top_level_a_rule_keeps_closed(act: str, area: str | None) -> None:
    assert closed_top_level(act) == area


def test_a_directory_is_added_only_right_under_the_area_and_when_called_new() -> None:
    assert added_at_top_level("The queue lives in a new top-level directory, /var/osprey.", "/var") == [
        "/var/osprey"
    ]
    assert added_at_top_level("The queue lives in a new directory, /var/lib/osprey.", "/var") == []
    assert added_at_top_level("The queue lives in /var/osprey.", "/var") == []
    # A directory the target itself names is not a new one.
    assert added_at_top_level("Logs go to a new file in /var/log.", "/var", ["/var/log"]) == []


@pytest.mark.parametrize(
    ("clause", "rule"),
    [
        (
            "The relay keeps its queue in a new top-level directory, /var/osprey, on a disk of its own.",
            VAR_RULE,
        ),
        ("The tool writes its evidence to /evidence, a top-level directory that it creates.", ROOT_RULE),
        (
            "Products with many commands may install them into their own subdirectory, such as /usr/bin/acme/.",
            ("There must be no subdirectories in /usr/bin.", "prohibition", "There must be no"),
        ),
    ],
)
def test_adding_a_directory_at_a_closed_top_level_conflicts(clause: str, rule: tuple[str, str, str]) -> None:
    verdict = judge(clause, *rule)

    assert verdict is not None
    assert (verdict.conflict, verdict.reading) == (True, "new_top_level")


def test_writing_further_down_adds_no_top_level_directory() -> None:
    verdict = judge("The relay keeps its queue in a new directory, /var/lib/osprey.", *VAR_RULE)

    assert verdict is None or not verdict.conflict


KNOWN = ("/usr/bin", "/usr/share/doc", "/var/lib", "/var/log")


@pytest.mark.parametrize(
    ("clause", "area", "added"),
    [
        # Not called new, yet no directory the standard names.
        ("The suite installs into its own tree at `/usr/quaystone/`.", "/usr", ["/usr/quaystone"]),
        ("The queue lives in /var/cartwheel/queue/, next to /var/log/cartwheel.", "/var", ["/var/cartwheel"]),
        # Directories the standard names; a file right in /usr/bin; a placeholder.
        ("State lives in /var/lib/cartwheel and logs in /var/log/cartwheel.", "/var", []),
        ("The script is installed as /usr/bin/kestrel-collect.", "/usr/bin", []),
        ("The helper is installed as /usr/bin/kestrel/collect.", "/usr/bin", ["/usr/bin/kestrel"]),
        ("Files go to /var/<package>/data.", "/var", []),
        # The root's top level holds mount points no standard can list.
        ("The home directory is /nonexistent.", "/", []),
    ],
)
def test_a_directory_right_under_a_closed_area_that_the_standard_never_names_is_added(
    clause: str, area: str, added: list[str]
) -> None:
    assert unknown_at_top_level(clause, area, KNOWN) == added
