"""The redline of 2-5 versions of one document: what was added, removed, moved and changed.

Each pair of versions (consecutive ones, plus the first against the last when there are three or
more) is aligned provision by provision (``alignment``); a changed provision is shown in both
wordings with the changed words marked (~~removed~~, **added**), its section and page in each
version, and both texts cited from the chunks that hold them. Edits that change what a provision
requires (``substance``) come first, the rest in reading order.
"""

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from actions.citing.markers import CitationMarkers
from actions.compare.alignment import Alignment, Counterpart, align_versions
from actions.compare.provisions import Provision, section_title
from actions.compare.substance import Substance, provision_substance, substance
from actions.drafting import document_name
from actions.extracts import Extract
from actions.lifecycle.request import ActionAnswer
from actions.wording_differences import Word, WordChange, word_changes
from policypal.contracts import RedlineComparison, ResolvedDocument
from policypal.contracts.comparison import (
    ChangeCounts,
    ProvisionChange,
    ProvisionWording,
    SectionEdits,
    VersionPairRedline,
)
from policypal.rules import quote_around

_KIND_RANK = {"changed": 0, "moved": 1, "added": 2, "removed": 3}
#: Changes shown in the answer for one pair of versions (every change is in the structured result).
SHOWN_PER_PAIR = 60
#: ... at least this many each when several pairs share the answer.
SHOWN_AT_LEAST = 15
#: Changes listed in the structured result per pair.
MAX_LISTED = 1000
#: A section whose provisions stand, worded the same, this much in the other version is not new there.
KNOWN_SHARE = 0.5
#: Words of context kept around a change when a provision is long.
CONTEXT_WORDS = 12
#: Longer provisions are shown around their changes only.
SHOWN_WHOLE_CHARS = 360

OFFLINE_NOTE = (
    "Compared word by word without a language model: spacing, hyphenation at line ends, page headers, "
    "renumbering and quote styles are not counted as changes. Read the cited pages for full context."
)


@dataclass(frozen=True)
class VersionText:
    """One version: the document as resolved and its provisions in reading order."""

    document: ResolvedDocument
    provisions: list[Provision]


@dataclass(frozen=True)
class RedlineItem:
    """One reported change: the counterparts, the changed word runs and what the edit changes."""

    change: Counterpart
    runs: list[WordChange]
    substance: list[Substance]

    @property
    def substantive(self) -> bool:
        """Whether it changes what a provision requires (or adds or removes a rule)."""
        return bool(self.substance)


@dataclass(frozen=True)
class PairRedline:
    """The redline from ``first`` to ``second``."""

    first: VersionText
    second: VersionText
    alignment: Alignment
    items: list[RedlineItem]


def version_pairs(count: int) -> list[tuple[int, int]]:
    """Consecutive pairs of ``count`` versions, then the first against the last when there are 3+."""
    pairs = [(n, n + 1) for n in range(count - 1)]
    return [*pairs, (0, count - 1)] if count >= 3 else pairs


def redline(first: VersionText, second: VersionText) -> PairRedline:
    """The changes from ``first`` to ``second``, those bearing on more of what is required first."""
    alignment = align_versions(first.provisions, second.provisions)
    items = [item for change in alignment.changes if (item := _item(change)) is not None]
    # The more a change bears on what is required, the earlier; an edit inside a kept provision
    # before a provision added or removed whole; ties keep the reading order.
    ordered = sorted(items, key=lambda item: (-len(item.substance), _KIND_RANK[item.change.kind]))
    return PairRedline(first, second, alignment, ordered)


