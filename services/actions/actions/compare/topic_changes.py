"""The edits between versions that bear on one topic: a focused comparison of versions.

Retrieving a topic's passages shows what each version says; it does not show what changed. For
versions of one document the redline of each pair is computed, and its changes nearest to the topic
(either wording against the topic, MiniLM cosine) are shown with their changed words marked.
"""

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from actions.citing.markers import CitationMarkers
from actions.compare.redline import PairRedline, RedlineItem, change_entry
from actions.drafting import document_name
from actions.sentences import embed_texts
from policypal.contracts import Citation
from policypal.contracts.comparison import VersionPairEdits
from policypal.embeddings import Embedder

#: all-MiniLM-L6-v2: a sentence on the topic scores ~0.45-0.85 against it, an unrelated one < 0.3.
TOPIC_FLOOR = 0.35
#: Changes much weaker than the best one are about something else.
RELATIVE_MARGIN = 0.15
#: Changes shown per pair of versions.
CHANGES_EACH = 6


@dataclass(frozen=True)
class TopicChanges:
    """The answer's section on the changes, its citations and the structured changes per pair."""

    lines: list[str]
    citations: list[Citation]
    result: list[VersionPairEdits]


async def changes_on_topic(
    pairs: Sequence[PairRedline], topic: npt.NDArray[np.float32], embedder: Embedder, *, first_marker: int
) -> TopicChanges:
    """The changes of ``pairs`` nearest to the ``topic`` vector, cited from ``first_marker`` on."""
    markers = CitationMarkers(first_marker)
    lines = ["", "## Changes between the versions on this topic"]
    result = []
    for pair in pairs:
        chosen = await _nearest(pair.items, topic, embedder)
        heading = f"{document_name(pair.first.document)} → {document_name(pair.second.document)}"
        entries = [change_entry(item, markers) for item in chosen]
        lines.append(f"{heading}:")
        lines += [line for entry in entries for line in entry.lines] or [
            "- No change on this topic: the versions say the same on it."
        ]
        result.append(
            VersionPairEdits(
                from_=pair.first.document.document_id,
                to=pair.second.document.document_id,
                changes=[entry.record for entry in entries],
            )
        )
    return TopicChanges(lines, markers.citations, result)


async def _nearest(
    items: Sequence[RedlineItem], topic: npt.NDArray[np.float32], embedder: Embedder
) -> list[RedlineItem]:
    """The items nearest to ``topic`` (at most CHANGES_EACH), in the redline's order."""
    texts = [
        [" ".join(p.text.split()) for p in (item.change.before, item.change.after) if p is not None]
        for item in items
    ]
    flat = [text for pair in texts for text in pair]
    if not flat:
        return []
    scores = await embed_texts(embedder, flat) @ topic
    best, position = [], 0
    for item_texts in texts:
        best.append(float(scores[position : position + len(item_texts)].max()))
        position += len(item_texts)
    top = max(best)
    if top < TOPIC_FLOOR:
        return []
    cutoff = max(TOPIC_FLOOR, top - RELATIVE_MARGIN)
    ranked = sorted((i for i in range(len(items)) if best[i] >= cutoff), key=lambda i: -best[i])
    return [items[i] for i in sorted(ranked[:CHANGES_EACH])]
