"""The form a rule sets for messages, against the example messages a clause gives."""

import pytest

from actions.audit.message_format import by_message_format, gives_example_message, sets_message_form

SAID = "The rule says “should”"
NONINTERACTIVE = (
    "Error messages from other noninteractive programs",
    "should look like this: program:sourcefile:lineno: message",
)
CAPITAL = (
    "The string message",
    "should not begin with a capital letter when it follows a program name and/or file name.",
)
PERIOD = ("Error messages from interactive programs", "should not end with a period.")


@pytest.mark.parametrize(
    "clause",
    [
        'Error messages now use our layout, for example "[gullwing] E1042 - Unable to open spool file."',
        "Diagnostics put the line number first, for example `17 [error] layouts/page.qtpl: unclosed block`.",
    ],
)
def test_an_example_out_of_the_form_the_rule_sets_conflicts(clause: str) -> None:
    verdict = by_message_format(clause, *NONINTERACTIVE, False, SAID)

    assert verdict is not None
    assert (verdict.conflict, verdict.reading) == (True, "message_format")


def test_an_example_in_the_form_keeps_the_rule() -> None:
    verdict = by_message_format(
        'Error messages name the tool first, for example "gaugeq: stations.csv:12: unknown gauge id".',
        *NONINTERACTIVE,
        False,
        SAID,
    )

    assert verdict is not None
    assert verdict.conflict is False


@pytest.mark.parametrize(
    ("clause", "conflict"),
    [
        ('Error messages are full sentences, for example "gaugeq: Could not read station table."', True),
        ("Diagnostics read like prose, for example brindle-scan: survey.csv: Header row is missing", True),
        # An example in parentheses, after the names it follows.
        ("After the program name the message reads as a sentence (quayd: Cannot bind port 80.).", True),
        ("After the program name the message stays lower case (quayd: cannot bind port 80).", False),
        # Unquoted, after a verb of what it reads, up to the comma that ends it.
        (
            "The error for a failed upload should read tidectl: Upload refused by mirror, and nothing more.",
            True,
        ),
        (
            "The error for a failed upload prints tidectl: upload refused by mirror, and exits with status 2.",
            False,
        ),
        ('Error messages start in lower case, for example "gaugeq: cannot read station table"', False),
    ],
)
def test_a_message_beginning_with_a_capital_after_a_program_name_conflicts(
    clause: str, conflict: bool
) -> None:
    verdict = by_message_format(clause, *CAPITAL, True, SAID)

    assert verdict is not None
    assert verdict.conflict is conflict


def test_a_message_ending_with_a_period_conflicts() -> None:
    verdict = by_message_format(
        'Error messages read like "gaugeq: cannot read station table."', *PERIOD, True, SAID
    )

    assert verdict is not None
    assert verdict.conflict is True


@pytest.mark.parametrize(
    "clause",
    [
        # No example: the form described in words is left to the other readings.
        "Error messages start with a capital letter and end with a full stop.",
        # An example of usage messages is none of the error messages the rule binds.
        'Usage messages read like "Usage: gaugeq [OPTION]... FILE".',
        # An example of something else than a message.
        'The cron job is installed as "gaugeq.nightly".',
    ],
)
def test_a_clause_giving_no_example_of_the_messages_the_rule_binds_is_not_judged(clause: str) -> None:
    assert by_message_format(clause, *NONINTERACTIVE, False, SAID) is None


def test_the_rules_setting_a_form_and_the_clauses_giving_examples_are_recognised() -> None:
    assert sets_message_form(" ".join(NONINTERACTIVE), "should", False)
    assert sets_message_form(" ".join(CAPITAL), "should not", True)
    assert not sets_message_form("Error messages should be written in English.", "should", False)
    assert gives_example_message('Errors read like "tool: cannot open x"')
    assert not gives_example_message("Errors are written in English.")