def compose_redline(versions: Sequence[VersionText], *, reason: str) -> ActionAnswer:
    """The redline answer of 2-5 versions (in the order given: oldest first)."""
    pairs = [redline(versions[a], versions[b]) for a, b in version_pairs(len(versions))]
    shown = max(SHOWN_AT_LEAST, SHOWN_PER_PAIR // len(pairs))
    markers = CitationMarkers()
    lines = [
        "Redline of " + " → ".join(document_name(v.document) for v in versions) + f". {reason}",
        "",
    ]
    results = []
    for pair in pairs:
        section, result = _pair_section(pair, markers, shown)
        lines += [*section, ""]
        results.append(result)
    lines.append(OFFLINE_NOTE)
    return ActionAnswer(
        answer="\n".join(lines),
        citations=markers.citations,
        result=RedlineComparison(reason=reason, pairs=results),
    )


def _item(change: Counterpart) -> RedlineItem | None:
    before, after = change.before, change.after
    if before is not None and after is not None:
        runs = word_changes(before.words, after.words)
        if change.kind == "changed" and not runs:
            return None
        return RedlineItem(change, runs, substance(before.words, after.words, runs))
    only = before or after
    assert only is not None
    return RedlineItem(change, [], provision_substance(only.words))


def _pair_section(
    pair: PairRedline, markers: CitationMarkers, shown: int
) -> tuple[list[str], VersionPairRedline]:
    counts = {kind: 0 for kind in ("changed", "added", "removed", "moved")}
    for item in pair.items:
        counts[item.change.kind] += 1
    heading = f"## {document_name(pair.first.document)} → {document_name(pair.second.document)}"
    summary = (
        f"{counts['changed']} changed, {counts['added']} added, {counts['removed']} removed and "
        f"{counts['moved']} moved provisions; {pair.alignment.unchanged} unchanged."
    )
    sections = section_changes(pair)
    lines = [heading, summary, *_section_lines(sections)]
    listed = []
    for number, item in enumerate(pair.items[:MAX_LISTED]):
        entry = change_entry(item, markers if number < shown else None)
        listed.append(entry.record)
        if number < shown:
            lines += entry.lines
    if len(pair.items) > shown:
        lines.append(
            f"- … and {len(pair.items) - shown} more changes of less substance (listed in the result)."
        )
    if not pair.items:
        lines.append("- No provision changed: the two versions say the same, word for word.")
    result = VersionPairRedline(
        from_=pair.first.document.document_id,
        to=pair.second.document.document_id,
        counts=ChangeCounts(**counts, unchanged=pair.alignment.unchanged),
        sections=SectionEdits(retitled=sections.retitled, new=sections.new, removed=sections.removed),
        changes=listed,
    )
    return lines, result


@dataclass(frozen=True)
class SectionChanges:
    """Sections retitled (first version's heading, second's), new in the second, gone from the first."""

    retitled: list[tuple[str, str]]
    new: list[str]
    removed: list[str]


def section_changes(pair: PairRedline) -> SectionChanges:
    """The sections of ``pair`` that were retitled, added or removed (renumbering aside)."""
    sections = pair.alignment.sections
    retitled = [
        (a, b)
        for a, b in sections.items()
        if a is not None and b is not None and section_title(a) != section_title(b)
    ]
    ours = {p.section for p in pair.first.provisions if p.section is not None}
    theirs = {p.section for p in pair.second.provisions if p.section is not None}
    new = [
        s
        for s in sorted(theirs - set(sections.values()), key=_first_position(pair.second.provisions))
        if not _known_content(s, pair.second.provisions, pair.first.provisions)
    ]
    gone = [
        s
        for s in sorted(ours - set(sections), key=_first_position(pair.first.provisions))
        if not _known_content(s, pair.first.provisions, pair.second.provisions)
    ]
    return SectionChanges(retitled, new, gone)


def _known_content(section: str, provisions: Sequence[Provision], others: Sequence[Provision]) -> bool:
    """Whether most of ``section``'s provisions stand, worded the same, in the other version: its
    heading was only read differently there (a heading taken for the end of a sentence), not added."""
    keys = {p.key for p in others}
    own = [p.key for p in provisions if p.section == section]
    return bool(own) and sum(key in keys for key in own) >= KNOWN_SHARE * len(own)


def _section_lines(changes: SectionChanges) -> list[str]:
    lines = []
    if changes.retitled:
        lines.append("Sections retitled: " + "; ".join(f"“{a}” → “{b}”" for a, b in changes.retitled) + ".")
    if changes.new:
        lines.append("New sections: " + "; ".join(f"“{s}”" for s in changes.new) + ".")
    if changes.removed:
        lines.append("Sections removed: " + "; ".join(f"“{s}”" for s in changes.removed) + ".")
    return lines


def _first_position(provisions: Sequence[Provision]) -> Any:
    first: dict[str | None, int] = {}
    for provision in provisions:
        first.setdefault(provision.section, provision.position)
    return lambda section: first.get(section, 0)


@dataclass(frozen=True)
class ChangeEntry:
    """A change as the answer shows it (its lines) and as the structured result lists it."""

    lines: list[str]
    record: ProvisionChange


_LABEL = {"changed": "Changed", "added": "Added", "removed": "Removed", "moved": "Moved"}


def change_entry(item: RedlineItem, markers: CitationMarkers | None) -> ChangeEntry:
    """How ``item`` is shown and listed; with ``markers``, both wordings are cited."""
    change = item.change
    label = _LABEL[change.kind]
    if change.kind == "moved" and item.runs:
        label = "Moved and changed"
    before, after = change.before, change.after
    where = " → ".join(_place(p) for p in (before, after) if p is not None)
    kinds = f" ({', '.join(item.substance)})" if item.substance else ""
    lines = [f"- **{label}**{kinds}, {where}:"]
    sides: dict[str, ProvisionWording] = {}
    for side, provision, marked_runs, style in (
        ("before", before, [(r.i1, r.i2) for r in item.runs], "~~"),
        ("after", after, [(r.j1, r.j2) for r in item.runs], "**"),
    ):
        if provision is None:
            continue
        marked = _marked(provision.words, marked_runs, style)
        marker = _cite(provision, marked_runs, markers) if markers is not None else None
        cited = f" [{marker}]" if marker is not None else ""
        lines.append(f"  {side.capitalize()}: “{marked}”{cited}")
        sides[side] = ProvisionWording(
            section=provision.section,
            page=provision.page,
            text=" ".join(provision.text.split()),
            marked=marked,
            marker=marker,
        )
    record = ProvisionChange(
        kind=change.kind, substance=item.substance, before=sides.get("before"), after=sides.get("after")
    )
    return ChangeEntry(lines, record)


def _place(provision: Provision) -> str:
    page = f"p. {provision.page}" if provision.page is not None else "no page"
    return f"“{provision.section}”, {page}" if provision.section else page


def _marked(words: Sequence[Word], runs: Sequence[tuple[int, int]], style: str) -> str:
    """The words as written on one line, changed runs wrapped in ``style``; long texts cut around them."""
    shown = [" ".join(w.written.split()) for w in words]
    for start, end in runs:
        if end > start:
            shown[start] = style + shown[start]
            shown[end - 1] = shown[end - 1] + style
    text = " ".join(shown)
    if len(text) <= SHOWN_WHOLE_CHARS:
        return text
    if not runs:
        # An added or removed provision: its opening, cut at a word.
        return text[:SHOWN_WHOLE_CHARS].rsplit(" ", 1)[0] + " …"
    keep: set[int] = set()
    for start, end in runs:
        keep.update(
            range(max(0, start - CONTEXT_WORDS), min(len(shown), max(end, start + 1) + CONTEXT_WORDS))
        )
    pieces, previous = [], -1
    for position in sorted(keep):
        if position != previous + 1:
            pieces.append("…")
        pieces.append(shown[position])
        previous = position
    if previous < len(shown) - 1:
        pieces.append("…")
    return " ".join(pieces)


def _cite(provision: Provision, runs: Sequence[tuple[int, int]], markers: CitationMarkers) -> int | None:
    """The marker of a verbatim quote of ``provision`` from its chunk, around its first changed word."""
    words = provision.words
    first = next((start for start, end in runs if end > start and start < len(words)), None)
    at = words[first].start if first is not None else 0
    piece, page_offset = provision.located(at)
    found = piece.page.chunk_for(max(piece.start, page_offset), max(piece.start, page_offset) + 1)
    if found is None:
        return None
    placed = found[0]
    chunk_text = placed.chunk.text
    begin = max(piece.start, placed.offset) - placed.offset
    end = min(piece.end, placed.offset + len(chunk_text)) - placed.offset
    local = chunk_text[begin:end]
    quote = quote_around(local, max(0, page_offset - placed.offset - begin))
    start = chunk_text.find(quote, begin)
    if not quote or start < 0:
        return None
    return markers.mark(Extract(chunk=placed.chunk, start=start, text=quote))
