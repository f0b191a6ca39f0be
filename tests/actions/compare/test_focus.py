"""Holistic unless the query names a topic."""

import pytest

from actions.compare.focus import focus_topic


@pytest.mark.parametrize(
    "query", ["", "Compare these two documents", "What are the differences?", "compare them please"]
)
def test_no_topic_means_holistic(query: str) -> None:
    assert focus_topic(query) is None


def test_a_topic_is_kept_as_asked() -> None:
    assert focus_topic("Compare  capital requirements between these docs") == (
        "Compare capital requirements between these docs"
    )
