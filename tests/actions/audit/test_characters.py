"""The characters a rule allows or forbids in a name, against the names a clause gives."""

import pytest

from actions.audit.characters import (
    by_characters,
    character_rule,
    files_of_kind,
    given_names,
    named_characters,
    names_whole_subject,
)

PACKAGE_NAMES = (
    "Package names (both source and binary)",
    " consist only of lower case letters (a-z), digits (0-9), plus (+) and minus (-) signs, and periods (.).",
)
VERSIONS = (
    "The upstream_version",
    " contain only alphanumerics6 and the characters . + - ~ (full stop, plus, hyphen,\ntilde) and should "
    "start with a digit.",
)
CRON_NAMES = (
    "A cron job file name",
    " include any period or plus characters (. or +) characters as this will cause cron to ignore the file.",
)


def test_a_rule_allowing_only_some_characters_names_them_by_class_name_and_symbol() -> None:
    ruled = character_rule(VERSIONS[1], negative=False)

    assert ruled is not None
    assert ruled.allows_only
    assert {"a", "Z", "7", ".", "+", "-", "~"} <= ruled.characters
    assert "_" not in ruled.characters


def test_a_prohibition_names_the_characters_it_forbids() -> None:
    ruled = character_rule(CRON_NAMES[1], negative=True)

    assert ruled is not None
    assert not ruled.allows_only
    assert ruled.characters == {".", "+"}


@pytest.mark.parametrize(
    ("act", "negative"),
    [
        (" be installed in /usr/bin.", False),
        (" only be started by the init system.", False),
        (" include any private keys.", True),
    ],
)
def test_a_rule_naming_no_characters_has_no_character_rule(act: str, negative: bool) -> None:
    assert character_rule(act, negative) is None


def test_the_names_a_clause_gives_are_its_examples_and_what_things_are_called_or_installed_as() -> None:
    clause = (
        "Hotfix builds append the ticket number, as in 4.1.0_hf1234; the cron job is installed as "
        "/etc/cron.d/acme.agent and the tool is called AcmeCLI."
    )

    assert list(given_names(clause)) == ["4.1.0_hf1234", "acme.agent", "AcmeCLI"]
    assert list(given_names("The plug-in will be packaged as Acme_RoomKit.")) == ["Acme_RoomKit"]
    assert list(given_names("The job is shipped as /etc/cron.d/acme.nightly.")) == ["acme.nightly"]
    # "named after" says where a name comes from, not what it is.
    assert list(given_names("Each account is named after the package, with a leading underscore.")) == []


def test_characters_named_in_words_count_unless_denied() -> None:
    assert named_characters("The file name keeps the dot of our naming scheme.") == {"."}
    assert "." not in named_characters("File names are written without dots.")


@pytest.mark.parametrize(
    ("clause", "rule", "negative"),
    [
        ("Hotfix builds append the ticket to the upstream version, as in 4.1.0_hf1234.", VERSIONS, False),
        ("Package names follow the catalogue, as in Acme_Agent.", PACKAGE_NAMES, False),
        ("The cron job file name is acme.agent, as in /etc/cron.d/acme.agent.", CRON_NAMES, True),
        ("Our cron job file name keeps the dot of our naming scheme.", CRON_NAMES, True),
        # The path it is shipped as names the cron directory and the job's file name.
        ("The nightly calibration job ships as /etc/cron.d/gaugeline.calsweep.", CRON_NAMES, True),
        # What a package is called is its name, whatever the sentence goes on to deny.
        (
            "Maps move to a package called `Ledger-Maps`, so hosts that never chart can skip it.",
            PACKAGE_NAMES,
            False,
        ),
        # Packages named by examples in code form.
        (
            "Application packages carry the product family in capitals, for example `QuayPOS-core`.",
            PACKAGE_NAMES,
            False,
        ),
        # A new package, named by what it is published as.
        (
            "The grids move into their own package, published as Isobath_RefGrids to match the title.",
            PACKAGE_NAMES,
            False,
        ),
        # In code form, as Markdown writes it.
        (
            "The hourly sweep is installed as `/etc/cron.d/harbour.sweep` and logs to syslog.",
            CRON_NAMES,
            True,
        ),
        # A file in the directory named for the kind is a file of that kind, whatever verb places it.
        ("Log compaction runs at 03:10 from /etc/cron.d/harbour.compact every night.", CRON_NAMES, True),
    ],
)
def test_a_name_with_a_character_the_rule_does_not_allow_conflicts(
    clause: str, rule: tuple[str, str], negative: bool
) -> None:
    verdict = by_characters(clause, *rule, negative, "The rule says “must”", {})

    assert verdict is not None
    assert (verdict.conflict, verdict.reading) == (True, "characters")


@pytest.mark.parametrize(
    ("clause", "rule", "negative"),
    [
        ("Pre-releases carry a tilde in the upstream version, as in 4.1.0~rc2.", VERSIONS, False),
        ("Package names are lower case, as in acme-agent.", PACKAGE_NAMES, False),
        ("The cron job file is installed as /etc/cron.d/acme-agent.", CRON_NAMES, True),
        # The name it gives shows what it does, whatever characters its reasons name.
        (
            "The compaction job moved to /etc/cron.d/harbour-compact, a hyphen where a dot would make cron skip it.",
            CRON_NAMES,
            True,
        ),
    ],
)
def test_names_within_the_allowed_characters_keep_to_the_rule(
    clause: str, rule: tuple[str, str], negative: bool
) -> None:
    verdict = by_characters(clause, *rule, negative, "The rule says “must”", {})

    assert verdict is not None
    assert verdict.conflict is False


@pytest.mark.parametrize(
    "clause",
    [
        "The `Maintainer` field gives the team's list, and the `Uploaders` field lists each package owner.",
        "Function and variable names use lower case with underscores, such as `read_config` and `lane_count`.",
        # A placeholder names no package: the files are release notes.
        "Release notes are shipped as `/usr/share/doc/<package>/NEWS.gz` beside `changelog.Debian.gz`.",
    ],
)
def test_names_given_of_something_that_is_not_wholly_the_rules_subject_are_not_judged(clause: str) -> None:
    assert by_characters(clause, *PACKAGE_NAMES, False, "The rule says “must”", {}) is None


def test_a_long_named_option_gives_no_name() -> None:
    clause = "Options are parsed with `getopt_long`, and every short option has a long-named equivalent."

    assert by_characters(clause, *PACKAGE_NAMES, False, "The rule says “must”", {}) is None


def test_a_name_given_for_something_else_than_the_rules_subject_is_not_judged() -> None:
    clause = "Our release notes are published as NOTES_2024.txt, as in every release."

    assert by_characters(clause, *PACKAGE_NAMES, False, "The rule says “must”", {}) is None


def test_a_path_in_quotes_names_no_file_of_the_rules_subject() -> None:
    assert not names_whole_subject(
        "Sockets live in `/run/fjordline/`, which the unit creates rather than the package shipping it.",
        "Package names (both source and binary, see Package) must consist only of lower case letters.",
        "must",
    )
    assert names_whole_subject(
        "The nightly job is installed as /etc/cron.d/tidemark.prune.",
        "A cron job file name must not include any period or plus characters.",
        "must not",
    )


def test_a_file_is_of_the_kind_its_directory_is_named_for() -> None:
    clause = "Jobs go to /etc/cron.d, as /etc/cron.d/harbour.compact, and logs to /var/log/harbour.log."

    assert files_of_kind(clause, CRON_NAMES[0]) == ["/etc/cron.d/harbour.compact"]
    assert files_of_kind("Each job is a file in /etc/cron.d.", CRON_NAMES[0]) == []
