"""Word-level differences between two related sentences."""

from actions.wording_differences import Change, changed_words, same_wording


def test_changed_words_are_quoted_as_written() -> None:
    before = "Records must be retained for at least seven years."
    after = "Records must be retained for at least ten years."
    assert changed_words(before, after) == [Change("seven", "ten")]


def test_same_wording_ignores_case_spacing_and_edge_punctuation() -> None:
    assert same_wording("Staff must train\nevery year.", "staff must  train every year")
    assert not same_wording("Staff must train every year.", "Staff may train every year.")
