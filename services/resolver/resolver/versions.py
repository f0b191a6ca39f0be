"""Version references ("the 2025 edition", "v2", "the previous version", "both versions").

Compliance officers work across versions of one regulation, and the catalog holds them as documents
sharing a title with different ``version`` labels. A version reference picks among the versions of the
title in focus, in the order of ``resolver.version_order``:

- an explicit label ("the 2025 edition", "version 3.1", "v2") picks the versions it names;
- "new/newer/next" and "previous/older/earlier/last year's" pick the neighbour of the version in focus
  (with two versions in focus, the newer or older of them; with none, the newest two);
- "latest/current/newest" and "original/oldest/first" pick the ends;
- "both/all/the two versions" pick every version (or the versions in focus when the count says so).

The title in focus is the one tagged or written in the message, else the one the conversation used
most recently, turn by turn. A title only counts when the reference fits it (a year it has, a newer
version than the one in focus), so "the 2025 edition" skips a later turn's document that has no 2025
edition. Several titles fitting at once is ambiguous: the caller asks (doc_choice). A phrase that fits
no title is left to the other rules, so messages without a usable version reference resolve as before.
"""

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

from policypal.state import DocumentRecord, RegistryEntry
from resolver.matching import Named, compact, title_hits
from resolver.mentions import mask_spans
from resolver.version_order import names_version, ordered_versions

Kind = Literal["exact", "newer", "newest", "older", "oldest", "all"]

