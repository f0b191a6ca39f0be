"""Re-ranking the hybrid search's candidates so that the passage that answers comes first.

The fused (dense + BM25) order finds the right chunks but does not put them first: a whole
1000-character chunk's similarity is blurred by everything else on it, and contents pages, title
pages and old versions of a title read much like the answer. Two stages, both offline:

1. Every candidate gets a cheap score: its similarity to the question, the share of the question's
   words it holds (weighted by how rare they are among the candidates; its document title, with
   the title's acronyms and version, and its section count as fields of it), its place in the fused
   order, a bonus when the question names its document, less a penalty for boilerplate (contents,
   title pages, licence notices, as the ingestor marks them) and for a version of a title other
   than the one preferred (``versions``), and a bonus for a named document's opening that states a
   date when the question asks for that document's date (``front_matter``). The best ``POOL`` go on.
2. Their units (sentences and list items, ``units``) are embedded with the same model, each with
   its heading; a chunk scores by its best unit (similarity, the question's words in the unit and
   its heading, and whether it holds the kind of answer asked for: a number or date, a name), plus
   a share of its stage-1 score.

No package found ships a cross-encoder's weights, so the stronger scorer is sentence-level similarity
with the same MiniLM. Weights were chosen on the tuning part of bench/inquire_quality.py
(docs/benchmarks.md, "Inquire answer quality").
"""

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from actions.inquire.compared_units import comparable_units, compared_text
from actions.inquire.front_matter import FRONT_MATTER, asks_for_document_date, states_own_date
from actions.inquire.lexical import (
    asks_for_name,
    asks_for_quantity,
    coverage,
    fields,
    has_name,
    has_quantity,
    named_titles,
    term_weights,
)
from actions.inquire.unit_vectors import UnitVectors
from actions.inquire.units import Unit, running_heads, without_furniture
from actions.inquire.versions import VersionChoice, is_passed_over, version_choices
from policypal.embeddings import Embedder
from policypal.vectorstore import ChunkHit, UnitIndex

#: Candidates whose units are embedded (the cost of ranking grows with it).
POOL = 10
#: Stage 1: weight of the question's words found in the chunk (text, section, title), and of its
#: place in the fused order (dense + BM25 over the whole scope), which halves at ``FUSED_HALF``.
CHUNK_WORDS = 0.25
FUSED_RANK = 0.3
FUSED_HALF = 5
#: Stage 2: weight of the question's words in the unit and its heading; of the stage-1 score.
UNIT_WORDS = 0.2
CHUNK_SHARE = 0.3
#: Bonus of a unit holding the kind of answer asked for: a number or date, a name.
ANSWER_TYPE = 0.08
#: Penalties: boilerplate (down-weighted, not excluded: a question may be about the licence or
#: history), and a version of a title other than the preferred one.
BOILERPLATE = 0.05
OTHER_VERSION = 0.3
#: Bonus of a chunk of a document the question names ("in the FHS", "under GPLv3", "the guide").
NAMED_TITLE = 0.15
#: Units whose meaning is compared: every unit of the first ``WHOLE_CHUNKS`` of the pool, the most
#: promising ``EMBEDDED_UNITS`` by their words of the others (an answer often shares few words with
#: the question); a unit not compared counts as ``UNSEEN``, below any unit that answers.
WHOLE_CHUNKS = 4
EMBEDDED_UNITS = 5
UNSEEN = 0.2


@dataclass(frozen=True)
class AnswerType:
    """What kind of answer the question asks for: a number or date, a name (tool, list, field)."""

    quantity: bool
    name: bool
    query: str

    @classmethod
    def of(cls, query: str) -> "AnswerType":
        """The kind of answer ``query`` asks for."""
        return cls(asks_for_quantity(query), asks_for_name(query), query)

    def held_by(self, text: str) -> bool:
        """Whether ``text`` holds an answer of that kind."""
        return (self.quantity and has_quantity(text)) or (self.name and has_name(text, self.query))


@dataclass(frozen=True)
class ScoredUnit:
    """A unit of a ranked chunk with its score against the question."""

    unit: Unit
    score: float


@dataclass(frozen=True)
class RankedChunk:
    """A candidate chunk, its final score, and its units in reading order with their scores."""

    hit: ChunkHit
    score: float
    units: tuple[ScoredUnit, ...]

    @property
    def best(self) -> ScoredUnit | None:
        """The unit that answers best, if the chunk has any."""
        return max(self.units, key=lambda u: u.score, default=None)


