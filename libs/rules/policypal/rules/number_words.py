"""Numbers written as words, as documents write them ("fifteen days", "CHAPTER TWENTY-ONE")."""

from typing import Final

_UNITS: Final = [
    "zero",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
    "thirteen",
    "fourteen",
    "fifteen",
    "sixteen",
    "seventeen",
    "eighteen",
    "nineteen",
]
_TENS: Final = {
    "twenty": 20,
    "thirty": 30,
    "forty": 40,
    "fifty": 50,
    "sixty": 60,
    "seventy": 70,
    "eighty": 80,
    "ninety": 90,
}

#: Every cardinal word and its value: zero to nineteen, the tens, and the large units.
CARDINALS: Final[dict[str, int]] = (
    {word: value for value, word in enumerate(_UNITS)}
    | _TENS
    | {"hundred": 100, "thousand": 1_000, "million": 1_000_000}
)

#: A regex alternation of the cardinal words, the longest first ("sixteen" before "six").
CARDINAL_ALTERNATION: Final = "|".join(sorted(CARDINALS, key=len, reverse=True))


def word_value(word: str) -> int | None:
    """The value of one number word, with compound tens written together or hyphenated:
    "three" → 3, "twenty-one" / "TwentyOne" → 21; None when ``word`` is not a number."""
    plain = word.lower().replace("-", "").replace(" ", "")
    if plain in CARDINALS:
        return CARDINALS[plain]
    for tens, value in _TENS.items():
        rest = plain[len(tens) :]
        if plain.startswith(tens) and rest in CARDINALS and 0 < CARDINALS[rest] < 10:
            return value + CARDINALS[rest]
    return None
