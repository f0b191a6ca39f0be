"""Key terms: stemmed content words, modal and generic words left out, names in snake case as words."""

from actions.audit.key_terms import key_terms, shared_words


def test_modal_and_generic_words_are_no_key_terms() -> None:
    assert key_terms("must shall should may need required allowed optional never always") == frozenset()


def test_a_name_written_with_underscores_is_its_words() -> None:
    assert key_terms("The upstream_version must contain only alphanumerics") >= key_terms(
        "the upstream version"
    )


def test_shared_words_are_the_clauses_own_words_the_rule_shares() -> None:
    words = shared_words(
        "Staff must encrypt laptops and Backups, and backups are kept off-site.",
        "Contractors must encrypt every backup.",
    )

    assert words == ["encrypt", "Backups"]


def test_modal_words_are_never_shown_as_shared() -> None:
    assert shared_words("Staff must always encrypt laptops.", "Contractors must always sign the NDA.") == []
