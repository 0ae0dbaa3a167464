"""Search for whole plans of the sizes the designs leave far from the floor (run offline; the
results live in designs.FOUND_PLANS and the plan starts from them for exactly those sizes).

Issue 36: from session 1, 24 players × 8 sessions gave 22 extra meetings against a counting
floor of 12, and 20 × 7 gave 28 against 20. This runs the plan's own search (the stored
repeat-free design, then tabu search) for many seeds with a longer patience and keeps the plan
of fewest extra meetings; winds are then set by winds.balance_winds as for every plan.

Found (seeds 0-39, the default step limit): 24 × 8 reaches 18 (seeds 0, 3, 15, 20, 24), and no
seed does better. That is the least an eighth session can add to the 7-session design of 24
players: its unmet pairs are the three ∞ players' triangle and a Z_7-invariant 2-regular graph on
the other 21, which has no 4-cycle, so a table covers at most 3 unmet pairs (the ∞ table 3 as
well): at most 18 of the 36 pairs of session 8 are first meetings. 20 × 7 reaches the floor,
20 (seed 6). Simulated annealing over the whole schedule from random tables (28 at best for
24 × 8) and tables developed by Z_8 or Z_4 from base sessions (no zero-collision base found) did
worse.

Usage: python scripts/find_plans.py N R [first_seed last_seed] [patience]
Prints each seed's figures and the best plan as FOUND_PLANS data (players 0..N−1).
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from seating.algorithms.designs import FOUND_PLANS  # noqa: E402
from seating.algorithms.plan import balanced_plan  # noqa: E402


def main():
    n, sessions = int(sys.argv[1]), int(sys.argv[2])
    first, last = (int(sys.argv[3]), int(sys.argv[4])) if len(sys.argv) > 4 else (0, 40)
    FOUND_PLANS.pop((n, sessions), None)  # search from the designs alone
    players = [f"p{i:03d}" for i in range(n)]
    best = None
    for seed in range(first, last):
        plan = balanced_plan(players, sessions, seed=seed, budget=1e9)
        q = plan.quality
        print(seed, q.extra_meetings, q.extra_floor, q.max_meetings, q.worst_imbalance, flush=True)
        if best is None or q.extra_meetings < best[0]:
            best = (q.extra_meetings, seed, plan.rounds)
    extra, seed, rounds = best
    print(f"best: {extra} extra meetings (seed {seed})")
    numbered = [[sorted(int(p[1:]) for p in t) for t in tables] for tables in rounds]
    print(f"    ({n}, {sessions}): (")
    for tables in numbered:
        print("        " + repr(tuple(tuple(t) for t in tables)) + ",")
    print("    ),")


if __name__ == "__main__":
    main()
