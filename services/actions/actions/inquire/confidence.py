"""How much the retrieved chunks can be trusted: three tiers from their similarity (docs/product.md, Confidence tiers).

Thresholds depend on the embedding model: all-MiniLM-L6-v2 scores a 1000-character chunk against a
question far lower than the values used for OpenAI embeddings (0.5 / 0.75, docs/product.md, Confidence tiers). The MiniLM values were calibrated on
real documents with ``bench/retrieval_recall.py`` (method and numbers in docs/benchmarks.md).
"""

from dataclasses import dataclass
from statistics import mean

from policypal.contracts import ActionRequested, ConfidenceTier
from policypal.contracts.action_options import inquire_options
from policypal.embeddings.minilm import MODEL_ID as MINILM_MODEL_ID
from policypal.vectorstore import ChunkHit

#: How many of the best chunks the score averages: the answer rests on the first few.
SCORED_HITS = 3

MEDIUM_CAUTION = (
    "Medium confidence: the matching passages are only partly on topic; verify against the cited pages."
)
#: Said with an answer the user asked for although retrieval found only weak matches.
LOW_CAUTION = (
    "Low confidence: no passage matches this question well, so this answer may be incomplete or off "
    "topic; verify it against the cited pages."
)


@dataclass(frozen=True)
class Thresholds:
    """Cosine similarities of one embedding model, question against chunk.

    ``stop``: adaptive-k keeps no chunk below it. ``low`` / ``high``: the score (mean similarity of
    the best chunks) below ``low`` is low confidence, from ``high`` up high confidence.
    """

    stop: float
    low: float
    high: float


MINILM = Thresholds(stop=0.30, low=0.38, high=0.55)
#: The values for OpenAI embeddings (docs/product.md, Confidence tiers), used for any model not calibrated here.
UNCALIBRATED = Thresholds(stop=0.50, low=0.50, high=0.75)
_CALIBRATED = {MINILM_MODEL_ID: MINILM}


def thresholds_for(model_id: str) -> Thresholds:
    """The thresholds calibrated for ``model_id``, else the uncalibrated defaults."""
    return _CALIBRATED.get(model_id, UNCALIBRATED)


@dataclass(frozen=True)
class Confidence:
    """The tier and the score it was read from (0.0 when nothing was retrieved)."""

    tier: ConfidenceTier
    score: float


def asks_how_to_go_on(confidence: Confidence, hits: list[ChunkHit], event: ActionRequested) -> bool:
    """Weak matches end with a question, unless the user already answered it with "continue anyway"."""
    return bool(hits) and confidence.tier == "low" and not inquire_options(event).accept_low_confidence


def caution_for(confidence: Confidence | None, event: ActionRequested) -> str | None:
    """The caution said with an answer: medium matches, or weak ones the user chose to go on with."""
    if confidence is None or confidence.tier == "high":
        return None
    if confidence.tier == "medium":
        return MEDIUM_CAUTION
    # A low tier answered without being asked is "nothing matches", which says so itself.
    return LOW_CAUTION if inquire_options(event).accept_low_confidence else None


@dataclass(frozen=True)
class LowConfidence:
    """Retrieval found only weak matches: the user is asked how to go on instead of being answered."""

    confidence: Confidence


def assess(hits: list[ChunkHit], thresholds: Thresholds) -> Confidence:
    """The confidence of an answer resting on ``hits``: the mean similarity of the best few."""
    if not hits:
        return Confidence("low", 0.0)
    score = mean(sorted((hit.score for hit in hits), reverse=True)[:SCORED_HITS])
    if score >= thresholds.high:
        return Confidence("high", score)
    if score >= thresholds.low:
        return Confidence("medium", score)
    return Confidence("low", score)
