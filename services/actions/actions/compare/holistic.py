"""The holistic comparison (docs/product.md, Holistic comparison): themes across the documents' samples, then the 5-section report.

Offline and extractive: themes are clusters of the sampled sentences, named by a section title the
documents share or a shared key phrase (``theme_names``); the
documents' sentences are paired with their counterparts; a pair worded differently is a difference
(the changed words are shown), a pair worded alike is common ground, and a sentence with nothing
related in the other documents is unique to its document. Every sentence is quoted and cited.
"""

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from itertools import combinations

import numpy as np
import numpy.typing as npt

from actions.citing.markers import CitationMarkers, shown
from actions.compare.theme_names import named_themes
from actions.extracts import Extract
from actions.lifecycle.request import ActionAnswer
from actions.passage_alignment import align, unmatched
from actions.themes import Theme, centrality, find_themes
from actions.wording_differences import changed_words, same_wording
from policypal.contracts import HolisticComparison, ResolvedDocument
from policypal.contracts.comparison import ChangedWords, CounterpartDifference

MAX_DIFFERENCES = 8
MAX_SIMILARITIES = 4
MAX_UNIQUE_EACH = 2

IMPLICATIONS_OFFLINE = (
    "Offline mode: this comparison was composed without a language model, so what the differences mean "
    "for your organisation is not assessed. Review each difference above against your current policy; "
    "the changed words are shown as written in each document."
)


@dataclass(frozen=True)
class DocumentSentences:
    """One document's sampled sentences and their L2-normalised vectors (one row each)."""

    document: ResolvedDocument
    extracts: list[Extract]
    vectors: npt.NDArray[np.float32]
    #: The heading each extract stands under (None where unknown); empty when no headings are known.
    sections: list[str | None] = field(default_factory=list)


@dataclass(frozen=True)
class Counterparts:
    """Sentence ``left`` of ``first`` and its counterpart ``right`` of ``second``, under ``theme``."""

    theme: str
    first: ResolvedDocument
    left: Extract
    second: ResolvedDocument
    right: Extract
    similarity: float


@dataclass(frozen=True)
class UniquePassage:
    theme: str
    document: ResolvedDocument
    extract: Extract


@dataclass(frozen=True)
class HolisticAnalysis:
    """What the holistic comparison rests on: named themes, counterparts that differ or agree, and
    what only one document covers (each under its theme)."""

    themes: list[Theme]
    differences: list[Counterparts]
    similarities: list[Counterparts]
    unique: list[UniquePassage]


def analyse(documents: Sequence[DocumentSentences]) -> HolisticAnalysis:
    """Themes over the documents' sentences, and their counterparts and unique sentences."""
    texts = [e.plain for d in documents for e in d.extracts]
    all_vectors = np.vstack([d.vectors for d in documents]) if texts else np.zeros((0, 384), np.float32)
    sections = [
        d.sections[i] if i < len(d.sections) else None for d in documents for i in range(len(d.extracts))
    ]
    owners = [n for n, d in enumerate(documents) for _ in d.extracts]
    themes = named_themes(find_themes(texts, all_vectors), texts, sections, owners)
    theme_of = _theme_lookup(documents, themes)
    differences: list[Counterparts] = []
    similarities: list[Counterparts] = []
    for (a, first), (_, second) in combinations(enumerate(documents), 2):
        for pair in align(first.vectors, second.vectors):
            left, right = first.extracts[pair.left], second.extracts[pair.right]
            found = Counterparts(
                theme_of[(a, pair.left)], first.document, left, second.document, right, pair.similarity
            )
            (similarities if same_wording(left.text, right.text) else differences).append(found)
    # The closest reworded counterparts first: one changed figure in a kept clause is what changed.
    differences.sort(key=lambda c: -c.similarity)
    unique = [item for d in range(len(documents)) for item in _unique_to(d, documents, theme_of)]
    return HolisticAnalysis(themes, differences, similarities, unique)


