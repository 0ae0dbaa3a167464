"""Timing a piece of work repeatedly, for the benchmarks (no Django: the pure ones use it too)."""

import math
import statistics
import time
from typing import NamedTuple


class Timing(NamedTuple):
    median: float  # milliseconds
    best: float
    worst: float


def timed(fn, repeat) -> Timing:
    """`fn()` run `repeat` times: the median, best and worst milliseconds."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    return Timing(statistics.median(times), min(times), max(times))


def growth_exponent(points) -> float:
    """k of cost ≈ c · size^k, the least-squares line through (log size, log cost) of
    `points`, pairs (size, cost): 1 grows with the field, 2 with its square."""
    xs = [math.log(size) for size, _cost in points]
    ys = [math.log(cost) for _size, cost in points]
    mx, my = statistics.fmean(xs), statistics.fmean(ys)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / sum(
        (x - mx) ** 2 for x in xs
    )
