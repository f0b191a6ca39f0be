"""Themes from sentence embeddings: deterministic, 3-5, named by their own words."""

import pytest

from actions.themes import find_themes, theme_count
from policypal.embeddings import MiniLMEmbedder

SENTENCES = [
    "Customer records must be retained for seven years.",
    "Records are archived in encrypted form after the account closes.",
    "Retention of customer records is checked every year.",
    "Security incidents must be reported to the regulator within 72 hours.",
    "An incident report describes the customers affected.",
    "The incident response plan is tested once a year.",
    "Employees complete data protection training when hired.",
    "Training records show the date and content of each course.",
    "Contractors receive training before they access systems.",
]


@pytest.mark.parametrize(("sentences", "expected"), [(0, 0), (2, 2), (9, 3), (30, 4), (300, 5)])
def test_theme_count(sentences: int, expected: int) -> None:
    assert theme_count(sentences) == expected


def test_themes_group_sentences_by_topic_and_are_deterministic(embedder: MiniLMEmbedder) -> None:
    vectors = embedder.embed(SENTENCES)
    themes = find_themes(SENTENCES, vectors)
    assert sorted(sorted(t.members) for t in themes) == [[0, 1, 2], [3, 4, 5], [6, 7, 8]]
    assert {name for t in themes for name in t.name.split(", ")} >= {"records", "incident", "training"}
    assert [t.members for t in find_themes(SENTENCES, vectors)] == [t.members for t in themes]
