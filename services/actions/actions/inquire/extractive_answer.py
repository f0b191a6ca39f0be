"""The offline answer: the fact first, then the passages that support it, most relevant first.

No language model is involved. The answer opens with a short extractive lead, the clause of the
best passage that answers (with its number, date or name, footnote marks taken out), then quotes
the supporting passages as written, each cited, in the order of the ranking. It never fills a gap
from general knowledge: when nothing matches, it says that nothing was found (docs/product.md, Answer modes: mode C).
"""

import re
from dataclasses import dataclass, replace

from actions.citing.citations import cite, is_verbatim
from actions.inquire.lexical import asks_for_quantity, coverage, has_quantity, term_weights
from actions.inquire.quotes import quote_span
from actions.inquire.ranking import RankedChunk, Ranking, ScoredUnit
from actions.inquire.units import plain
from policypal.contracts import Citation, ResolvedDocument
from policypal.contracts.limits import MAX_QUOTE_CHARS

#: Below this score (MiniLM cosine of a sentence, plus its share of the question's words) a passage
#: is about something else: sentences that answer measure ~0.6-0.85, unrelated ones under ~0.25.
RELEVANCE_FLOOR = 0.35
#: Passages much weaker than the best one add noise rather than support.
RELATIVE_MARGIN = 0.3
MAX_PASSAGES = 6
#: A chunk gives up to this many quotes, the second only when it scores within the margin of its best.
UNITS_PER_CHUNK = 2
SECOND_MARGIN = 0.15
#: How far below the best chunk a passage holding the asked-for number or name may lead.
LEAD_MARGIN = 0.15
#: The lead is one clause, not a paragraph.
MAX_LEAD_CHARS = 240

OFFLINE_NOTE = (
    "Offline mode: this answer was composed from the passages of your documents without a language "
    "model. The passages are quoted as written; read the cited pages for their full context."
)

_CLAUSES = re.compile(r"(?<=[;:])\s+|(?<=,)\s+(?=(?:and|but|or|which|unless|except)\b)")


@dataclass(frozen=True)
class ExtractiveAnswer:
    """The answer text with its ``[N]`` markers, and one citation per marker."""

    answer: str
    citations: list[Citation]


@dataclass(frozen=True)
class Quoted:
    """A passage chosen for the answer: its chunk, its quote and its one-line display text."""

    chunk: RankedChunk
    citation: Citation
    shown: str
    lead: str


def choose_quotes(
    ranking: Ranking, query: str, *, limit: int = MAX_PASSAGES, floor: float = RELEVANCE_FLOOR
) -> list[Quoted]:
    """The supporting quotes, best first: the best units of the best chunks, above the ``floor``.

    A chunk gives its best unit, and its second best too when that one scores nearly as well (the
    fact is often a sentence or two away from the one that matches the question best). A quote
    repeating one already chosen (overlapping chunks, the same text in two versions) is skipped.
    Markers are numbered 1..N in this order; a quote that is not verbatim is dropped.
    """
    weights = term_weights(query, [chunk.hit.text for chunk in ranking.chunks])
    wants_quantity = asks_for_quantity(query)
    top = ranking.chunks[0].score if ranking.chunks else 0.0
    chosen: list[Quoted] = []
    seen: list[str] = []
    for chunk in ranking.chunks:
        if chunk.best is None or chunk.score < top - RELATIVE_MARGIN:
            continue
        for unit in _quoted_units(chunk, floor):
            position = chunk.units.index(unit)
            span = quote_span(
                chunk.hit.text, chunk.units, position, weights=weights, wants_quantity=wants_quantity
            )
            quote = chunk.hit.text[span.start : span.end]
            shown = plain(quote)
            key = shown.casefold()
            if not is_verbatim(quote, chunk.hit.text) or any(key in s or s in key for s in seen):
                continue
            seen.append(key)
            lead = lead_clause(
                plain(chunk.hit.text[unit.unit.start : unit.unit.end]), weights, wants_quantity
            )
            chosen.append(Quoted(chunk, cite(chunk.hit, quote, len(chosen) + 1), shown, lead))
            if len(chosen) == limit:
                return chosen
    return chosen


