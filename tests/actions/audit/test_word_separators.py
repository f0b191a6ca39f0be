"""Names with words run together in capitals, against a rule to separate words with underscores."""

import pytest

from actions.audit.judgement import judge
from actions.audit.word_separators import camel_case_names, separates_words_by_underscores

RULE = "Please use underscores to separate words in a name, so that the Emacs word commands can be useful within them."


def test_the_rule_on_word_separators_is_recognised() -> None:
    assert separates_words_by_underscores(RULE)
    assert not separates_words_by_underscores("In a GNU program, names should be English.")


@pytest.mark.parametrize(
    "clause",
    [
        "Helper functions are named like readConfigFile and flushQueue.",
        "Variables follow the mixed case naming of our Go services.",
    ],
)
def test_names_in_camel_case_break_it(clause: str) -> None:
    assert camel_case_names(clause) is not None
    verdict = judge(clause, RULE, "recommendation", "use")
    assert verdict is not None
    assert (verdict.conflict, verdict.reading) == (True, "camel_case")


@pytest.mark.parametrize(
    "clause",
    [
        "Functions are named read_config_file and flush_queue, never in camelCase.",
        "The serial port is named ttyS0 on every unit.",
        "We ship the iOS companion app separately.",
    ],
)
def test_names_with_underscores_or_no_names_in_camel_case_break_nothing(clause: str) -> None:
    assert camel_case_names(clause) is None
