"""Adaptive stratified sampling: how many chunks, and where they are taken from."""

import pytest

from actions.stratified_sampling import sample_size, stratified_positions


@pytest.mark.parametrize(("total", "expected"), [(0, 0), (7, 7), (20, 10), (60, 11), (100, 18), (500, 30)])
def test_sample_size_follows_the_seed_examples(total: int, expected: int) -> None:
    assert sample_size(total) == expected


def test_compare_bounds_take_15_to_20() -> None:
    assert [sample_size(n, minimum=15, maximum=20) for n in (12, 40, 100, 900)] == [12, 15, 18, 20]


@pytest.mark.parametrize(("total", "count"), [(10, 10), (36, 10), (61, 11), (500, 30), (31, 30)])
def test_positions_are_distinct_ordered_and_cover_every_segment(total: int, count: int) -> None:
    positions = stratified_positions(total, count)
    assert len(set(positions)) == len(positions) == min(total, count)
    assert positions == sorted(positions)
    width = total / count
    # One position in each of the equal segments: the first and the last segment are represented.
    assert [int(p // width) for p in positions] == list(range(count))
