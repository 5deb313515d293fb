"""The Pareto front of throughput against area: the designs no other design beats on
both (less or equal area and more or equal throughput, better in one)."""

from __future__ import annotations

import math


def pareto_front(points: list[tuple[float, float]]) -> list[int]:
    """Indices of the ``(area, throughput)`` points on the Pareto front, area minimised
    and throughput maximised, in order of increasing area (and so increasing
    throughput).

    A point is on the front when no other point has less or equal area and more or
    equal throughput with at least one of the two strictly better. Ties: of points with
    the same area only the highest throughput is on the front, of points with the same
    throughput only the smallest area; identical points are all on it (none beats the
    other), in input order. Raises ``ValueError`` on a NaN or infinite coordinate."""
    for i, (a, t) in enumerate(points):
        if not (math.isfinite(a) and math.isfinite(t)):
            raise ValueError(f"point {i} ({a}, {t}) is not finite")
    order = sorted(range(len(points)), key=lambda i: (points[i][0], -points[i][1], i))
    front: list[int] = []
    best: tuple[float, float] | None = None  # (area, throughput) of the last front point
    for i in order:
        a, t = points[i]
        if best is None or t > best[1]:
            front.append(i)
            best = (a, t)
        elif (a, t) == best:
            front.append(i)
    return front


def step_line(front: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """The staircase through front points sorted by area: from each point right at its
    throughput to the next point's area, then up to that point. The best throughput
    reachable within an area budget is the staircase's height there."""
    out: list[tuple[float, float]] = []
    for k, (a, t) in enumerate(front):
        if k:
            out.append((a, front[k - 1][1]))
        out.append((a, t))
    return out
