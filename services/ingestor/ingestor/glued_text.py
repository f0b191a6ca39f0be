"""Detecting text whose words were glued together by the extractor.

pypdf loses the spaces between words on many LaTeX-made PDFs ("theDebianarchiveandseveral"). Real
words of 20+ letters are rare even in German legal prose ("personenbezogener" has 17), while glued
lines are mostly such runs. Measured on Debian's policy.pdf (193 pages), share of letters in runs of
20+ letters: pdfminer at most 0.02 per page, pypdf 0.27 at the 5th percentile. A false positive only
costs a slower extractor, never wrong text, so the threshold sits low.
"""

import re

_LETTER_RUN = re.compile(r"[^\W\d_]+")
LONG_RUN = 20
GLUED_SHARE = 0.1
MIN_LETTERS = 200


def glue_score(text: str) -> float | None:
    """Share of letters that sit in runs of ``LONG_RUN``+ letters; None when the text is too short to judge."""
    runs = _LETTER_RUN.findall(text)
    letters = sum(len(run) for run in runs)
    if letters < MIN_LETTERS:
        return None
    return sum(len(run) for run in runs if len(run) >= LONG_RUN) / letters


def looks_glued(text: str) -> bool:
    """True when ``text`` has lost its inter-word spaces and another extractor should be tried."""
    score = glue_score(text)
    return score is not None and score > GLUED_SHARE
