"""Themes without a language model: sentences grouped by meaning, each group named by its own words.

Spherical k-means over the sentence embeddings, seeded deterministically (the most central sentence,
then each time the sentence farthest from every seed), so the same sentences always give the same
themes. A theme's name is the words that set its sentences apart from the others (tf-idf over themes).
"""

import math
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

#: docs/product.md, Holistic comparison: 3-5 themes.
MIN_THEMES = 3
MAX_THEMES = 5
#: About one theme per this many sentences, within [MIN_THEMES, MAX_THEMES].
SENTENCES_PER_THEME = 8
_ITERATIONS = 25
_NAME_WORDS = 3

_WORD = re.compile(r"[a-z][a-z-]{2,}")
_STOPWORDS = frozenset(
    [
        "the",
        "and",
        "for",
        "that",
        "this",
        "with",
        "are",
        "was",
        "were",
        "been",
        "being",
        "have",
        "has",
        "had",
        "not",
        "but",
        "any",
        "all",
        "each",
        "every",
        "such",
        "which",
        "who",
        "whom",
        "whose",
        "what",
        "when",
        "where",
        "why",
        "how",
        "than",
        "then",
        "there",
        "their",
        "they",
        "them",
        "its",
        "into",
        "onto",
        "from",
        "upon",
        "over",
        "under",
        "about",
        "after",
        "before",
        "between",
        "within",
        "without",
        "shall",
        "must",
        "may",
        "might",
        "can",
        "could",
        "should",
        "would",
        "will",
        "also",
        "other",
        "others",
        "more",
        "most",
        "less",
        "least",
        "only",
        "own",
        "same",
        "very",
        "per",
        "via",
        "out",
        "off",
        "our",
        "your",
        "his",
        "her",
        "one",
        "two",
        "three",
        "made",
        "make",
        "makes",
        "under",
        "page",
        "section",
        "clause",
        "article",
        "paragraph",
        "part",
        "document",
        "policy",
        "these",
        "those",
        "yes",
        "use",
        "used",
        "using",
        "including",
        "include",
        "includes",
        "well",
        "however",
        "therefore",
        "whether",
    ]
)


@dataclass(frozen=True)
class Theme:
    """A group of sentences (indexes into the input), its centre and its name."""

    name: str
    members: list[int]
    centroid: npt.NDArray[np.float32]


def theme_count(sentences: int) -> int:
    """How many themes ``sentences`` sentences support: 3-5, never more than there are sentences."""
    wanted = max(MIN_THEMES, min(MAX_THEMES, round(sentences / SENTENCES_PER_THEME)))
    return max(0, min(wanted, sentences))


def find_themes(
    texts: Sequence[str], vectors: npt.NDArray[np.float32], count: int | None = None
) -> list[Theme]:
    """Group ``texts`` (with their L2-normalised ``vectors``) into themes, largest first."""
    k = theme_count(len(texts)) if count is None else min(count, len(texts))
    if k == 0:
        return []
    labels = _cluster(vectors, k)
    groups = [[i for i, label in enumerate(labels) if label == cluster] for cluster in range(k)]
    groups = [group for group in groups if group]
    names = _names([[texts[i] for i in group] for group in groups])
    themes = [
        Theme(name=name, members=group, centroid=_normalised(vectors[group].mean(axis=0)))
        for name, group in zip(names, groups, strict=True)
    ]
    # Largest theme first; ties by where the theme first appears.
    return sorted(themes, key=lambda theme: (-len(theme.members), theme.members[0]))


def centrality(vectors: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
    """Cosine similarity of each vector to the centre of all of them: how typical each sentence is."""
    if len(vectors) == 0:
        return np.zeros(0, dtype=np.float32)
    scores: npt.NDArray[np.float32] = vectors @ _normalised(vectors.mean(axis=0))
    return scores


def content_words(text: str) -> list[str]:
    """The words of ``text`` that carry its subject: lower-cased, stopwords and short words left out."""
    return [word for word in _WORD.findall(text.lower()) if word not in _STOPWORDS]


def _cluster(vectors: npt.NDArray[np.float32], k: int) -> list[int]:
    seeds = [int(np.argmax(centrality(vectors)))]
    while len(seeds) < k:
        nearest_seed = (vectors @ vectors[seeds].T).max(axis=1)
        seeds.append(int(np.argmin(nearest_seed)))
    centres = vectors[seeds]
    labels = np.argmax(vectors @ centres.T, axis=1)
    for _ in range(_ITERATIONS):
        centres = np.vstack(
            [
                _normalised(vectors[labels == c].mean(axis=0)) if np.any(labels == c) else centres[c]
                for c in range(k)
            ]
        )
        updated = np.argmax(vectors @ centres.T, axis=1)
        if np.array_equal(updated, labels):
            break
        labels = updated
    return [int(label) for label in labels]


def _names(groups: list[list[str]]) -> list[str]:
    counts = [
        Counter(w for text in group for w in _WORD.findall(text.lower()) if w not in _STOPWORDS)
        for group in groups
    ]
    spread = Counter(word for count in counts for word in count)
    names = []
    for count in counts:
        ranked = sorted(
            count,
            key=lambda word: (-count[word] * math.log(1 + len(groups) / spread[word]), word),
        )
        names.append(", ".join(ranked[:_NAME_WORDS]) or "general")
    return names


def _normalised(vector: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
    norm = float(np.linalg.norm(vector))
    result: npt.NDArray[np.float32] = (vector / norm if norm > 0 else vector).astype(np.float32)
    return result
