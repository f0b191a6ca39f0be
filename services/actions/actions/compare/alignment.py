"""Two versions aligned: sections paired, then provisions paired, so only real edits remain.

Sections pair by number and title, then by title alone (renumbered), then by content (retitled).
Provisions worded the same (by their word keys) pair in reading order (longest common sequence);
the same wording found elsewhere is a move. Of what remains, a provision pairs with the most similar
one of the other version (character similarity of the keys) when similar enough: nearer the same
place or in a paired section it may differ more. What has no counterpart was added or removed.
"""

import difflib
from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np
from rapidfuzz import fuzz, process

from actions.compare.provisions import Provision, section_number, section_title

ChangeKind = Literal["added", "removed", "moved", "changed"]

#: Character similarity (0-100) of two provisions' keys that makes them one provision reworded:
#: in the same stretch of text or in paired sections, elsewhere in the document (a move).
NEAR_SIMILARITY = 55.0
FAR_SIMILARITY = 75.0
#: Titles this similar (0-100) name the same section.
TITLE_SIMILARITY = 85.0
#: Share of one section's provisions found worded the same in another that makes them one section.
CONTENT_SHARE = 0.5


@dataclass(frozen=True)
class Counterpart:
    """A provision of the first version and its counterpart in the second (or None: removed/added)."""

    kind: ChangeKind
    before: Provision | None
    after: Provision | None
    similarity: float = 100.0


@dataclass(frozen=True)
class Alignment:
    """What changed between two versions, in the second version's reading order, and paired sections."""

    changes: list[Counterpart]
    sections: dict[str | None, str | None]
    unchanged: int


def align_versions(first: Sequence[Provision], second: Sequence[Provision]) -> Alignment:
    """The changes from ``first`` to ``second``: changed, moved, added and removed provisions."""
    sections = pair_sections(first, second)
    matcher = difflib.SequenceMatcher(a=[p.key for p in first], b=[p.key for p in second], autojunk=False)
    left: list[tuple[int, int]] = []  # (position in the first version, stretch of text it is in)
    right: list[tuple[int, int]] = []
    # Where each provision of the first version stands in the second's reading order.
    anchors: list[float] = []
    unchanged = 0
    for gap, (tag, i1, i2, j1, j2) in enumerate(matcher.get_opcodes()):
        if tag == "equal":
            unchanged += i2 - i1
            anchors += [float(j1 + k) for k in range(i2 - i1)]
            continue
        left += [(i, gap) for i in range(i1, i2)]
        right += [(j, gap) for j in range(j1, j2)]
        anchors += [j1 - 0.5] * (i2 - i1)

    changes: list[Counterpart] = []
    left, right = _moves(first, second, left, right, changes)
    paired_left, paired_right = _rewordings(first, second, left, right, sections, changes)
    changes += [Counterpart("removed", first[i], None, 0.0) for i, _ in left if i not in paired_left]
    changes += [Counterpart("added", None, second[j], 0.0) for j, _ in right if j not in paired_right]
    changes.sort(key=lambda c: _reading_order(c, anchors))
    return Alignment(changes, sections, unchanged)


def pair_sections(first: Sequence[Provision], second: Sequence[Provision]) -> dict[str | None, str | None]:
    """Each section of ``first`` mapped to its counterpart in ``second`` (sections without one left out)."""
    ours, theirs = _sections(first), _sections(second)
    pairs: dict[str | None, str | None] = {}
    taken: set[str | None] = set()

    def pair(accept: Callable[[str | None, str | None], bool]) -> None:
        for a in ours:
            if a in pairs:
                continue
            for b in theirs:
                if b not in taken and accept(a, b):
                    pairs[a] = b
                    taken.add(b)
                    break

    pair(lambda a, b: a == b)
    pair(lambda a, b: section_number(a) == section_number(b) and _title_like(a, b))
    pair(lambda a, b: bool(section_title(a)) and _title_like(a, b))
    keys = {b: Counter(p.key for p in theirs[b]) for b in theirs}
    pair(lambda a, b: _shared_share(ours[a], keys[b]) >= CONTENT_SHARE)
    return pairs


def _sections(provisions: Sequence[Provision]) -> dict[str | None, list[Provision]]:
    grouped: dict[str | None, list[Provision]] = defaultdict(list)
    for provision in provisions:
        grouped[provision.section].append(provision)
    return dict(grouped)


def _title_like(a: str | None, b: str | None) -> bool:
    return fuzz.ratio(section_title(a), section_title(b)) >= TITLE_SIMILARITY


def _shared_share(provisions: Sequence[Provision], keys: Counter[str]) -> float:
    found = sum(1 for p in provisions if keys[p.key] > 0)
    return found / len(provisions) if provisions else 0.0


def _moves(
    first: Sequence[Provision],
    second: Sequence[Provision],
    left: list[tuple[int, int]],
    right: list[tuple[int, int]],
    changes: list[Counterpart],
) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    """Provisions worded the same but out of order: moves. Returns what is still unpaired."""
    waiting: dict[str, list[tuple[int, int]]] = defaultdict(list)
    for j, gap in right:
        waiting[second[j].key].append((j, gap))
    moved_left, moved_right = set(), set()
    for i, _ in left:
        candidates = waiting.get(first[i].key)
        if candidates:
            j, _ = candidates.pop(0)
            moved_left.add(i)
            moved_right.add(j)
            changes.append(Counterpart("moved", first[i], second[j]))
    return (
        [item for item in left if item[0] not in moved_left],
        [item for item in right if item[0] not in moved_right],
    )


def _rewordings(
    first: Sequence[Provision],
    second: Sequence[Provision],
    left: list[tuple[int, int]],
    right: list[tuple[int, int]],
    sections: dict[str | None, str | None],
    changes: list[Counterpart],
) -> tuple[set[int], set[int]]:
    """Pair the remaining provisions that are one provision reworded, most similar first."""
    if not left or not right:
        return set(), set()
    scores = process.cdist(
        [first[i].key.casefold() for i, _ in left],
        [second[j].key.casefold() for j, _ in right],
        scorer=fuzz.ratio,
        dtype=np.float32,
    )
    candidates = []
    for a, b in zip(*np.nonzero(scores >= NEAR_SIMILARITY), strict=True):
        (i, gap_i), (j, gap_j) = left[a], right[b]
        section = first[i].section
        near = gap_i == gap_j or (section in sections and sections[section] == second[j].section)
        if near or scores[a, b] >= FAR_SIMILARITY:
            candidates.append((float(scores[a, b]) + (5.0 if near else 0.0), i, j, near))
    candidates.sort(key=lambda c: (-c[0], c[1], c[2]))
    paired_left: set[int] = set()
    paired_right: set[int] = set()
    for score, i, j, near in candidates:
        if i in paired_left or j in paired_right:
            continue
        paired_left.add(i)
        paired_right.add(j)
        changes.append(Counterpart("changed" if near else "moved", first[i], second[j], score))
    return paired_left, paired_right


def _reading_order(change: Counterpart, anchors: list[float]) -> tuple[float, int]:
    """Second version's reading order; a removed provision stands where its old neighbours went."""
    if change.after is not None:
        return (float(change.after.position), 0)
    assert change.before is not None
    return (anchors[change.before.position], change.before.position)
