"""British spellings read as American ones before stemming, and only those listed."""

import pytest

from actions.audit.key_terms import key_terms
from actions.audit.spelling import american_spelling


@pytest.mark.parametrize(
    ("british", "american"),
    [
        ("a copy of the licence", "a copy of this license"),
        ("Licences granted to organisations", "licenses granted to organizations"),
        ("behavioural changes at the data centre", "behavioral changes at the data center"),
        ("the logs are analysed and summarised", "the logs are analyzed and summarized"),
    ],
)
def test_british_and_american_spellings_share_their_terms(british: str, american: str) -> None:
    assert key_terms(british) == key_terms(american)


@pytest.mark.parametrize(
    "text", ["an analysis of the organism", "otherwise, advertise the exercise", "four hours"]
)
def test_words_that_only_look_british_are_left_alone(text: str) -> None:
    assert american_spelling(text) == text


def test_capitals_are_kept() -> None:
    assert american_spelling("Licence and Organisation") == "License and Organization"
