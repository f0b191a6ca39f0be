"""Which units of a chunk are compared with a question, and each one's text as it is embedded.

The ranking (``ranking``) and the vectors prepared ahead of questions (``unit_preparation``) must
embed the very same texts, or a prepared vector is never found: both go through here.
"""

import re

from actions.inquire.units import Unit, plain, units_of

#: Units shorter than this say too little to quote alone ("Offer advice." is kept, "(a)" is not).
MIN_UNIT_CHARS = 12
_SECTION_NUMBER = re.compile(r"^[A-Z]?[0-9.]+\s+")


def comparable_units(text: str, *, running_heads: frozenset[str], title: str) -> list[Unit]:
    """The units of a chunk's ``text`` that may answer: long enough, and not a sentence's tail."""
    return [
        unit
        for unit in units_of(text, running_heads=running_heads, title=title)
        if unit.end - unit.start >= MIN_UNIT_CHARS and not _opens_mid_sentence(text, unit)
    ]


def compared_text(text: str, unit: Unit) -> str:
    """What is embedded of ``unit`` of the chunk ``text``: the sentence on one line, after its heading.

    The heading says what the sentence is about ("Urgency: It consists of a single keyword...").
    """
    sentence = plain(text[unit.start : unit.end])
    heading = _SECTION_NUMBER.sub("", unit.heading)
    return f"{heading}: {sentence}" if heading else sentence


def _opens_mid_sentence(text: str, unit: Unit) -> bool:
    # A chunk that starts inside a sentence (its overlap with the previous chunk) yields a fragment
    # that reads wrongly alone; the whole sentence is in the previous chunk.
    return unit.start == 0 and text[:1].islower()
