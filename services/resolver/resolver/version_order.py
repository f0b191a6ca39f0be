"""The order of a title's versions, oldest first, and whether a written version names one of them.

The version label is what users read in the library and say in chat ("the 2025 edition", "v2"), so
"newer" must agree with it: labels are compared by their numbers when every version of the title
follows one scheme, dated ("2024", "Q1 2025", "March 2024") or numbered ("v2", "3.1", "Rev 4").
Upload time decides only when the labels cannot be compared ("Draft" and "Final", "v3" and "2024")
and between equal labels. A re-upload through "new version" (``previous_version_id``) is always
created after the version it supersedes, so upload time respects those links as well.
"""

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Literal

from policypal.state import DocumentRecord

_YEAR = re.compile(r"\b(?:19|20)\d{2}\b")
_NUMBERED = re.compile(
    r"(?:v|ver\.?|version|rev\.?|revision|edition|release|r)?\s*(\d+(?:\.\d+)*)", re.IGNORECASE
)
_MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")


@dataclass(frozen=True)
class VersionKey:
    """A version label read as numbers: ``scheme`` says which labels it may be compared with."""

    scheme: Literal["dated", "numbered"]
    numbers: tuple[int, ...]


def version_key(label: str) -> VersionKey | None:
    """``label`` as comparable numbers, or None when it has none ("Draft", "Final").

    Dated labels put the year first, then the rest in order ("Q1 2025" -> 2025, 1; "March 2024" ->
    2024, 3). Numbered labels drop trailing zeros, so "v2" and "2.0" are the same version.
    """
    text = label.strip().lower()
    year = _YEAR.search(text)
    if year is not None:
        rest = text[: year.start()] + " " + text[year.end() :]
        month = next(
            (i for i, name in enumerate(_MONTHS, start=1) if re.search(rf"\b{name}[a-z]*\b", rest)), None
        )
        others = [int(n) for n in re.findall(r"\d+", rest)]
        return VersionKey("dated", (int(year.group()), *([month] if month else []), *others))
    numbered = _NUMBERED.fullmatch(text)
    if numbered is None:
        return None
    numbers = [int(n) for n in numbered.group(1).split(".")]
    while len(numbers) > 1 and numbers[-1] == 0:
        numbers.pop()
    return VersionKey("numbered", tuple(numbers))


def ordered_versions(documents: Sequence[DocumentRecord]) -> list[DocumentRecord]:
    """``documents`` (one title's versions) from oldest to newest; see the module for the rules."""
    keys = [version_key(d.version) for d in documents]
    schemes = {k.scheme if k is not None else None for k in keys}
    if len(schemes) == 1 and None not in schemes:
        numbered = dict(zip((d.document_id for d in documents), keys, strict=True))
        return sorted(documents, key=lambda d: (_numbers(numbered[d.document_id]), _uploaded(d)))
    return sorted(documents, key=_uploaded)


def names_version(written: str, version: str) -> bool:
    """Whether ``written`` ("2025", "v2", "3.1") names the version labelled ``version``.

    A bare year names every dated label of that year ("2025" names "Q1 2025"); the caller asks the
    user when that leaves several.
    """
    if re.sub(r"\W+", "", written.lower()) == re.sub(r"\W+", "", version.lower()):
        return True
    wanted, label = version_key(written), version_key(version)
    if wanted is None or label is None:
        return False
    if wanted.scheme == "dated" and label.scheme == "dated":
        return label.numbers[: len(wanted.numbers)] == wanted.numbers
    if wanted.scheme == "numbered" and label.scheme == "numbered":
        return wanted.numbers == label.numbers
    return False


def _numbers(key: VersionKey | None) -> tuple[int, ...]:
    return key.numbers if key is not None else ()


def _uploaded(document: DocumentRecord) -> datetime:
    return document.created_at
