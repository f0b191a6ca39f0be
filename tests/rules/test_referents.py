"""What a rule's subject refers back to, read off the statements before it."""

import pytest

from policypal.rules.referents import referent, section_area


def test_a_demonstrative_noun_refers_to_its_mention_with_the_path_after_it() -> None:
    previous = ["Every tool ships its licence text in the file /usr/share/licences/acme/LICENSE."]

    found = referent("This file must neither be compressed nor be a symbolic link.", previous)

    assert found == "file /usr/share/licences/acme/LICENSE"


def test_a_path_a_pdf_broke_after_a_slash_is_read_whole() -> None:
    previous = ["Every package must carry its licence in the file /usr/share/doc/ PACKAGE/copyright."]

    found = referent("This file must neither be compressed nor be a symbolic link.", previous)

    assert found == "file /usr/share/doc/PACKAGE/copyright"


def test_the_words_qualifying_the_noun_come_with_it() -> None:
    previous = ["For example, the cron PID file is named /run/crond.pid."]

    assert referent("The file must hold the process number in decimal.", previous) == "cron PID file"


def test_a_plural_demonstrative_finds_the_plural_mention() -> None:
    previous = ["Packages may provide a set of hook scripts in /etc/acme/hooks.d."]

    assert referent("These scripts must not fail when run twice.", previous) == "hook scripts"


def test_a_pronoun_refers_to_the_subject_of_the_statement_before() -> None:
    previous = ["The /srv/acme hierarchy holds data served to clients."]

    assert referent("It must not be written to by the installer.", previous) == "The /srv/acme hierarchy"


def test_a_chain_of_pronouns_is_followed_back_to_a_thing() -> None:
    previous = [
        "They must be executable.",
        "Hook scripts are run by the agent on every change.",
    ]

    assert referent("They should not be world-writable.", previous) == "Hook scripts"


def test_an_opening_in_this_case_does_not_stop_the_chain() -> None:
    previous = [
        "In this case they should be owned by the group allowed to run them.",
        "Some setuid programs need to be restricted to particular sets of users.",
    ]

    assert referent("They should have mode 4754.", previous) == "Some setuid programs"
    assert referent("In this case they should be owned by root.", previous[1:]) == "Some setuid programs"


@pytest.mark.parametrize(
    "statement",
    [
        "It is recommended that every package be reviewed once a year.",
        "It must be possible to rebuild the package offline.",
        "It also means that upgrades should not ask again.",
        "This is not considered a problem.",
    ],
)
def test_an_impersonal_it_or_a_summing_up_this_refers_to_nothing(statement: str) -> None:
    assert referent(statement, ["The hook directory holds scripts."]) is None


@pytest.mark.parametrize(
    "statement",
    [
        # The noun does not head the subject: "the file name" is a name.
        "The file name should be the package's name.",
        # A subject that names its own thing.
        "Log files must be rotated.",
    ],
)
def test_a_subject_naming_its_own_thing_has_no_referent(statement: str) -> None:
    assert referent(statement, ["Each package installs a file in /etc/acme."]) is None


def test_nothing_is_guessed_when_the_statement_before_does_not_name_the_noun() -> None:
    assert referent("This directory must be empty.", ["Packages install files in /etc."]) is None
    assert referent("This directory must be empty.", []) is None


def test_a_person_addressed_or_an_opening_phrase_is_no_referent() -> None:
    assert referent("It should list every change.", ["You write the changelog by hand."]) is None
    assert referent("It should list every change.", ["In this case they are kept."]) is None


def test_this_directory_refers_to_the_one_path_its_section_is_titled_by() -> None:
    sections = [
        "3. The Root Filesystem",
        "3.12. /mnt : Mount point for a temporarily mounted filesystem",
        "3.12.1. Purpose",
    ]

    assert (
        section_area("This directory must not be used by installation programs.", sections)
        == "the directory /mnt"
    )
    assert section_area("This file must not be compressed.", sections) is None
    assert section_area("This directory must be cleared.", ["3. The Root Filesystem", "3.1. Purpose"]) is None
    assert section_area("This directory is shared.", ["3.4. /usr and /usr/local : Hierarchies"]) is None
