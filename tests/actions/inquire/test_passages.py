"""Chunks split into sentences that are exact slices of the chunk, each sentence once."""

from actions.inquire.passages import candidate_passages, sentence_spans
from policypal.vectorstore import ChunkHit


def hit(text: str, chunk_index: int = 0, page: int = 1) -> ChunkHit:
    return ChunkHit(
        tenant_id="t",
        user_id="u",
        document_id="d1",
        title="Retention Policy",
        version="2",
        doc_type="policy",
        page=page,
        chunk_index=chunk_index,
        text=text,
        score=0.5,
    )


def test_sentences_are_trimmed_slices_and_short_pieces_join_the_next() -> None:
    text = (
        "Art. 5. Records.\nCustomer records must be retained for at least\nseven years. Short one.\n\n"
        "The bank keeps transaction records for seven years! End."
    )
    pieces = [text[b:e] for b, e in sentence_spans(text)]
    assert pieces == [
        "Art. 5. Records.\nCustomer records must be retained for at least\nseven years.",
        "Short one.\n\nThe bank keeps transaction records for seven years! End.",
    ]


def test_overlapping_chunks_yield_each_sentence_once() -> None:
    first = "Records are kept for seven years after closure. Backups are encrypted with AES-256 at rest."
    second = "encrypted with AES-256 at rest. Access to backups is logged and reviewed every quarter."
    passages = candidate_passages([hit(first, 0), hit(second, 1)])
    texts = sorted(p.text for p in passages)
    assert texts == [
        "Access to backups is logged and reviewed every quarter.",
        "Backups are encrypted with AES-256 at rest.",
        "Records are kept for seven years after closure.",
    ]
    for p in passages:
        assert p.hit.text[p.start : p.start + len(p.text)] == p.text
