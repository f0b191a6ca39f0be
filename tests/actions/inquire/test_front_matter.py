"""Questions about a document's own date: recognised only when they name the document and ask nothing else."""

import pytest

from actions.inquire.front_matter import OPENING_CHUNKS, asks_for_document_date, is_opening, states_own_date
from tests.actions.inquire.hand_made_hits import chunk_hit

FHS = "filesystem hierarchy standard"
GPL3 = "gnu general public license v3"


@pytest.mark.parametrize(
    ("query", "named"),
    [
        ("When was FHS 3.0 published?", {FHS}),
        ("what's the date of GPL version 3?", {GPL3}),
        ("when was version 3 of the GPL released?", {GPL3}),
        ("When did the Filesystem Hierarchy Standard come into force?", {FHS}),
    ],
)
def test_a_date_question_about_a_named_document_is_about_the_document_itself(
    query: str, named: set[str]
) -> None:
    assert asks_for_document_date(query, named)


@pytest.mark.parametrize(
    ("query", "named"),
    [
        # No document named: a date question about the library's content.
        ("When was FHS 3.0 published?", set()),
        # Named, but the question is about something the document regulates.
        ("In the FHS, when may files in /var/tmp be deleted at boot?", {FHS}),
        # Named, but no date asked for.
        ("Who publishes the FHS?", {FHS}),
    ],
)
def test_other_questions_are_not(query: str, named: set[str]) -> None:
    assert not asks_for_document_date(query, named)


def test_the_opening_is_the_documents_first_chunks() -> None:
    assert is_opening(chunk_hit("Publication date: March 19, 2015", chunk_index=0))
    assert is_opening(chunk_hit("Copyright notice", chunk_index=OPENING_CHUNKS - 1))
    assert not is_opening(chunk_hit("Subsequent revisions were released on…", chunk_index=OPENING_CHUNKS))


def test_an_opening_states_the_documents_date_only_when_it_holds_one() -> None:
    assert states_own_date(chunk_hit("Publication date March 19, 2015", chunk_index=0))
    assert not states_own_date(chunk_hit("Filesystem Hierarchy Standard", chunk_index=0))
    assert not states_own_date(chunk_hit("Released on October 9, 1994.", chunk_index=OPENING_CHUNKS + 3))
