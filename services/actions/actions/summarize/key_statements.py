"""The key statements of each part of a document: what a reader must know of it, quoted and in order.

Every statement of the document (boilerplate pages left out, running heads blanked) that reads alone
is a candidate of the part it stands in. A candidate's score adds up:
- centrality: tf-idf cosine to its part's centre, the words the part keeps coming back to;
- the part's subject: the share of the part's title words it names;
- obligation: how binding its modal form is (must/must not > should > may; none for a fact);
- definition: a defined term ("… means …", "… is defined as …");
- place: the opening statements of a part say what it is about;
statements leaning on the previous one ("It …", "However, …") are left out. The best of each part are
taken, no two saying the same thing, preferring different subsections, then put back in reading order.
A long document also gets an overview: its statements most central to the whole, purpose first.
Lexical centrality costs milliseconds on a 190-page manual, where embedding its ~3,000 statements
would take tens of seconds on two cores.
"""

import math
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from actions.extracts import Extract
from actions.summarize.document_parts import Part, boilerplate_indexes
from actions.summarize.standalone_sentences import leans_on_context, reads_alone
from actions.themes import content_words
from policypal.contracts.audit import Modality
from policypal.rules import STRENGTH, document_clauses
from policypal.rules.rule_units import SourceClause
from policypal.vectorstore import ChunkPoint

#: Weights of the score's parts (see the module docstring).
CENTRALITY, SUBJECT, OBLIGATION, DEFINITION, OPENING = 0.45, 0.2, 0.2, 0.15, 0.1
#: A part's opening statements, for the place bonus.
OPENING_STATEMENTS: Final = 3
#: Two statements sharing this share of their words say the same thing.
SAME_POINT: Final = 0.6
#: Chosen again from a subsection already quoted: ranked down by this much.
SAME_SUBSECTION_PENALTY: Final = 0.15
#: Points per part: one, a second from this many candidates, a third from the next threshold; a short
#: document has few parts, so each of them gets more of its points.
SECOND_POINT_FROM, THIRD_POINT_FROM = 25, 80
SHORT_SECOND_POINT_FROM, SHORT_THIRD_POINT_FROM = 2, 5
#: A document this long (pages, or parts) gets an overview of this many statements first.
LONG_DOCUMENT_PAGES, LONG_DOCUMENT_PARTS, OVERVIEW_POINTS = 30, 6, 2
#: Where a document states its purpose: its opening share (later "this manual describes" quotes others).
PURPOSE_WITHIN: Final = 0.15

_DEFINITION: Final = re.compile(
    r"\b(?:means|mean|is\s+defined\s+as|are\s+defined\s+as|refers?\s+to|is\s+called|are\s+called|"
    r"is\s+known\s+as|are\s+known\s+as|stands\s+for)\b",
    re.IGNORECASE,
)
_PURPOSE: Final = re.compile(
    r"\b(?:this|the)\s+(?:manual|document|policy|standard|regulation|guide|handbook|specification|"
    r"agreement|licen[cs]e|directive|act|code|procedure|framework|charter|constitution)\s+"
    r"(?:\w+\s+)?(?:describes|defines|sets|establishes|specifies|covers|explains|applies|governs|"
    r"outlines|lays|aims|is\s+intended)\b",
    re.IGNORECASE,
)
# "this field", "the above", "such a case": fine inside a part, unclear as the document's first words.
_POINTS_BACK: Final = re.compile(r"\b(?:this|these|those|such|said|above|aforementioned)\b", re.IGNORECASE)
_BULLET: Final = re.compile(r"^(?:[-*+•◦▪‣–·]|\(?(?:\d{1,2}|[a-z]|[ivx]{1,4})[.)])\s+")


@dataclass(frozen=True)
class KeyStatement:
    """A candidate statement: the quotable extract, its subsection, modality and score."""

    extract: Extract
    subsection: str | None
    modality: Modality | None
    score: float

    @property
    def plain(self) -> str:
        """Its words on one line."""
        return self.extract.plain


