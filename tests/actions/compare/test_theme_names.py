"""Themes are named by a heading the documents share, else by a key phrase, never by a bag of words."""

import numpy as np

from actions.compare.provisions import section_number, section_title
from actions.compare.theme_names import key_phrases, named_themes
from actions.themes import Theme

TEXTS = [
    "Customer records must be retained for seven years after the account is closed.",
    "Retained customer records must be kept in a form the regulator can read.",
    "Customer records are kept for two years after the account is closed.",
    "Security incidents must be reported to the regulator within 72 hours.",
    "Security incidents are reported to the regulator within 30 days.",
    "The report describes the security incidents and the customers affected.",
]
OWNERS = [0, 0, 1, 0, 1, 1]


def _themes() -> list[Theme]:
    centre = np.zeros(384, dtype=np.float32)
    return [
        Theme("customer, records, retained", [0, 1, 2], centre),
        Theme("security, incidents", [3, 4, 5], centre),
    ]


def test_a_heading_shared_by_two_documents_names_the_theme() -> None:
    sections = [
        "4.1. Record retention",
        "4.1. Record retention",
        "Article 2. Record retention",
        None,
        None,
        None,
    ]
    named = named_themes(_themes(), TEXTS, sections, OWNERS)
    assert named[0].name == "Record retention"
    assert named[0].members == [0, 1, 2]


def test_without_headings_a_key_phrase_both_documents_use_names_it() -> None:
    named = named_themes(_themes(), TEXTS, [None] * len(TEXTS), OWNERS)
    assert [theme.name for theme in named] == ["Customer records", "Security incidents"]


def test_key_phrases_are_runs_of_content_words_within_a_sentence_part() -> None:
    phrases = key_phrases("Security incidents must be reported. Customer records, however, stay.")
    assert "security incidents" in phrases
    assert "customer records" in phrases
    assert "reported customer" not in phrases


def test_section_numbers_and_titles() -> None:
    assert (section_number("A.2. Calling for a vote"), section_title("A.2. Calling for a vote")) == (
        "A.2",
        "calling for a vote",
    )
    assert (section_number("TERMS AND CONDITIONS"), section_title("TERMS AND CONDITIONS")) == (
        None,
        "terms and conditions",
    )
    assert section_number("Article 3. Records") == "3"