def aligned_material(analysis: HolisticAnalysis, number_of: Callable[[Extract], int | None]) -> str:
    """The analysis as a language model reads it: per theme, counterparts and unique passages, each
    sentence with the number of the passage it comes from (``number_of``; None leaves it out)."""
    lines = []
    for theme in analysis.themes:
        entries = []
        for item in analysis.differences[:MAX_DIFFERENCES]:
            n1, n2 = number_of(item.left), number_of(item.right)
            if item.theme == theme.name and n1 is not None and n2 is not None:
                changes = changed_words(item.left.plain, item.right.plain)
                changed = "; ".join(f"“{c.before or '—'}” → “{c.after or '—'}”" for c in changes)
                entries.append(
                    f"- Differs: {_name(item.first)} [{n1}] “{item.left.plain}” / {_name(item.second)} "
                    f"[{n2}] “{item.right.plain}” (changed: {changed})"
                )
        for item in analysis.similarities[:MAX_SIMILARITIES]:
            n1, n2 = number_of(item.left), number_of(item.right)
            if item.theme == theme.name and n1 is not None and n2 is not None:
                entries.append(
                    f"- Same in {_name(item.first)} [{n1}] and {_name(item.second)} [{n2}]: “{item.left.plain}”"
                )
        for unique in analysis.unique:
            number = number_of(unique.extract)
            if unique.theme == theme.name and number is not None:
                entries.append(f"- Only {_name(unique.document)} [{number}]: “{unique.extract.plain}”")
        if entries:
            lines += [f"### {theme.name}", *entries]
    return "\n".join(lines)


def compose_holistic(documents: Sequence[DocumentSentences]) -> ActionAnswer:
    """The 5-section holistic comparison of 2-5 documents' sampled sentences.

    Named passes, in the order the markers are given out: the overview, the key differences, the key
    similarities, the unique aspects; then the report is laid out around them.
    """
    analysis = analyse(documents)
    markers = CitationMarkers()
    overview = _overview(documents, markers)
    differences = _key_differences(analysis.differences, markers)
    similarity_lines = _key_similarities(analysis.similarities, markers)
    unique_lines = _unique_aspects(analysis.unique, markers)
    lines = _report(
        documents,
        analysis,
        overview=overview,
        differences=differences.lines,
        similarities=similarity_lines,
        unique=unique_lines,
    )
    return ActionAnswer(
        answer="\n".join(lines),
        citations=markers.citations,
        result=HolisticComparison(
            themes=[theme.name for theme in analysis.themes],
            differences=differences.listed,
            similarities=len(analysis.similarities),
            unique=len(unique_lines),
        ),
    )


@dataclass(frozen=True)
class KeyDifferences:
    """The answer's lines on the differences and the same differences as the result lists them."""

    lines: list[str]
    listed: list[CounterpartDifference]


def _key_differences(differences: Sequence[Counterparts], markers: CitationMarkers) -> KeyDifferences:
    """The closest reworded counterparts (at most MAX_DIFFERENCES), both sides quoted and cited."""
    lines, listed = [], []
    for item in differences[:MAX_DIFFERENCES]:
        m1, m2 = markers.mark(item.left), markers.mark(item.right)
        if m1 is None or m2 is None:
            continue
        changes = changed_words(item.left.plain, item.right.plain)
        changed = "; ".join(f"“{c.before or '—'}” → “{c.after or '—'}”" for c in changes)
        lines.append(
            f"- {item.theme}: {_name(item.first)} says “{shown(item.left)}” [{m1}]; {_name(item.second)} says "
            f"“{shown(item.right)}” [{m2}]. Changed: {changed}."
        )
        listed.append(
            CounterpartDifference(
                theme=item.theme,
                documents=(item.first.document_id, item.second.document_id),
                markers=(m1, m2),
                changes=[ChangedWords(before=c.before, after=c.after) for c in changes],
            )
        )
    return KeyDifferences(lines, listed)


