"""Reciprocal rank fusion: ties share a rank, and equal fused scores follow the tie-breaker."""

from policypal.vectorstore.rank_fusion import competition_ranks, fuse


def test_equal_scores_share_the_best_rank_of_their_group() -> None:
    assert competition_ranks([0.9, 0.5, 0.5, 0.1, 0.1, 0.05]) == [1, 2, 2, 4, 4, 6]
    assert competition_ranks([]) == []


def test_a_point_in_both_lists_beats_one_in_a_single_list() -> None:
    dense = [(0.9, "a"), (0.8, "b"), (0.7, "c")]
    keyword = [(5.0, "c"), (4.0, "d")]
    fused = fuse([dense, keyword], key=str, tie_breaker=lambda p: 0.0, limit=10)
    assert fused[0][1] == "c"  # 1/(2+3) + 1/(2+1) > 1/(2+1)
    assert {p for _, p in fused} == {"a", "b", "c", "d"}


def test_the_order_of_tied_points_does_not_depend_on_the_engine() -> None:
    similarity = {"x": 0.2, "y": 0.6, "z": 0.4}
    one = fuse([[(1.0, "x"), (1.0, "y"), (1.0, "z")]], key=str, tie_breaker=similarity.__getitem__, limit=3)
    other = fuse([[(1.0, "z"), (1.0, "x"), (1.0, "y")]], key=str, tie_breaker=similarity.__getitem__, limit=3)
    assert one == other
    assert [p for _, p in one] == ["y", "z", "x"]


def test_only_the_limit_comes_back() -> None:
    ranked = [(float(10 - i), str(i)) for i in range(10)]
    assert [p for _, p in fuse([ranked], key=str, tie_breaker=lambda p: 0.0, limit=3)] == ["0", "1", "2"]
