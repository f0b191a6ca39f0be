"""Adaptive-k (docs/product.md, Adaptive-k) and the three confidence tiers, on hand-made hits."""

from actions.inquire.confidence import MINILM, UNCALIBRATED, Thresholds, assess, thresholds_for
from actions.inquire.retrieval import adaptive_k, merged
from policypal.embeddings import MiniLMEmbedder
from policypal.vectorstore import ChunkHit


def _hit(document: str, index: int, score: float) -> ChunkHit:
    return ChunkHit(
        tenant_id="t",
        user_id="u",
        document_id=document,
        title=document.upper(),
        version="1",
        doc_type="policy",
        page=1,
        chunk_index=index,
        text=f"chunk {index}",
        score=score,
    )


def test_chunks_below_the_stop_threshold_are_not_kept() -> None:
    hits = [_hit("a", 0, 0.6), _hit("a", 1, 0.2), _hit("a", 2, 0.45)]
    assert [h.chunk_index for h in adaptive_k(hits, stop=0.3)] == [0, 2]
    assert adaptive_k(hits, stop=0.7) == []


def test_one_to_three_documents_give_up_to_five_chunks_each_in_rank_order() -> None:
    hits = [_hit("a", i, 0.9 - i / 100) for i in range(8)] + [_hit("b", i, 0.5) for i in range(8)]
    kept = adaptive_k(hits, stop=0.3)
    assert [(h.document_id, h.chunk_index) for h in kept] == [("a", i) for i in range(5)] + [
        ("b", i) for i in range(5)
    ]


def test_many_documents_give_three_each_and_fifteen_in_all() -> None:
    # Ranked document by document: a cap of 5 would give a, b and c five each.
    hits = [_hit(doc, i, 0.8) for doc in "abcdef" for i in range(6)]
    kept = adaptive_k(hits, stop=0.3)
    assert len(kept) == 15
    assert {doc: sum(h.document_id == doc for h in kept) for doc in "abcdef"} == {
        **dict.fromkeys("abcde", 3),
        "f": 0,
    }


def test_a_clear_best_match_keeps_the_floor_of_chunks_in_rank_order() -> None:
    # Rank order (fused), not score order: the third candidate is below stop but ranked before d.
    hits = [_hit("a", 0, 0.45), _hit("b", 1, 0.25), _hit("a", 2, 0.28), _hit("a", 3, 0.2)]
    kept = adaptive_k(hits, stop=0.3, floor=3, floor_from=0.38)
    assert [(h.document_id, h.chunk_index) for h in kept] == [("a", 0), ("b", 1), ("a", 2)]


def test_no_floor_when_the_best_match_is_under_the_low_line() -> None:
    weak = [_hit("a", 0, 0.36), _hit("a", 1, 0.25), _hit("a", 2, 0.2)]
    assert [h.chunk_index for h in adaptive_k(weak, stop=0.3, floor=3, floor_from=0.38)] == [0]
    off_topic = [_hit("a", i, 0.29 - i / 100) for i in range(4)]
    assert adaptive_k(off_topic, stop=0.3, floor=3, floor_from=0.38) == []


def test_the_floor_adds_nothing_when_enough_chunks_pass_stop() -> None:
    hits = [_hit("a", 0, 0.6), _hit("a", 1, 0.5), _hit("a", 2, 0.4), _hit("a", 3, 0.2)]
    assert [h.chunk_index for h in adaptive_k(hits, stop=0.3, floor=3, floor_from=0.38)] == [0, 1, 2]


def test_confidence_tiers_follow_the_mean_of_the_best_three() -> None:
    thresholds = Thresholds(stop=0.3, low=0.4, high=0.55)
    assert assess([], thresholds).tier == "low"
    assert assess([], thresholds).score == 0.0
    high = assess([_hit("a", i, s) for i, s in enumerate([0.7, 0.6, 0.5, 0.1])], thresholds)
    assert (high.tier, round(high.score, 3)) == ("high", 0.6)
    assert assess([_hit("a", 0, 0.45), _hit("a", 1, 0.42)], thresholds).tier == "medium"
    assert assess([_hit("a", 0, 0.35), _hit("a", 1, 0.33)], thresholds).tier == "low"


def test_minilm_has_its_own_calibrated_thresholds() -> None:
    assert thresholds_for(MiniLMEmbedder().model_id) == MINILM
    assert thresholds_for("text-embedding-3-small") == UNCALIBRATED
    assert MINILM.stop < MINILM.low < MINILM.high


def test_two_rankings_merge_each_chunk_at_its_better_place() -> None:
    first = [_hit("a", 0, 0.5), _hit("a", 1, 0.5), _hit("b", 2, 0.5)]
    focused = [_hit("b", 2, 0.5), _hit("b", 3, 0.5)]
    assert [(h.document_id, h.chunk_index) for h in merged(first, focused)] == [
        ("a", 0),
        ("b", 2),
        ("a", 1),
        ("b", 3),
    ]
