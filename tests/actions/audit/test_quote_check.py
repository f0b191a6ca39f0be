"""Quotes a model gave, checked against the texts they claim to quote."""

from actions.audit.quote_check import locate_quote

CHUNK = "Record retention. Customer records must be retained for at least\nseven years after the account is closed."


def test_a_verbatim_quote_is_kept_and_located() -> None:
    found = locate_quote("Record retention.", ["other text", CHUNK])
    assert found is not None
    assert (found.position, found.quote, found.status) == (1, "Record retention.", "verbatim")


def test_reflowed_whitespace_and_quotation_marks_are_repaired_to_the_text() -> None:
    found = locate_quote("“at least seven  years after the account”", [CHUNK])
    assert found is not None
    assert (found.quote, found.status) == ("at least\nseven years after the account", "repaired")
    assert found.quote in CHUNK


def test_an_invented_or_empty_quote_is_not_found() -> None:
    assert locate_quote("at least ten years after the account", [CHUNK]) is None
    assert locate_quote("  “ ”  ", [CHUNK]) is None
