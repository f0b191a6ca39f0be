"""Offline findings: each source statement matched to its best target passage, flagged for review.

No verdict is made up. A statement with a related target passage (cosine similarity of
all-MiniLM-L6-v2 at or above RELATED) becomes a finding when the wording shows something to check:
numbers that differ (High), a negation or an obligation that differs (Medium), or only a partial
match (Low). Severities are review priorities from textual signals, never legal judgments, and every
finding needs review. A statement worded as its target (or nearly: CONSISTENT) is no finding.
"""

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from actions.audit.statements import SourceStatement
from actions.extracts import Extract
from actions.inquire.citations import quote_from
from actions.wording_differences import Signals, same_wording, signals
from policypal.contracts import ResolvedDocument
from policypal.contracts.audit import SEVERITY_ORDER, Severity

#: Same provision or the same topic: ~0.75-0.98 for a rule and its changed or reworded version.
RELATED = 0.55
#: This close without any differing number, negation or obligation: the statement agrees with its target.
CONSISTENT = 0.85
#: Low findings (partial matches) shown per target, after every High and Medium one.
MAX_LOW_EACH = 5

CONSEQUENCE_OFFLINE = (
    "Not assessed: composed without a language model, so the impact of this difference needs a reviewer."
)


@dataclass(frozen=True)
class Match:
    """A source statement, its best passage in one target, and what their wording shows."""

    statement: SourceStatement
    target: ResolvedDocument
    passage: Extract
    similarity: float
    signals: Signals
    severity: Severity


@dataclass
class Tally:
    """What happened to the statements checked against one target."""

    findings: list[Match]
    consistent: int = 0
    unrelated: int = 0


def best_matches(
    statements: Sequence[SourceStatement],
    statement_vectors: npt.NDArray[np.float32],
    passages: Sequence[Extract],
    passage_vectors: npt.NDArray[np.float32],
) -> list[tuple[int, float] | None]:
    """For each statement, (position of its most similar passage, similarity); None when there are none."""
    if len(passages) == 0:
        return [None] * len(statements)
    similarities = statement_vectors @ passage_vectors.T
    best = similarities.argmax(axis=1)
    return [(int(best[i]), float(similarities[i, best[i]])) for i in range(len(statements))]


def classify(
    statement: SourceStatement, target: ResolvedDocument, passage: Extract, similarity: float
) -> Match | None:
    """The finding a statement and its best target passage call for; None when they agree or are unrelated."""
    if similarity < RELATED:
        return None
    fired = signals(statement.plain, passage.plain)
    if fired.numbers_differ:
        severity: Severity = "High"
    elif fired.any:
        severity = "Medium"
    elif same_wording(statement.text, passage.text) or similarity >= CONSISTENT:
        return None
    else:
        severity = "Low"
    return Match(statement, target, passage, similarity, fired, severity)


def tally(
    matches: Sequence[tuple[SourceStatement, Extract, float] | None], target: ResolvedDocument
) -> Tally:
    """Classify every statement's best match in ``target``; findings ordered by severity then similarity."""
    result = Tally(findings=[])
    for match in matches:
        if match is None:
            result.unrelated += 1
            continue
        statement, passage, similarity = match
        found = classify(statement, target, passage, similarity)
        if found is not None:
            result.findings.append(found)
        elif similarity < RELATED:
            result.unrelated += 1
        else:
            result.consistent += 1
    ordered = sorted(result.findings, key=lambda m: (SEVERITY_ORDER.index(m.severity), -m.similarity))
    lows = [m for m in ordered if m.severity == "Low"][MAX_LOW_EACH:]
    result.findings = [m for m in ordered if m not in lows]
    return result


def suggestion(match: Match) -> str:
    """What the reviewer should check, from the textual signals (quoting nothing that is not there)."""
    title = f"“{match.target.title}”"
    if not match.signals.any:
        return f"Partial match only: check whether the statement fully covers what {title} requires in the cited clause."
    reasons = " and ".join(match.signals.describe())
    return f"Compare the statement with the cited clause of {title}: {reasons}. Align the wording if they should agree."


def target_quote(match: Match) -> str:
    """The verbatim quote of the target passage (the same one its citation carries)."""
    return quote_from(match.passage.text)