@dataclass(frozen=True)
class PartDigest:
    """A part, its candidates best first, and the statements chosen to summarise it (reading order)."""

    part: Part
    ranked: list[KeyStatement]
    chosen: list[KeyStatement]


@dataclass(frozen=True)
class StructuredDigest:
    """One document summarised part by part, with an overview when it is long."""

    overview: list[KeyStatement]
    parts: list[PartDigest]
    total_chunks: int
    pages: int


@dataclass(frozen=True)
class _Candidate:
    clause: SourceClause
    extract: Extract
    words: Counter[str]


def digest_document(
    chunks: Sequence[ChunkPoint], parts: Sequence[Part], *, max_points: int
) -> StructuredDigest:
    """Rank every part's candidates and choose up to ``max_points`` key statements of each."""
    candidates = _candidates(chunks, parts)
    idf = _idf([c for group in candidates for c in group])
    ranked = [_ranked(group, part, idf) for group, part in zip(candidates, parts, strict=True)]
    pages = len({c.page for c in chunks if c.page is not None})
    long = pages >= LONG_DOCUMENT_PAGES or len(parts) >= LONG_DOCUMENT_PARTS
    second, third = (
        (SECOND_POINT_FROM, THIRD_POINT_FROM) if long else (SHORT_SECOND_POINT_FROM, SHORT_THIRD_POINT_FROM)
    )
    chosen = [
        choose(group, min(max_points, 1 + (len(group) >= second) + (len(group) >= third))) for group in ranked
    ]
    overview: list[KeyStatement] = []
    if long:
        # The parts keep their points; the overview adds the document's purpose and other central rules.
        taken = {_key(s) for points in chosen for s in points}
        overview = _overview([c for group in candidates for c in group], idf, taken)
        moved = {_key(s) for s in overview}
        # A part keeps a point the overview wants when it has no other; the lead (front matter) never does.
        chosen = [
            [s for s in points if _key(s) not in moved] or ([] if part.lead else points)
            for part, points in zip(parts, chosen, strict=True)
        ]
        kept = {_key(s) for points in chosen for s in points}
        overview = [s for s in overview if _key(s) not in kept]
    digests = [
        PartDigest(part, group, points) for part, group, points in zip(parts, ranked, chosen, strict=True)
    ]
    return StructuredDigest(overview, digests, len(chunks), pages)


def choose(ranked: Sequence[KeyStatement], count: int) -> list[KeyStatement]:
    """The best ``count`` of ``ranked`` that say different things, from different subsections where
    possible, in reading order."""
    chosen: list[KeyStatement] = []
    pool = list(ranked)
    while pool and len(chosen) < count:
        quoted = {s.subsection for s in chosen}
        best = max(pool, key=lambda s: s.score - SAME_SUBSECTION_PENALTY * (s.subsection in quoted))
        pool.remove(best)
        if not any(_same_point(best, other) for other in chosen):
            chosen.append(best)
    return sorted(chosen, key=lambda s: s.extract.reading_position)


def _candidates(chunks: Sequence[ChunkPoint], parts: Sequence[Part]) -> list[list[_Candidate]]:
    """The statements of each part that read alone, in reading order."""
    skip = boilerplate_indexes(chunks)
    part_of = {chunk.chunk_index: position for position, part in enumerate(parts) for chunk in part.chunks}
    groups: list[list[_Candidate]] = [[] for _ in parts]
    seen: set[str] = set()
    for clause in document_clauses(chunks, skip=skip):
        extract = _extract(clause)
        if extract is None or extract.plain in seen or not _quotable(extract.plain):
            continue
        seen.add(extract.plain)
        position = part_of.get(clause.chunk.chunk_index)
        if position is not None:
            groups[position].append(_Candidate(clause, extract, Counter(content_words(extract.plain))))
    return groups


def _quotable(sentence: str) -> bool:
    # A sentence pointing back ("It …", "However, …") reads wrongly without the one before it.
    return reads_alone(sentence) and not leans_on_context(sentence)


