"""Key terms: stemmed content words, modal and generic words left out, names in snake case as words."""

import pytest

from actions.audit.key_terms import key_terms, shared_words, split_compounds


def test_modal_and_generic_words_are_no_key_terms() -> None:
    assert key_terms("must shall should may need required allowed optional never always") == frozenset()


def test_a_name_written_with_underscores_is_its_words() -> None:
    assert key_terms("The upstream_version must contain only alphanumerics") >= key_terms(
        "the upstream version"
    )


def test_a_prefix_is_the_same_with_a_hyphen_or_without() -> None:
    assert key_terms("a pre-formatted cat page") == key_terms("preformatted cat pages")
    assert key_terms("Non-interactive programs") == key_terms("noninteractive programs")
    assert key_terms("a well-known port") != key_terms("a wellknown port")


def test_shared_words_are_the_clauses_own_words_the_rule_shares() -> None:
    words = shared_words(
        "Staff must encrypt laptops and Backups, and backups are kept off-site.",
        "Contractors must encrypt every backup.",
    )

    assert words == ["encrypt", "Backups"]


def test_modal_words_are_never_shown_as_shared() -> None:
    assert shared_words("Staff must always encrypt laptops.", "Contractors must always sign the NDA.") == []


@pytest.mark.parametrize(
    ("text", "other", "apart"),
    [
        ("We ship no logrotate file.", "Log files must be rotated.", "We ship no log rotate file."),
        # No part of it is a word of the other text, or the other text uses the word itself.
        ("The database is kept.", "Log files must be rotated.", "The database is kept."),
        ("Configure logrotate weekly.", "Use logrotate to rotate log files.", "Configure logrotate weekly."),
    ],
)
def test_a_closed_compound_of_two_words_of_the_other_text_is_set_apart(
    text: str, other: str, apart: str
) -> None:
    assert split_compounds(text, other) == apart
