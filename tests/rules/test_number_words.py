import pytest

from policypal.rules.number_words import CARDINALS, word_value


@pytest.mark.parametrize(
    ("word", "value"),
    [
        ("three", 3),
        ("Fourteen", 14),
        ("TWENTY", 20),
        ("twenty-one", 21),
        ("TwentyOne", 21),
        ("ninety nine", 99),
    ],
)
def test_number_words_have_their_value(word: str, value: int) -> None:
    assert word_value(word) == value


@pytest.mark.parametrize("word", ["often", "twentyten", "tenfold", "", "seventeenth"])
def test_other_words_are_not_numbers(word: str) -> None:
    assert word_value(word) is None


def test_cardinals_cover_units_teens_tens_and_large_units() -> None:
    assert {CARDINALS[w] for w in ("zero", "nineteen", "seventy", "hundred", "thousand", "million")} == {
        0,
        19,
        70,
        100,
        1_000,
        1_000_000,
    }