def _extract(clause: SourceClause) -> Extract | None:
    """The statement as a verbatim slice of its chunk, without its list marker (None when it spans chunks)."""
    text = clause.statement.text
    start = clause.chunk.text.find(text)
    if start < 0:
        return None
    marker = _BULLET.match(text)
    if marker is not None:
        start, text = start + marker.end(), text[marker.end() :]
    return Extract(clause.chunk, start, text)


def _idf(candidates: Sequence[_Candidate]) -> dict[str, float]:
    spread: Counter[str] = Counter(word for c in candidates for word in c.words)
    total = max(1, len(candidates))
    return {word: math.log(1 + total / count) for word, count in spread.items()}


def _ranked(group: Sequence[_Candidate], part: Part, idf: dict[str, float]) -> list[KeyStatement]:
    vectors = [_weighted(c.words, idf) for c in group]
    centre: Counter[str] = Counter()
    for vector in vectors:
        norm = _norm(vector)
        centre.update({word: weight / norm for word, weight in vector.items()} if norm else {})
    subject = set(content_words(part.title))
    scored = []
    for position, (candidate, vector) in enumerate(zip(group, vectors, strict=True)):
        plain = candidate.extract.plain
        modal = candidate.clause.modal
        named = len(subject & candidate.words.keys()) / len(subject) if subject else 0.0
        score = (
            CENTRALITY * _cosine(vector, centre)
            + SUBJECT * named
            + OBLIGATION * (STRENGTH[modal.modality] / 3 if modal else 0.0)
            + DEFINITION * bool(_DEFINITION.search(plain))
            + OPENING * (position < OPENING_STATEMENTS)
        )
        scored.append(
            KeyStatement(
                candidate.extract,
                candidate.clause.statement.section,
                modal.modality if modal else None,
                score,
            )
        )
    return sorted(scored, key=lambda s: (-s.score, s.extract.reading_position))


def _overview(
    candidates: Sequence[_Candidate], idf: dict[str, float], taken: set[tuple[str, int]]
) -> list[KeyStatement]:
    """The document's statement of purpose, and its rules most central to the whole of it not ``taken``."""
    vectors = [_weighted(c.words, idf) for c in candidates]
    centre: Counter[str] = Counter()
    for vector in vectors:
        norm = _norm(vector)
        centre.update({word: weight / norm for word, weight in vector.items()} if norm else {})
    opening = PURPOSE_WITHIN * max((c.extract.chunk.chunk_index for c in candidates), default=0)
    # A document states its purpose once, at its start; later "this document describes" name others.
    purpose = next(
        (
            c
            for c in candidates
            if c.extract.chunk.chunk_index <= opening and _PURPOSE.search(c.extract.plain)
        ),
        None,
    )
    scored = [
        KeyStatement(
            c.extract,
            c.clause.statement.section,
            c.clause.modal.modality if c.clause.modal else None,
            _cosine(vector, centre)
            + OBLIGATION * (STRENGTH[c.clause.modal.modality] / 3 if c.clause.modal else 0.0)
            + (c is purpose),
        )
        for c, vector in zip(candidates, vectors, strict=True)
        if c is purpose or not (_POINTS_BACK.search(c.extract.plain) or _key(c) in taken)
    ]
    return choose(sorted(scored, key=lambda s: (-s.score, s.extract.reading_position)), OVERVIEW_POINTS)


def _weighted(words: Counter[str], idf: dict[str, float]) -> dict[str, float]:
    return {word: count * idf.get(word, 0.0) for word, count in words.items()}


def _norm(vector: dict[str, float] | Counter[str]) -> float:
    return math.sqrt(sum(weight * weight for weight in vector.values()))


def _cosine(vector: dict[str, float], centre: Counter[str]) -> float:
    norms = _norm(vector) * _norm(centre)
    return sum(weight * centre[word] for word, weight in vector.items()) / norms if norms else 0.0


def _same_point(first: KeyStatement, second: KeyStatement) -> bool:
    a, b = set(content_words(first.plain)), set(content_words(second.plain))
    return bool(a and b) and len(a & b) / min(len(a), len(b)) >= SAME_POINT


def _key(statement: "KeyStatement | _Candidate") -> tuple[str, int]:
    return (statement.extract.chunk.chunk_id, statement.extract.start)
