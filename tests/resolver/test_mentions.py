"""Mentions are taken out of the question, and nothing else is."""

from resolver.mentions import strip_mentions


def test_strips_action_and_document_titles() -> None:
    text = "@Inquire @Bank Negara 2024 how long must customer records be kept?"
    assert strip_mentions(text, ["Bank Negara 2024"]) == "how long must customer records be kept?"


def test_longest_title_wins_and_matching_ignores_case() -> None:
    text = "@inquire @bank negara 2024 and @Bank Negara: capital ratio?"
    assert strip_mentions(text, ["Bank Negara", "Bank Negara 2024"]) == "and: capital ratio?"


def test_keeps_unknown_at_signs_and_email_addresses() -> None:
    text = "@Inquire @doc-1 who is compliance@bank.example or @someone?"
    assert strip_mentions(text, ["doc-1"]) == "who is compliance@bank.example or @someone?"


def test_only_mentions_leaves_nothing() -> None:
    assert strip_mentions("@Inquire @Policy A", ["Policy A"]) == ""


def test_a_dot_that_starts_a_word_keeps_its_space() -> None:
    text = "@Inquire @Doc can my .deb ship .so files ?"
    assert strip_mentions(text, ["Doc"]) == "can my .deb ship .so files?"
