"""Checking a quote a model gave against the texts it claims to quote: kept, repaired, or not found.

A quote is kept when it is verbatim in one of the texts. Models often re-flow PDF line breaks, change
runs of spaces or straighten typographic quotes; such a quote is repaired to the text's own characters
when its words appear in the same order in one text. Otherwise it is not found and must not be shown.
"""

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from actions.inquire.citations import is_verbatim, quote_from

_QUOTE_CHARS = "\"'“”‘’«»"
_WORD = re.compile(rf"[^\s{_QUOTE_CHARS}]+")


@dataclass(frozen=True)
class LocatedQuote:
    """Where a quote stands: the position of its text in the list given, and the verbatim quote."""

    position: int
    quote: str
    status: Literal["verbatim", "repaired"]


def locate_quote(quote: str, texts: Sequence[str]) -> LocatedQuote | None:
    """The verbatim form of ``quote`` in the first of ``texts`` that holds it, or None when none does."""
    stripped = quote.strip().strip(_QUOTE_CHARS).strip()
    if not stripped:
        return None
    for position, text in enumerate(texts):
        if is_verbatim(stripped, text):
            return LocatedQuote(position, stripped, "verbatim")
    words = _WORD.findall(stripped)
    if not words:
        return None
    # The same words in the same order, whatever whitespace or quotation marks stand between them.
    pattern = re.compile(rf"[\s{_QUOTE_CHARS}]*".join(re.escape(word) for word in words))
    for position, text in enumerate(texts):
        match = pattern.search(text)
        if match:
            repaired = quote_from(match.group(0))
            if is_verbatim(repaired, text):
                return LocatedQuote(position, repaired, "repaired")
    return None
