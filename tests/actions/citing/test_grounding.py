"""Markers of a generated answer tied to the passages they number, with verbatim quotes."""

from actions.citing.grounding import ground_answer, keep_markers, statements_by_marker
from policypal.embeddings import MiniLMEmbedder
from policypal.vectorstore import ChunkHit
from tests.actions.inquire.hand_made_hits import chunk_hit

RETENTION = (
    "Retention Policy. This policy applies to every branch of the bank. "
    "Customer records must be retained for at least seven years after the account is closed. "
    "Paper copies are shredded once they have been scanned and verified."
)
SECURITY = "Access to the archive requires two-factor authentication. Visitors are escorted by security staff at all times inside the building."


def hit(text: str, chunk_index: int, page: int = 1) -> ChunkHit:
    return chunk_hit(
        text, document_id="pol", title="Records Policy", page=page, chunk_index=chunk_index, score=0.8
    )


def test_statements_are_collected_per_marker_even_after_the_full_stop() -> None:
    text = "Records are kept seven years [1]. Access needs two factors. [2]\nBoth apply [1, 2]."
    assert statements_by_marker(text) == {
        1: ["Records are kept seven years.", "Both apply."],
        2: ["Access needs two factors.", "Both apply."],
    }


def test_unmapped_markers_are_removed_with_their_space_and_counted() -> None:
    text = "Kept seven years [1] [7]. Offshore backups [9]. Both [1, 9]."
    assert keep_markers(text, {1}) == ("Kept seven years [1]. Offshore backups. Both [1].", 3)
    assert keep_markers(text, {1, 7, 9}) == (text, 0)


async def test_each_marker_quotes_the_sentence_of_its_passage_that_supports_the_statement(
    embedder: MiniLMEmbedder,
) -> None:
    sources = [hit(RETENTION, 0), hit(SECURITY, 1, page=4)]
    answer = "Customer records are kept for seven years after closure [1]. The archive needs two-factor login [2]. Backups are offshore [5]."

    grounded = await ground_answer(answer, sources, embedder, question="How long are records kept?")

    assert grounded.answer == (
        "Customer records are kept for seven years after closure [1]. The archive needs two-factor login [2]. "
        "Backups are offshore."
    )
    assert grounded.removed_markers == 1
    first, second = grounded.citations
    assert (
        first.quote
        == "Customer records must be retained for at least seven years after the account is closed."
    )
    assert (first.marker, first.chunk_id, first.page) == (1, "pol:0", 1)
    assert second.quote == "Access to the archive requires two-factor authentication."
    assert (second.marker, second.chunk_id, second.page) == (2, "pol:1", 4)
    for citation, source in zip(grounded.citations, sources, strict=True):
        assert citation.quote in source.text


async def test_a_passage_with_nothing_to_quote_loses_its_marker(embedder: MiniLMEmbedder) -> None:
    grounded = await ground_answer("Stated [1].", [hit("   ", 0)], embedder, question="q")
    assert (grounded.answer, grounded.citations, grounded.removed_markers) == ("Stated.", [], 1)
