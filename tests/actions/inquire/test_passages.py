"""Retrieved chunks as candidate passages: exact slices of the chunk, each sentence once."""

from actions.inquire.passages import candidate_passages
from tests.actions.inquire.hand_made_hits import chunk_hit


def test_overlapping_chunks_yield_each_sentence_once() -> None:
    first = "Records are kept for seven years after closure. Backups are encrypted with AES-256 at rest."
    second = "encrypted with AES-256 at rest. Access to backups is logged and reviewed every quarter."
    passages = candidate_passages([chunk_hit(first), chunk_hit(second, chunk_index=1)])
    texts = sorted(p.text for p in passages)
    assert texts == [
        "Access to backups is logged and reviewed every quarter.",
        "Backups are encrypted with AES-256 at rest.",
        "Records are kept for seven years after closure.",
    ]
    for p in passages:
        assert p.hit.text[p.start : p.start + len(p.text)] == p.text
