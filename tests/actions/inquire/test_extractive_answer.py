"""The offline answer: best sentences in reading order, one verifiable citation per marker, or mode C."""

import re

from actions.inquire.extractive_answer import MODEL, compose_answer, select_passages
from actions.inquire.passages import Passage, candidate_passages
from policypal.contracts import ResolvedDocument
from policypal.vectorstore import ChunkHit
from tests.actions.inquire.hand_made_hits import chunk_hit

DOCS = [
    ResolvedDocument(document_id="d1", title="Retention Policy", version="2", doc_type="policy"),
    ResolvedDocument(document_id="d2", title="Security Standard", version="1.1", doc_type="regulatory"),
]


def hit(document_id: str, page: int, chunk_index: int, text: str) -> ChunkHit:
    title = next(d.title for d in DOCS if d.document_id == document_id)
    return chunk_hit(text, document_id=document_id, title=title, page=page, chunk_index=chunk_index)


HITS = [
    hit("d2", 4, 7, "Backups are encrypted at rest with AES-256. Keys are rotated by the security team."),
    hit("d1", 2, 3, "Customer records must be retained for seven years after the account is closed."),
    hit("d1", 1, 0, "This policy applies to every branch of the bank. It was approved by the board in 2024."),
]


def scored(scores_by_start: dict[str, float]) -> tuple[list[Passage], list[float]]:
    passages = candidate_passages(HITS)
    return passages, [
        next((s for k, s in scores_by_start.items() if p.text.startswith(k)), 0.05) for p in passages
    ]


def test_best_sentences_come_in_reading_order_with_one_citation_per_marker() -> None:
    passages, scores = scored({"Backups": 0.62, "Customer records": 0.84, "This policy": 0.58})

    answer = compose_answer(DOCS, passages, scores)

    markers = [int(m) for m in re.findall(r"\[(\d+)\]", answer.answer)]
    assert markers == [1, 2, 3]
    assert [c.marker for c in answer.citations] == markers
    # Documents as tagged (d1 before d2), then by page.
    assert [(c.document_id, c.page) for c in answer.citations] == [("d1", 1), ("d1", 2), ("d2", 4)]
    by_chunk = {h.chunk_id: h.text for h in HITS}
    for c in answer.citations:
        assert c.quote in by_chunk[c.chunk_id]
        assert f"{c.quote} [{c.marker}]" in answer.answer
    assert "without a language model" in answer.answer
    assert "From “Retention Policy” (version 2):" in answer.answer
    assert MODEL == "offline-extractive"


def test_weak_sentences_far_below_the_best_are_left_out() -> None:
    passages, scores = scored({"Customer records": 0.84, "Backups": 0.4})
    answer = compose_answer(DOCS, passages, scores)
    assert [c.chunk_id for c in answer.citations] == ["d1:3"]


def test_nothing_relevant_says_so_and_cites_nothing() -> None:
    passages, scores = scored({"Customer records": 0.2})
    answer = compose_answer(DOCS, passages, scores)
    assert answer.citations == []
    assert "couldn't find a passage" in answer.answer
    assert "“Retention Policy”, “Security Standard”" in answer.answer
    assert "not from general knowledge" in answer.answer
    assert "[" not in answer.answer


def test_no_hits_at_all_is_mode_c() -> None:
    assert compose_answer(DOCS, [], []).citations == []


def test_a_passage_that_is_not_verbatim_is_dropped_and_markers_renumbered() -> None:
    passages, scores = scored({"Customer records": 0.84, "Backups": 0.7})
    forged = Passage(hit=HITS[2], start=0, text="The bank keeps records forever.")
    answer = compose_answer(DOCS, [forged, *passages], [0.9, *scores])
    assert "forever" not in answer.answer
    assert [c.marker for c in answer.citations] == [1, 2]
    assert re.findall(r"\[(\d+)\]", answer.answer) == ["1", "2"]


def test_long_sentence_is_quoted_up_to_300_characters_and_marked_as_cut() -> None:
    long_text = "Customer records " + " ".join(["must be retained"] * 40) + "."
    passages = candidate_passages([hit("d1", 3, 9, long_text)])
    answer = compose_answer(DOCS, passages, [0.8])
    [citation] = answer.citations
    assert len(citation.quote) <= 300
    assert citation.quote in long_text
    assert f"{citation.quote} … [1]" in answer.answer


def test_select_limits_the_number_of_passages() -> None:
    passages = candidate_passages(HITS)
    assert len(select_passages(passages, [0.8] * len(passages), DOCS, limit=2)) == 2
