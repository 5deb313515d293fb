"""pareto_front: area minimised, throughput maximised, ties."""

from __future__ import annotations

import random

import pytest

from aeskit.report.pareto import pareto_front, step_line


def _brute(points: list[tuple[float, float]]) -> set[int]:
    def beats(j: tuple[float, float], i: tuple[float, float]) -> bool:
        return j[0] <= i[0] and j[1] >= i[1] and j != i

    return {i for i, p in enumerate(points) if not any(beats(q, p) for q in points)}


def test_simple_front_in_area_order() -> None:
    pts = [(100.0, 10.0), (50.0, 5.0), (200.0, 8.0), (400.0, 40.0), (300.0, 40.0)]
    assert pareto_front(pts) == [1, 0, 4]


def test_ties() -> None:
    # same area: only the fastest; same throughput: only the smallest
    assert pareto_front([(10.0, 5.0), (10.0, 7.0), (20.0, 7.0)]) == [1]
    # identical points: neither beats the other, both on the front, input order
    assert pareto_front([(10.0, 5.0), (30.0, 9.0), (10.0, 5.0)]) == [0, 2, 1]
    # a duplicate of a dominated point stays off
    assert pareto_front([(5.0, 9.0), (10.0, 5.0), (10.0, 5.0)]) == [0]


def test_edge_cases() -> None:
    assert pareto_front([]) == []
    assert pareto_front([(1.0, 1.0)]) == [0]
    with pytest.raises(ValueError, match="not finite"):
        pareto_front([(1.0, float("nan"))])


def test_matches_the_definition_on_random_points() -> None:
    rng = random.Random(17)
    for _ in range(300):
        pts = [(float(rng.randint(1, 8)), float(rng.randint(1, 8)))
               for _ in range(rng.randint(1, 12))]
        front = pareto_front(pts)
        assert set(front) == _brute(pts)
        assert len(front) == len(set(front))
        assert [pts[i][0] for i in front] == sorted(pts[i][0] for i in front)


def test_step_line_is_a_staircase() -> None:
    assert step_line([(1.0, 2.0), (3.0, 5.0), (4.0, 6.0)]) == [
        (1.0, 2.0), (3.0, 2.0), (3.0, 5.0), (4.0, 5.0), (4.0, 6.0)]
    assert step_line([]) == []
