"""Seating quality and speed: balanced plans over the whole grid, then simulated Swiss tournaments.

Run: .venv/bin/python benchmarks/seating.py [--balanced-only | --swiss-only]

Balanced: for N players × R sessions it prints the extra meetings (Σ over pairs of meetings − 1)
beside the floor no seating can beat, the most meetings of any pair, the worst wind imbalance,
where the plan came from (a stored design, the search, or a design the search went on from) and
the seconds it took. Swiss: see benchmarks/swiss_sim.py.
"""

import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from seating.algorithms.designs import zero_repeat_rounds  # noqa: E402
from seating.algorithms.plan import balanced_plan  # noqa: E402

PLAYERS = [16, 20, 24, 28, 32, 40, 48, 64, 100, 200]
SESSIONS = [4, 6, 8, 10, 12]
BEST_KNOWN = {16: 5, 20: 5, 24: 7, 28: 9, 32: 10, 40: 13, 48: 15, 64: 21, 100: 33}


def balanced():
    print("Balanced plans (seed 1, default step limit and 10 s budget)")
    print(
        f"{'N':>4} {'R':>3} {'extra':>6} {'floor':>6} {'max':>4} {'wind':>5} "
        f"{'zero-repeat':>12} {'design':>7} {'source':>14} {'seconds':>8}"
    )
    worst = 0.0
    misses = []
    for n in PLAYERS:
        for r in SESSIONS:
            started = time.perf_counter()
            plan = balanced_plan([f"p{i:03d}" for i in range(n)], r, seed=1)
            seconds = time.perf_counter() - started
            worst = max(worst, seconds)
            q = plan.quality
            known = BEST_KNOWN.get(n, q.zero_repeat_ceiling)
            if r <= known and q.extra_meetings:
                misses.append((n, r, q.extra_meetings))
            print(
                f"{n:>4} {r:>3} {q.extra_meetings:>6} {q.extra_floor:>6} {q.max_meetings:>4} "
                f"{q.worst_imbalance:>5} {known:>12} {len(zero_repeat_rounds(n)):>7} "
                f"{plan.source:>14} {seconds:>8.2f}",
                flush=True,
            )
    print(f"slowest plan: {worst:.2f} s")
    print(
        "cells at or under the best known no-repeat count with repeats: "
        + (", ".join(f"{n}×{r}: {e}" for n, r, e in misses) or "none")
    )


def swiss():
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import swiss_sim

    swiss_sim.main()


if __name__ == "__main__":
    if "--swiss-only" not in sys.argv:
        balanced()
    if "--balanced-only" not in sys.argv:
        print()
        swiss()
