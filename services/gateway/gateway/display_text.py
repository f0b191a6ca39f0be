"""Names and titles people see: cleaned of characters that hide or disguise what they say.

A right-to-left override turns "invoice_gpj.exe" into what reads as "invoice_exe.jpg"; zero-width
characters make two titles that look alike differ (or "Policy" match nothing anyone can type); control
characters break the lines they are shown on. So stored names and titles keep only what a reader sees:
format characters (Unicode Cf: bidirectional controls, zero-width spaces, soft hyphens, tags) are
removed, except the zero-width joiners inside a word that Persian, Indic scripts and emoji sequences
need; control and separator characters become spaces; runs of white space become one space.
"""

import unicodedata

from pydantic import AfterValidator

# Joiners that shape the letters or emoji either side of them; removed at a word's edge.
_JOINERS = frozenset({"\u200c", "\u200d"})
# Control characters (Cc), line and paragraph separators (Zl, Zp): each becomes a space.
_AS_SPACE = frozenset({"Cc", "Zl", "Zp"})
# Format characters (Cf), lone surrogates (Cs) and private-use code points (Co): removed.
_REMOVED = frozenset({"Cf", "Cs", "Co"})


def clean_display_text(text: str) -> str:
    """``text`` as a reader sees it: NFC, invisible and disguising characters removed, spaces collapsed."""
    text = unicodedata.normalize("NFC", text)
    kept: list[str] = []
    for index, char in enumerate(text):
        category = unicodedata.category(char)
        if category in _AS_SPACE:
            kept.append(" ")
        elif char in _JOINERS:
            before = text[index - 1] if index else " "
            after = text[index + 1] if index + 1 < len(text) else " "
            if _visible(before) and _visible(after):
                kept.append(char)
        elif category not in _REMOVED:
            kept.append(char)
    return " ".join("".join(kept).split())


def _visible(char: str) -> bool:
    return not char.isspace() and unicodedata.category(char) not in _REMOVED | _AS_SPACE


def visible_text(text: str) -> str:
    """``text`` cleaned; raises ``ValueError`` (a 422 in a request body) when nothing visible is left."""
    cleaned = clean_display_text(text)
    if not cleaned:
        raise ValueError("must contain visible characters")
    return cleaned


#: A name or title as it is stored: cleaned, and refused (422) when nothing visible is left.
VisibleText = AfterValidator(visible_text)
