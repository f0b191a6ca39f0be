"""Word-level differences between two related sentences."""

from actions.wording_differences import Change, changed_words, same_wording, text_key, word_changes, words


def test_changed_words_are_quoted_as_written() -> None:
    before = "Records must be retained for at least seven years."
    after = "Records must be retained for at least ten years."
    assert changed_words(before, after) == [Change("seven", "ten")]


def test_same_wording_ignores_case_spacing_and_edge_punctuation() -> None:
    assert same_wording("Staff must train\nevery year.", "staff must  train every year")
    assert not same_wording("Staff must train every year.", "Staff may train every year.")


def test_words_join_line_end_hyphenation_and_drop_enumerators_and_quotes() -> None:
    keys = [w.key for w in words("3. The regis-\nter is kept “as is” -- always.")]
    assert keys == ["The", "register", "is", "kept", "as", "is", "-", "always."]
    assert text_key('(b) Minutes are kept for "ten years".') == text_key("Minutes are kept for ‘ten years’.")


def test_word_changes_are_the_runs_that_differ() -> None:
    before, after = words("A vote needs seven members."), words("A vote needs at least five members.")
    [run] = word_changes(before, after)
    assert [w.written for w in before[run.i1 : run.i2]] == ["seven"]
    assert [w.written for w in after[run.j1 : run.j2]] == ["at", "least", "five"]
