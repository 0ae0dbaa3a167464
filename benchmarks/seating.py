"""Seating quality and speed: balanced plans over the whole grid, then simulated Swiss tournaments.

Run: .venv/bin/python benchmarks/seating.py [--balanced-only | --swiss-only | --last-only]

Balanced: for N players × R sessions it prints the extra meetings (Σ over pairs of meetings − 1)
beside the floor no seating can beat, the most meetings of any pair, the worst wind imbalance,
where the plan came from (a stored design, the search, or a design the search went on from) and
the seconds it took. Last sessions: the plan of the last sessions after played ones (the first
of a plan of the whole tournament, seeds 0-3): its worst wind imbalance, extra meetings and what
even winds cost against the plan of fewest repeats (issue 36). Swiss: see benchmarks/swiss_sim.py.
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


LAST = [(12, 4, 2), (16, 4, 2), (20, 4, 2), (24, 4, 2), (24, 8, 6), (20, 7, 5)]


def last_sessions():
    print("Plans of the last sessions after played ones (N players, R sessions, P played)")
    print(
        f"{'N':>4} {'R':>3} {'P':>3} {'seed':>4} {'wind':>5} {'extra':>6} {'floor':>6} "
        f"{'price':>6} {'seconds':>8}"
    )
    for n, r, played in LAST:
        players = [f"p{i:03d}" for i in range(n)]
        for seed in range(4):
            fixed = balanced_plan(players, r, seed=seed).rounds[:played]
            started = time.perf_counter()
            plan = balanced_plan(players, r - played, fixed=fixed, seed=seed)
            seconds = time.perf_counter() - started
            q = plan.quality
            price = plan.price.extra_meetings if plan.price else 0
            print(
                f"{n:>4} {r:>3} {played:>3} {seed:>4} {q.worst_imbalance:>5} "
                f"{q.extra_meetings:>6} {q.extra_floor:>6} {price:>6} {seconds:>8.2f}",
                flush=True,
            )


def swiss():
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import swiss_sim

    swiss_sim.main()


if __name__ == "__main__":
    if "--last-only" in sys.argv:
        last_sessions()
        sys.exit()
    if "--swiss-only" not in sys.argv:
        balanced()
        print()
        last_sessions()
    if "--balanced-only" not in sys.argv:
        print()
        swiss()