@dataclass(frozen=True)
class Ranking:
    """Chunks best first, and the version chosen for each title found in several versions."""

    chunks: list[RankedChunk]
    versions: dict[str, VersionChoice]
    running_heads: frozenset[str] = frozenset()
    wants: AnswerType = AnswerType(quantity=False, name=False, query="")

    def version_note(self, hit: ChunkHit) -> str:
        """How the answer names the version of ``hit``: plain, or with the choice among versions."""
        choice = self.versions.get(hit.title.casefold())
        return choice.describe(hit.version) if choice else f"version {hit.version}"

    def preferred(self, hit: ChunkHit) -> bool:
        """Whether ``hit`` is of the version preferred for its title (or its title has one version)."""
        return not is_passed_over(hit, self.versions)

    def sources(self, *, floor: float, limit: int) -> list[ChunkHit]:
        """The chunks whose best unit reaches ``floor``, best first, at most ``limit``."""
        return [c.hit for c in self.chunks if c.best is not None and c.best.score >= floor][:limit]

    def cleaned(self, hit: ChunkHit) -> ChunkHit:
        """``hit`` with its page furniture (running heads, page numbers, contents lines) left out."""
        return hit.model_copy(update={"text": without_furniture(hit.text, self.running_heads, hit.title)})


def prefilter(
    candidates: Sequence[ChunkHit],
    choices: dict[str, VersionChoice],
    weights: dict[str, float],
    named: set[str],
    dated: bool = False,
) -> list[tuple[float, ChunkHit]]:
    """Stage 1: every candidate with its cheap score, best first."""
    scored = [
        (
            hit.score
            + CHUNK_WORDS * coverage(weights, fields(hit))
            + FUSED_RANK * FUSED_HALF / (FUSED_HALF + position)
            - adjustment(hit, choices, named, dated),
            hit,
        )
        for position, hit in enumerate(candidates)
    ]
    return sorted(scored, key=lambda pair: pair[0], reverse=True)


def adjustment(
    hit: ChunkHit, choices: dict[str, VersionChoice], named: set[str], dated: bool = False
) -> float:
    """What a chunk loses for being boilerplate or another version than the preferred one, less what
    it gains when the question names its document, and when it asks for that document's date
    (``dated``) and the chunk is its opening stating one."""
    own = hit.title.casefold() in named
    return (
        BOILERPLATE * hit.boilerplate
        + OTHER_VERSION * is_passed_over(hit, choices)
        - NAMED_TITLE * own
        - FRONT_MATTER * (dated and own and states_own_date(hit))
    )


async def rank(
    query: str,
    query_vector: npt.NDArray[np.float32],
    candidates: Sequence[ChunkHit],
    embedder: Embedder,
    *,
    stored: UnitIndex | None = None,
) -> Ranking:
    """``candidates`` re-ranked for ``query``: the best ``POOL`` by their best unit, best first.

    Unit vectors prepared ahead (``stored``) are read rather than embedded again.
    """
    choices = version_choices(candidates, query)
    weights = term_weights(query, [fields(hit) for hit in candidates])
    wants = AnswerType.of(query)
    named = named_titles(query, {hit.title for hit in candidates})
    dated = asks_for_document_date(query, named)
    pool = prefilter(candidates, choices, weights, named, dated)[:POOL]
    heads = running_heads((hit.page, hit.text) for hit in candidates)
    drafts = [
        [
            ScoredUnit(u, _words_score(hit, u, weights, wants))
            for u in comparable_units(hit.text, running_heads=heads, title=hit.title)
        ]
        for _, hit in pool
    ]
    # Only each chunk's most promising units are embedded: embedding is most of the cost.
    chosen = [
        found if place < WHOLE_CHUNKS else sorted(found, key=lambda u: u.score, reverse=True)[:EMBEDDED_UNITS]
        for place, found in enumerate(drafts)
    ]
    wanted = [
        (hit, compared_text(hit.text, u.unit))
        for (_, hit), found in zip(pool, chosen, strict=True)
        for u in found
    ]
    similarities = iter((await _VECTORS.embed(embedder, wanted, stored=stored)) @ query_vector)
    ranked: list[RankedChunk] = []
    for (first_score, hit), found, picked in zip(pool, drafts, chosen, strict=True):
        meaning = {u.unit: float(next(similarities)) for u in picked}
        scored = tuple(ScoredUnit(u.unit, u.score + meaning.get(u.unit, UNSEEN)) for u in found)
        best = max((u.score for u in scored), default=UNSEEN)
        ranked.append(
            RankedChunk(
                hit, best + CHUNK_SHARE * first_score - adjustment(hit, choices, named, dated), scored
            )
        )
    ranked.sort(key=lambda chunk: chunk.score, reverse=True)
    return Ranking(ranked, choices, heads, wants)


#: Unit vectors kept across requests: chunks come back question after question.
_VECTORS = UnitVectors()


def _words_score(hit: ChunkHit, unit: Unit, weights: dict[str, float], wants: AnswerType) -> float:
    """What a unit scores before its meaning is compared: the question's words, and the kind of
    answer asked for."""
    text = hit.text[unit.start : unit.end]
    words = coverage(weights, f"{unit.heading}\n{text}")
    return UNIT_WORDS * words + (ANSWER_TYPE if wants.held_by(text) else 0.0)