def _quoted_units(chunk: RankedChunk, floor: float) -> list[ScoredUnit]:
    """The chunk's best unit above ``floor``, and its second best when within ``SECOND_MARGIN``."""
    ranked = sorted(chunk.units, key=lambda u: u.score, reverse=True)
    best = ranked[0].score if ranked else 0.0
    return [u for u in ranked[:UNITS_PER_CHUNK] if u.score >= max(floor, best - SECOND_MARGIN)]


def answer_first(quoted: list[Quoted], ranking: Ranking) -> list[Quoted]:
    """``quoted`` with the first that holds the kind of answer asked for (a number, a name) leading.

    Only a quote of a chunk scoring within ``LEAD_MARGIN`` of the best may lead instead of it: a
    question about a length of time is answered by the passage that states one. Markers follow.
    """
    if not quoted or ranking.wants.held_by(quoted[0].lead):
        return quoted
    top = quoted[0].chunk.score
    leader = next(
        (
            q
            for q in quoted
            if q.chunk.score >= top - LEAD_MARGIN
            and ranking.preferred(q.chunk.hit)
            and ranking.wants.held_by(q.lead)
        ),
        None,
    )
    if leader is None:
        return quoted
    ordered = [leader, *(q for q in quoted if q is not leader)]
    return [
        replace(q, citation=q.citation.model_copy(update={"marker": marker}))
        for marker, q in enumerate(ordered, start=1)
    ]


def lead_clause(sentence: str, weights: dict[str, float], wants_quantity: bool) -> str:
    """The clause of ``sentence`` that answers: the whole sentence when short, else its best clause."""
    if len(sentence) <= MAX_LEAD_CHARS:
        return sentence
    clauses = [c for c in _CLAUSES.split(sentence) if c.strip()]

    def fit(clause: str) -> tuple[bool, float]:
        return (not wants_quantity or has_quantity(clause), coverage(weights, clause))

    best = max(clauses, key=fit)
    return best if len(best) <= MAX_LEAD_CHARS else best[: best.rfind(" ", 0, MAX_LEAD_CHARS)] + " …"


def compose_answer(
    documents: list[ResolvedDocument], ranking: Ranking, query: str, *, floor: float = RELEVANCE_FLOOR
) -> ExtractiveAnswer:
    """The extractive answer over ``ranking``; the not-found answer when no passage passes ``floor``."""
    quoted = answer_first(choose_quotes(ranking, query, limit=MAX_PASSAGES, floor=floor), ranking)
    if not quoted:
        return ExtractiveAnswer(answer=not_found_answer(documents), citations=[])
    first = quoted[0]
    lines = [f"{_source(ranking, first)}: {first.lead} [1]", "", "Supporting passages, most relevant first:"]
    for item in quoted:
        lines.append(
            f"- [{item.citation.marker}] {_source(ranking, item, short=True)}: “{item.shown}{_cut(item)}”"
        )
    lines.append(f"\n{OFFLINE_NOTE}")
    return ExtractiveAnswer(answer="\n".join(lines), citations=[item.citation for item in quoted])


def _cut(item: Quoted) -> str:
    # A quote stopped by the length limit mid-sentence is shown as cut, so the reader knows there is more.
    quote = item.citation.quote.rstrip()
    return (
        " …" if len(quote) >= MAX_QUOTE_CHARS - 20 and not quote.endswith((".", ";", ":", "!", "?")) else ""
    )


def _source(ranking: Ranking, item: Quoted, *, short: bool = False) -> str:
    hit = item.chunk.hit
    page = f", page {hit.page}" if hit.page is not None else ""
    if short:
        return f"“{hit.title}” ({ranking.version_note(hit)}){page}"
    return f"According to “{hit.title}” ({ranking.version_note(hit)}){page}"


def not_found_answer(documents: list[ResolvedDocument]) -> str:
    """Mode C: the documents exist but say nothing about the question; no general-knowledge answer.

    With no document tagged the whole library was searched: offline mode has no general knowledge.
    """
    if not documents:
        return (
            "Nothing in your library matches this question. Offline mode answers only from your documents "
            "and cannot answer from general knowledge, so try rephrasing your question or uploading a "
            "document that covers it.\n\nOffline mode: this answer was composed without a language model."
        )
    titles = ", ".join(f"“{doc.title}”" for doc in documents) or "the tagged documents"
    return (
        f"I couldn't find a passage about this in {titles}. I answer only from the documents you tag, "
        "not from general knowledge, so try rephrasing your question or tagging another document.\n\n"
        "Offline mode: this answer was composed without a language model."
    )
