"""Several versions of one title in scope: which one answers, and how the answer says so.

A question that names a version ("in constitution 1.7", "v2") is answered from that version. Any
other question is answered from the newest one, since an old version's passage that still reads
well is the most likely wrong answer. Versions are ordered by the numbers of their labels ("1.9"
after "1.7", "2024" after "2023"); a title whose labels cannot all be read as numbers gets no
preference.
"""

import re
from collections.abc import Iterable
from dataclasses import dataclass

from policypal.vectorstore import ChunkPoint

_NUMBERS = re.compile(r"\d+(?:[._-]\d+)*")


@dataclass(frozen=True)
class VersionChoice:
    """For one title found in several versions: the version preferred and every version found."""

    title: str
    preferred: str
    versions: tuple[str, ...]
    named: bool

    def describe(self, version: str) -> str:
        """How the answer introduces a passage of ``version`` of this title."""
        if version != self.preferred:
            return f"version {version}, not the preferred {self.preferred}"
        if self.named:
            return f"version {version}, as asked"
        others = ", ".join(v for v in self.versions if v != version)
        return f"version {version}, the newest; also in scope: {others}"


def version_numbers(label: str) -> tuple[int, ...] | None:
    """The numbers of a version label ("v1.7" → (1, 7), "2022-03-23" → (2022, 3, 23)), or None."""
    found = _NUMBERS.search(label)
    if found is None:
        return None
    numbers = [int(n) for n in re.split(r"[._-]", found.group())]
    # "2" and "2.0" are the same version.
    while len(numbers) > 1 and numbers[-1] == 0:
        numbers.pop()
    return tuple(numbers)


def names_version(query: str, label: str) -> bool:
    """Whether ``query`` names version ``label`` ("1.7", "v1.7", "version 1.7"), not a longer number."""
    return re.search(rf"(?<![\w.])v?{re.escape(label)}(?![\w]|\.\d)", query, re.IGNORECASE) is not None


def version_choices(chunks: Iterable[ChunkPoint], query: str) -> dict[str, VersionChoice]:
    """The choice made for every title that ``chunks`` show in more than one version, by title."""
    versions: dict[str, set[str]] = {}
    titles: dict[str, str] = {}
    for chunk in chunks:
        key = chunk.title.casefold()
        versions.setdefault(key, set()).add(chunk.version)
        titles.setdefault(key, chunk.title)
    choices: dict[str, VersionChoice] = {}
    for key, found in versions.items():
        if len(found) < 2:
            continue
        ordered = _ordered(found)
        named = [v for v in found if names_version(query, v)]
        if named:
            choices[key] = VersionChoice(titles[key], max(named, key=len), ordered, named=True)
        elif ordered:
            choices[key] = VersionChoice(titles[key], ordered[-1], ordered, named=False)
    return choices


def _ordered(versions: set[str]) -> tuple[str, ...]:
    """``versions`` oldest first; empty when one of them has no numbers (no order can be trusted)."""
    keyed = [(version_numbers(v), v) for v in versions]
    if any(numbers is None for numbers, _ in keyed):
        return ()
    return tuple(v for _, v in sorted(keyed, key=lambda pair: (pair[0] or (), pair[1])))


def is_passed_over(chunk: ChunkPoint, choices: dict[str, VersionChoice]) -> bool:
    """Whether ``chunk`` belongs to a version other than the one preferred for its title."""
    choice = choices.get(chunk.title.casefold())
    return choice is not None and chunk.version != choice.preferred
