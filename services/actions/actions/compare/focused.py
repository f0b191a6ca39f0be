"""The focused comparison (docs/product.md, Focused comparison): what each document says on one topic, as a difference table.

Offline and extractive: per document, the sentences of its chunks nearest to the topic; the table
quotes them side by side, then the counterparts that differ are listed with their changed words.
"""

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations

import numpy as np
import numpy.typing as npt

from actions.citing.markers import CitationMarkers, shown
from actions.extracts import Extract
from actions.lifecycle.request import ActionAnswer
from actions.passage_alignment import align
from actions.wording_differences import changed_words, same_wording
from policypal.contracts import FocusedComparison, ResolvedDocument
from policypal.contracts.comparison import ChangedWords, CounterpartDifference

#: all-MiniLM-L6-v2: a sentence on the topic scores ~0.5-0.85 against it, an unrelated one < 0.3.
TOPIC_FLOOR = 0.35
#: Sentences much weaker than the document's best one are about something else.
RELATIVE_MARGIN = 0.2
#: docs/product.md, Focused comparison: at most this many sentences of each document are shown.
SENTENCES_EACH = 3

OFFLINE_NOTE = (
    "Offline mode: this comparison was composed without a language model. The passages are quoted as "
    "written; read the cited pages for their full context."
)


@dataclass(frozen=True)
class TopicSentences:
    """One document's candidate sentences on the topic, with their vectors and topic similarities."""

    document: ResolvedDocument
    extracts: list[Extract]
    vectors: npt.NDArray[np.float32]
    scores: list[float]


def on_topic(candidates: TopicSentences) -> list[int]:
    """Positions of the best sentences on the topic (at most SENTENCES_EACH), in reading order."""
    ranked = sorted(range(len(candidates.extracts)), key=lambda i: -candidates.scores[i])
    if not ranked or candidates.scores[ranked[0]] < TOPIC_FLOOR:
        return []
    cutoff = max(TOPIC_FLOOR, candidates.scores[ranked[0]] - RELATIVE_MARGIN)
    best = [i for i in ranked if candidates.scores[i] >= cutoff][:SENTENCES_EACH]
    return sorted(best, key=lambda i: candidates.extracts[i].reading_position)


def compose_focused(topic: str, documents: Sequence[TopicSentences]) -> ActionAnswer:
    """The difference table of 2-5 documents on ``topic``, with the changed words of counterparts."""
    markers = CitationMarkers()
    chosen = [on_topic(doc) for doc in documents]
    rows = ["| Document | What it says on this topic |", "|---|---|"]
    for doc, positions in zip(documents, chosen, strict=True):
        cells = [
            f"“{_cell(shown(doc.extracts[i]))}” [{marker}]"
            for i in positions
            if (marker := markers.mark(doc.extracts[i])) is not None
        ]
        said = "<br>".join(cells) or "Not addressed: no passage on this topic was found."
        rows.append(f"| {_cell(_name(doc.document))} | {said} |")

    differences: list[str] = []
    alike: list[str] = []
    result_differences: list[CounterpartDifference] = []
    for (a, first), (b, second) in combinations(enumerate(documents), 2):
        left_pos, right_pos = chosen[a], chosen[b]
        for pair in align(first.vectors[left_pos], second.vectors[right_pos]):
            left, right = first.extracts[left_pos[pair.left]], second.extracts[right_pos[pair.right]]
            m1, m2 = markers.mark(left), markers.mark(right)
            if m1 is None or m2 is None:
                continue
            if same_wording(left.text, right.text):
                alike.append(
                    f"- {_name(first.document)} and {_name(second.document)} say the same [{m1}] [{m2}]."
                )
                continue
            changes = changed_words(left.plain, right.plain)
            changed = "; ".join(f"“{c.before or '—'}” → “{c.after or '—'}”" for c in changes)
            differences.append(
                f"- {_name(first.document)} [{m1}] → {_name(second.document)} [{m2}]: {changed}."
            )
            result_differences.append(
                CounterpartDifference(
                    documents=(first.document.document_id, second.document.document_id),
                    markers=(m1, m2),
                    changes=[ChangedWords(before=c.before, after=c.after) for c in changes],
                )
            )
    missing = [_name(doc.document) for doc, positions in zip(documents, chosen, strict=True) if not positions]
    lines = [
        f"Comparison on “{topic}”:",
        "",
        *rows,
        "",
        "Differences between counterpart passages:",
        *(
            differences
            or ["- None: no passage on this topic has a reworded counterpart in another document."]
        ),
    ]
    if alike:
        lines += ["", "Worded the same:", *alike]
    if missing:
        lines += ["", f"Not addressed by {', '.join(missing)}."]
    lines += ["", OFFLINE_NOTE]
    return ActionAnswer(
        answer="\n".join(lines),
        citations=markers.citations,
        result=FocusedComparison(topic=topic, differences=result_differences),
    )


def _name(document: ResolvedDocument) -> str:
    return f"“{document.title}” ({document.version})"


def _cell(text: str) -> str:
    # A pipe inside a quote would end the table cell.
    return text.replace("|", "\\|")
