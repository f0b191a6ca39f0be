"""Options and variable names a rule requires by name, and clauses that go without them."""

import pytest

from actions.audit.identifiers import (
    assigned_identifiers,
    denied_identifiers,
    identifiers,
    lacked_identifiers,
    required_identifiers,
)
from actions.audit.judgement import judge


def test_options_and_variable_names_are_read_by_their_bare_name() -> None:
    found = identifiers(
        "Compile with ‘-g’, accept --silent, honour DEB_BUILD_OPTIONS and TMPDIR under POSIX."
    )

    assert found == {
        "g": "-g",
        "silent": "--silent",
        "deb_build_options": "DEB_BUILD_OPTIONS",
        "tmpdir": "TMPDIR",
    }


def test_an_option_in_inline_code_is_read_by_its_bare_name() -> None:
    assert identifiers("does not need to implement `--help` or `--version`.") == {
        "help": "--help",
        "version": "--version",
    }


def test_names_in_code_form_are_identifiers() -> None:
    found = identifiers("Never compute it from argv[0]; call malloc() and set retention_days.")

    assert found == {"argv[0]": "argv[0]", "malloc()": "malloc()", "retention_days": "retention_days"}


def test_hyphenated_words_and_dashes_name_no_option() -> None:
    assert identifiers("A non-free, x-ray e-mail - sent now — or later.") == {}


def test_a_clause_denies_an_identifier_only_inside_its_denial() -> None:
    assert denied_identifiers("The Makefiles build without -g, unless edited by hand.") == {"g": "-g"}
    assert denied_identifiers("The Makefiles build with -g and do not strip the binaries.") == {}


def test_an_identifier_the_rule_turns_away_from_is_not_required() -> None:
    assert required_identifiers("accept --verbose rather than -v") == {"verbose": "--verbose"}


def test_an_obligation_naming_an_option_is_broken_by_a_clause_denying_it_by_name() -> None:
    rule = (
        "By default, the Make rules should compile and link with ‘-g’, so that executable programs have "
        "debugging symbols.",
        "recommendation",
        "should",
    )

    without = judge("Our Makefiles build without -g unless someone edits them by hand.", *rule)
    with_it = judge("Our Makefiles always build with -g.", *rule)

    assert without is not None
    assert (without.conflict, without.reading) == (True, "lacks_identifier")
    assert "-g" in without.rationale
    assert with_it is None or not with_it.conflict


def test_doing_what_a_rule_rules_out_by_a_name_in_code_form_is_a_forbidden_act() -> None:
    rule = (
        "The program’s name should be a constant string; don’t compute it from argv[0].",
        "recommendation",
        "should",
    )

    verdict = judge("The program name printed by --version is taken from argv[0] at start-up.", *rule)
    constant = judge("The program name printed by --version is a constant string.", *rule)

    assert verdict is not None
    assert (verdict.conflict, verdict.reading) == (True, "forbidden_act")
    assert constant is None or not constant.conflict


@pytest.mark.parametrize(
    ("clause", "lacked"),
    [
        ("Our Makefiles build without -g.", {"g"}),
        ("The tool has no --version option any more.", {"version"}),
        ("It no longer understands --help.", {"help"}),
        ("Makefiles never assign a value to DESTDIR; the pipeline passes it to make install.", set()),
        # Taking it away leaves the program without it; not taking it away, or taking another, does not.
        ("Release 3 removes the --dry-run option from the installer.", {"dry-run"}),
        ("We removed the old -x option; --help now lists every option.", set()),
        ("We have not removed the --help option.", set()),
    ],
)
def test_a_clause_goes_without_an_identifier_only_when_it_denies_having_it(
    clause: str, lacked: set[str]
) -> None:
    assert set(lacked_identifiers(clause, frozenset({"support"}))) == lacked


@pytest.mark.parametrize(
    ("text", "assigned"),
    [
        ("We set DESTDIR = /srv/stage in the Makefile.", {"destdir"}),
        ("Makefile.in now has PREFIX?=/opt/tide near the top.", {"prefix"}),
        ("Stage with make CC=gcc DESTDIR=/tmp/stage install.", set()),
        ("Compare with == in tests, never with =.", set()),
    ],
)
def test_an_assignment_outside_a_command_line_sets_what_it_names(text: str, assigned: set[str]) -> None:
    assert assigned_identifiers(text) == assigned