_NOUN_WORDS = r"version|edition|release|revision"
_NOUN = rf"(?:{_NOUN_WORDS})"
_NOUNS = r"(?:versions|editions|releases|revisions)"
_YEAR = r"(?:19|20)\d{2}"
_COUNTS = {"two": 2, "three": 3, "four": 4, "five": 5, "both": 2}
_ADJECTIVES: dict[Kind, str] = {
    "newest": r"latest|newest|current|most\s+recent|most\s+up[- ]to[- ]date",
    "newer": r"new|newer|updated|next|later|revised|amended",
    "older": r"previous|prior|older|old|earlier|preceding|superseded|former",
    "oldest": r"oldest|original|first|earliest",
}
_YEAR_PAIR = re.compile(
    rf"\b(?:(?:both\s+)?the\s+)?(?P<first>{_YEAR})\s*(?:,|and|&|vs\.?|versus|or|with)\s*(?:the\s+)?"
    rf"(?P<second>{_YEAR})\s+{_NOUNS}\b",
    re.IGNORECASE,
)
_EXACT = re.compile(
    rf"\b(?:the\s+)?(?P<year>{_YEAR})(?:'s)?\s+(?:{_NOUN}|update|one|text)\b"
    rf"|\b(?:the\s+)?(?:{_NOUN}|ver\.?|rev\.?)\s+(?P<label>v?\d+(?:\.\d+)*)\b"
    r"|\b(?P<short>v\d+(?:\.\d+)*)\b"
    rf"|\b(?:the\s+)?(?P<dotted>\d+(?:\.\d+)+)\s+{_NOUN}\b"
    # "(2) and (3)": a bracketed number on its own, not "Article 5(2)".
    r"|(?<![\w)])\((?P<bracketed>v?\d+(?:\.\d+)*)\)",
    re.IGNORECASE,
)
#: A follow-up that is only a version or a year: "What about 2025?", "And v2?", "Same for 2024".
_BARE_FOLLOW_UP = re.compile(
    r"^\W*(?:(?:and|so|ok|okay|now|then|also|what|how|about|same|for|the|with|in|please)\W+)*"
    rf"(?P<label>{_YEAR}|v?\d+(?:\.\d+)+|v\d+)"
    r"(?:\W+(?:then|too|instead|please|edition|version|one))*\W*$",
    re.IGNORECASE,
)
_RELATIVE = re.compile(
    rf"\b(?P<last_year>last\s+year'?s)(?:\s+(?:one|{_NOUN_WORDS}))?\b"
    rf"|\bthe\s+(?P<before>{_NOUN_WORDS}|one)\s+before(?:\s+(?:that|it|this))?\b"
    r"|\b(?:(?:the|its|their|this|that|our)\s+)?(?P<adjective>"
    + "|".join(_ADJECTIVES.values())
    + rf")\s+(?:{_NOUN}|update|one)\b",
    re.IGNORECASE,
)
_ALL = re.compile(
    rf"\b(?P<quantifier>both|all|each|every)\s+(?:of\s+)?(?:the\s+)?(?:(?P<n>two|three|four|five|[2-5])\s+)?"
    rf"(?:{_NOUNS}|{_NOUN})\b"
    rf"|\b(?:the|across|between|over)\s+(?:(?P<m>two|three|four|five|[2-5])\s+)?(?:different\s+)?{_NOUNS}\b",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class VersionReference:
    """One version phrase: which version(s) it asks for, with the label or count it gives."""

    phrase: str
    position: int
    kind: Kind
    written: str | None = None
    count: int | None = None

    @property
    def span(self) -> tuple[int, int]:
        """Where the phrase is in the message."""
        return self.position, self.position + len(self.phrase)


@dataclass(frozen=True)
class VersionMatch:
    """What the version references resolve to.

    ``anchors`` are the versions the picks are relative to ("it" in "compare it with the previous
    version"): a compare adds them. ``spans`` are the phrases and titles the resolution used up.
    """

    document_ids: tuple[str, ...] = ()
    candidates: tuple[str, ...] = ()
    anchors: tuple[str, ...] = ()
    positions: dict[str, int] = field(default_factory=dict)
    spans: tuple[tuple[int, int], ...] = ()


@dataclass(frozen=True)
class _Focus:
    title: str  # compact title
    held: tuple[str, ...]  # the versions of it in focus, maybe none
    position: int | None  # where the message names it; None when it comes from the registry
    span: tuple[int, int] | None = None


@dataclass(frozen=True)
class _Pick:
    document_ids: tuple[str, ...]
    ambiguous: bool = False
    anchor: str | None = None


def find_version_references(text: str) -> list[VersionReference]:
    """The version phrases in ``text``, in order, none overlapping another."""
    found: list[VersionReference] = []

    def add(match: re.Match[str], *references: VersionReference) -> None:
        if not any(match.start() < r.span[1] and r.position < match.end() for r in found):
            found.extend(references)

    for m in _YEAR_PAIR.finditer(text):
        add(m, *(VersionReference(m.group(0), m.start(), "exact", m[g]) for g in ("first", "second")))
    follow_up = _BARE_FOLLOW_UP.match(text)
    if follow_up is not None:
        # The whole message is a version, so a bare year is one too (elsewhere it is a date).
        return [VersionReference(follow_up["label"], follow_up.start("label"), "exact", follow_up["label"])]
    for m in _EXACT.finditer(text):
        written = m["year"] or m["label"] or m["short"] or m["dotted"] or m["bracketed"]
        add(m, VersionReference(m.group(0), m.start(), "exact", written))
    for m in _RELATIVE.finditer(text):
        add(m, VersionReference(m.group(0), m.start(), _relative_kind(m)))
    for m in _ALL.finditer(text):
        count = m["n"] or m["m"] or (m["quantifier"] or "").lower()
        add(
            m, VersionReference(m.group(0), m.start(), "all", count=_COUNTS.get(count.lower(), _digit(count)))
        )
    return sorted(found, key=lambda r: r.position)


def resolve_versions(
    references: Sequence[VersionReference],
    text: str,
    *,
    explicit: Sequence[Named],
    registry: Sequence[RegistryEntry],
    catalog: Sequence[DocumentRecord],
) -> VersionMatch | None:
    """Resolve ``references`` against the versions in ``catalog``; None when no title fits them.

    Focus comes from the documents tagged (``explicit``) or titles written in ``text``, then from the
    registry by recency; the first of these groups with a fitting title decides.
    """
    if not references:
        return None
    versions: dict[str, list[DocumentRecord]] = {}
    for record in catalog:
        versions.setdefault(compact(record.title), []).append(record)
    versions = {title: ordered_versions(records) for title, records in versions.items()}
    for group in [_named_focus(text, explicit, registry, catalog), *_registry_focus(registry)]:
        fitting = {
            focus: picks
            for focus in group
            if (picks := [_pick(r, versions.get(focus.title, []), focus.held) for r in references])
            and all(p is not None for p in picks)
        }
        if fitting:
            return _match(references, fitting)
    return None


def is_bare_follow_up(text: str) -> bool:
    """Whether ``text`` says nothing but a version or a year ("What about 2025?")."""
    return _BARE_FOLLOW_UP.match(text) is not None


def without_version_references(
    text: str,
    *,
    explicit: Sequence[Named],
    registry: Sequence[RegistryEntry],
    catalog: Sequence[DocumentRecord],
) -> str:
    """``text`` without the version phrases that resolve to the user's documents.

    For the intent step: "summarize both versions" names no topic, and "the current version" or "the
    2025 edition" of an uploaded regulation is a document, not a reason to search the web. A phrase
    that resolves to nothing ("the latest version of Basel III") stays.
    """
    match = resolve_versions(
        find_version_references(text), text, explicit=explicit, registry=registry, catalog=catalog
    )
    if match is None:
        return text
    return re.sub(r"\s+", " ", mask_spans(text, match.spans)).strip()


def _match(references: Sequence[VersionReference], fitting: dict[_Focus, list[_Pick | None]]) -> VersionMatch:
    spans = [r.span for r in references] + [f.span for f in fitting if f.span is not None]
    positions: dict[str, int] = {}
    if len(fitting) > 1:
        # Two titles in focus, each with such a version: which one is meant is the user's call.
        offered = [i for picks in fitting.values() for p in picks if p is not None for i in p.document_ids]
        for document_id in offered:
            positions.setdefault(document_id, references[0].position)
        return VersionMatch(candidates=tuple(dict.fromkeys(offered)), positions=positions, spans=tuple(spans))
    ((focus, picks),) = fitting.items()
    ids: list[str] = []
    candidates: list[str] = []
    anchors: list[str] = []
    for reference, pick in zip(references, picks, strict=True):
        assert pick is not None, "only fitting titles get here"
        chosen = candidates if pick.ambiguous else ids
        chosen.extend(i for i in pick.document_ids if i not in chosen)
        for document_id in pick.document_ids:
            positions.setdefault(document_id, reference.position)
        if pick.anchor is not None and pick.anchor not in anchors:
            anchors.append(pick.anchor)
            positions.setdefault(
                pick.anchor, reference.position if focus.position is None else focus.position
            )
    anchors = [a for a in anchors if a not in ids]
    return VersionMatch(tuple(ids), tuple(candidates), tuple(anchors), positions, tuple(spans))


def _pick(
    reference: VersionReference, versions: Sequence[DocumentRecord], held: tuple[str, ...]
) -> _Pick | None:
    """One reference against one title's versions (oldest first) with ``held`` in focus."""
    ids = [d.document_id for d in versions]
    focus = [i for i in ids if i in held]
    single = focus[0] if len(focus) == 1 else None
    if reference.kind == "exact":
        named = tuple(d.document_id for d in versions if names_version(reference.written or "", d.version))
        if not named:
            return None
        return _Pick(named, ambiguous=len(named) > 1, anchor=single if single not in named else None)
    if len(ids) < 2:
        return None
    if reference.kind == "all":
        if reference.count in (None, len(ids)):
            return _Pick(tuple(ids))
        if reference.count == len(focus):
            return _Pick(tuple(focus))
        return _Pick(tuple(ids), ambiguous=True)
    newer = reference.kind in ("newer", "newest")
    if reference.kind in ("newest", "oldest") or not focus:
        # Without a version in focus, "the new version" is the newest and "the previous" the one before.
        if newer:
            pick = ids[-1]
        elif reference.kind == "oldest":
            pick = ids[0]
        else:
            pick = ids[-2]
        anchor = single or (ids[-2] if newer else ids[-1])
        return _Pick((pick,), anchor=anchor if anchor != pick else None)
    if len(focus) > 1:
        return _Pick((focus[-1] if newer else focus[0],), anchor=focus[0] if newer else focus[-1])
    index = ids.index(focus[0]) + (1 if newer else -1)
    if not 0 <= index < len(ids):
        return None
    return _Pick((ids[index],), anchor=focus[0])


def _named_focus(
    text: str, explicit: Sequence[Named], registry: Sequence[RegistryEntry], catalog: Sequence[DocumentRecord]
) -> list[_Focus]:
    """Titles tagged or written in the message, with the versions of them it names.

    A title written without a version holds the versions of it the conversation used last, if any.
    """
    held: dict[str, list[str]] = {}
    where: dict[str, tuple[int | None, tuple[int, int] | None]] = {}
    for document in explicit:
        held.setdefault(compact(document.title), []).append(document.document_id)
        where.setdefault(compact(document.title), (None, None))
    titles = {d.document_id: d for d in catalog}
    for hit in title_hits(text, catalog):
        record = titles[hit.document_id]
        key = compact(record.title)
        held.setdefault(key, [])
        if hit.with_version:
            held[key].append(hit.document_id)
        if hit.position < len(text):
            written = re.match(
                rf"{re.escape(record.title)}(?:\s*{re.escape(record.version)})?",
                text[hit.position :],
                re.IGNORECASE,
            )
            end = hit.position + (len(written.group(0)) if written else len(record.title))
            where[key] = (hit.position, (hit.position, end))
        else:
            where.setdefault(key, (None, None))
    for key, ids in held.items():
        used = [e for e in registry if compact(e.title) == key]
        if not ids and used:
            newest = max(e.last_used_turn for e in used)
            ids.extend(e.document_id for e in used if e.last_used_turn == newest)
    return [_Focus(key, tuple(ids), *where[key]) for key, ids in held.items()]


def _registry_focus(registry: Sequence[RegistryEntry]) -> list[list[_Focus]]:
    """The registry's titles turn by turn, most recent first, with the versions each turn used."""
    turns = sorted({e.last_used_turn for e in registry}, reverse=True)
    groups: list[list[_Focus]] = []
    for turn in turns:
        held: dict[str, list[str]] = {}
        for entry in registry:
            if entry.last_used_turn == turn:
                held.setdefault(compact(entry.title), []).append(entry.document_id)
        groups.append([_Focus(key, tuple(ids), None) for key, ids in held.items()])
    return groups


def _relative_kind(match: re.Match[str]) -> Kind:
    if match["last_year"] or match["before"]:
        return "older"
    adjective = re.sub(r"\s+", " ", match["adjective"].lower())
    return next(kind for kind, words in _ADJECTIVES.items() if re.fullmatch(words, adjective, re.IGNORECASE))


def _digit(word: str) -> int | None:
    return int(word) if word.isdigit() else None