def _key_similarities(similarities: Sequence[Counterparts], markers: CitationMarkers) -> list[str]:
    """Counterparts worded the same (at most MAX_SIMILARITIES), cited in both documents."""
    lines = []
    for item in similarities[:MAX_SIMILARITIES]:
        m1, m2 = markers.mark(item.left), markers.mark(item.right)
        if m1 is not None and m2 is not None:
            lines.append(
                f"- {item.theme}: {_name(item.first)} and {_name(item.second)} both say “{shown(item.left)}” [{m1}] [{m2}]"
            )
    return lines


def _unique_aspects(unique: Sequence[UniquePassage], markers: CitationMarkers) -> list[str]:
    """What only one document says, quoted and cited (passages that cannot be cited are left out)."""
    return [
        f"- Only {_name(item.document)} — {item.theme}: “{shown(item.extract)}” [{marker}]"
        for item in unique
        if (marker := markers.mark(item.extract)) is not None
    ]


def _report(
    documents: Sequence[DocumentSentences],
    analysis: HolisticAnalysis,
    *,
    overview: list[str],
    differences: list[str],
    similarities: list[str],
    unique: list[str],
) -> list[str]:
    """The report's lines: the themes, then Overview, Key differences, Key similarities, Unique
    aspects and Implications, each with a sentence saying so when it has nothing to show."""
    themes = analysis.themes
    return [
        f"Comparison of {_names(documents)}, theme by theme, from passages sampled across each document.",
        "",
        "Themes: " + "; ".join(f"{n}. {theme.name}" for n, theme in enumerate(themes, start=1))
        if themes
        else "Themes: none (no indexed text was found).",
        "",
        "## Overview",
        *overview,
        "",
        "## Key differences",
        *(differences or ["- No passage of one document has a reworded counterpart in another."]),
        "",
        "## Key similarities",
        *(similarities or ["- No passage is worded the same in two documents."]),
        *(
            [f"- In all, {len(analysis.similarities)} sampled passages are worded the same."]
            if analysis.similarities
            else []
        ),
        "",
        "## Unique aspects",
        *(unique or ["- Every sampled passage has a related passage in another document."]),
        "",
        "## Implications",
        IMPLICATIONS_OFFLINE,
    ]


def _unique_to(
    d: int, documents: Sequence[DocumentSentences], theme_of: dict[tuple[int, int], str]
) -> list[UniquePassage]:
    """The most typical sentences of document ``d`` with nothing related in the other documents."""
    doc = documents[d]
    others = [o.vectors for k, o in enumerate(documents) if k != d]
    lonely = unmatched(doc.vectors, np.vstack(others) if others else doc.vectors[:0])
    scores = centrality(doc.vectors)
    ranked = sorted(lonely, key=lambda i: -float(scores[i]))[:MAX_UNIQUE_EACH]
    return [UniquePassage(theme_of[(d, i)], doc.document, doc.extracts[i]) for i in ranked]


def _overview(documents: Sequence[DocumentSentences], markers: CitationMarkers) -> list[str]:
    lines = []
    for doc in documents:
        if not doc.extracts:
            lines.append(f"- {_name(doc.document)}: no indexed text was found.")
            continue
        central = doc.extracts[int(np.argmax(centrality(doc.vectors)))]
        marker = markers.mark(central)
        quote = f" “{shown(central)}” [{marker}]" if marker is not None else ""
        lines.append(
            f"- {_name(doc.document)} ({doc.document.doc_type}), in its most typical passage:{quote}"
        )
    return lines


def _theme_lookup(documents: Sequence[DocumentSentences], themes: list[Theme]) -> dict[tuple[int, int], str]:
    """(document position, extract position) -> theme name."""
    flat = [(d, i) for d, doc in enumerate(documents) for i in range(len(doc.extracts))]
    return {flat[member]: theme.name for theme in themes for member in theme.members}


def _name(document: ResolvedDocument) -> str:
    return f"“{document.title}” ({document.version})"


def _names(documents: Sequence[DocumentSentences]) -> str:
    names = [_name(d.document) for d in documents]
    return ", ".join(names[:-1]) + f" and {names[-1]}"
