"""Timing a piece of work repeatedly, for the benchmarks (no Django: the pure ones use it too)."""

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
