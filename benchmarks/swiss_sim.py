"""Swiss seating in simulated riichi tournaments, against Pantheon's reference figures.

Each tournament: session 1 a random draw; every table's results a random permutation of
+15/+5/−5/−15 plus Gaussian noise (σ = 10) per player; standings the running sum; sessions
2..R seated by `swiss_round` from the standings, best first, knowing that R sessions are planned
(as the desk passes the tournament's planned sessions). Prints means over three seeds
(`--seeds` for others: single tournaments vary a lot, so compare changes over more of them).
Run: .venv/bin/python benchmarks/swiss_sim.py [--players 32 48 100] [--sessions 8] [--workers 1]
"""

import argparse
import random
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from seating.algorithms.draw import draw_tables  # noqa: E402
from seating.algorithms.quality import quality  # noqa: E402
from seating.algorithms.swiss import swiss_round  # noqa: E402

PLAYERS = (16, 20, 24, 28, 32, 40, 48, 64, 100, 200)
SESSIONS = (4, 6, 8, 10, 12)
SEEDS = (1, 2, 3)
PLACES = (15, 5, -5, -15)
NOISE = 10.0
WORKERS = 2  # default worker processes: this machine's cores; each session is timed on one core

# Pantheon's Swiss over 8 sessions: extra meetings, mean spread, worst wind imbalance, s/session.
REFERENCE = {
    32: (18.3, 13.1, 5.7, 0.004),
    48: (20.7, 11.2, 5.3, 0.007),
    100: (12.0, 6.6, 6.0, 0.035),
}
# What ours must reach over 8 sessions: extra meetings at most this, spread at most the reference.
TARGET_EXTRA = {32: 7, 48: 4, 100: 2}


def play(tables: list[list], rng: random.Random, totals: dict) -> None:
    """Add one session's results: places shuffled at each game table, plus per-player noise."""
    for table in tables:
        places = list(PLACES)
        rng.shuffle(places)
        for player, place in zip(table, places, strict=False):
            totals[player] += place + rng.gauss(0.0, NOISE)


def simulate(n: int, sessions: int, seed: int) -> dict:
    """One tournament of `n` players over `sessions` sessions; its quality figures."""
    rng = random.Random(seed)
    players = [f"p{i:03d}" for i in range(n)]
    totals = dict.fromkeys(players, 0.0)
    rounds = [draw_tables(players, seed)]
    ranks: list[dict | None] = [None]  # the drawn session has no standings to spread over
    play(rounds[0], rng, totals)
    seconds = 0.0
    for _ in range(1, sessions):
        ranking = sorted(players, key=lambda p: (-totals[p], p))
        started = time.perf_counter()
        tables = swiss_round(ranking, rounds, seed=seed, sessions=sessions)
        seconds += time.perf_counter() - started
        rounds.append(tables)
        ranks.append({p: i for i, p in enumerate(ranking)})
        play(tables, rng, totals)
    q = quality(rounds, ranks=ranks)
    return {
        "extra": q.extra_meetings,
        "spread": q.spread,
        "worst_imbalance": q.worst_imbalance,
        "balanced_share": q.balanced_share,
        "seconds_per_session": seconds / max(1, sessions - 1),
    }


def _simulate(args: tuple[int, int, int]) -> dict:
    return simulate(*args)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, nargs="+", default=PLAYERS, metavar="N")
    parser.add_argument("--sessions", type=int, nargs="+", default=SESSIONS, metavar="R")
    parser.add_argument("--workers", type=int, default=WORKERS, help="worker processes")
    parser.add_argument("--seeds", type=int, nargs="+", default=SEEDS, metavar="SEED")
    args = parser.parse_args()
    seeds = tuple(args.seeds)
    print(f"Swiss seating, means over seeds {seeds}; {args.workers} worker process(es)")
    print(f"{'N':>4} {'R':>3} {'extra':>7} {'spread':>7} {'worst':>6} {'bal≤1':>6} {'ms/sess':>8}")
    table = {}
    grid = [(n, sessions) for n in args.players for sessions in args.sessions]
    with ProcessPoolExecutor(max_workers=args.workers) as pool:
        # Submitted all at once so the workers stay busy; printed in grid order as they finish.
        runs = {cell: [pool.submit(_simulate, (*cell, seed)) for seed in seeds] for cell in grid}
        for n, sessions in grid:
            done = [future.result() for future in runs[n, sessions]]
            m = {key: statistics.fmean(run[key] for run in done) for key in done[0]}
            table[n, sessions] = m
            print(
                f"{n:>4} {sessions:>3} {m['extra']:>7.1f} {m['spread']:>7.2f}"
                f" {m['worst_imbalance']:>6.1f} {100 * m['balanced_share']:>5.1f}%"
                f" {1000 * m['seconds_per_session']:>8.1f}",
                flush=True,
            )
    compared = [n for n in REFERENCE if (n, 8) in table]
    if compared:
        print("\nR = 8 against Pantheon's Swiss (ours / reference; our extra-meetings target)")
    for n in compared:
        extra, spread, worst, seconds = REFERENCE[n]
        m = table[n, 8]
        print(
            f"N = {n:>3}: extra {m['extra']:.1f} / {extra} (≤ {TARGET_EXTRA[n]}),"
            f" spread {m['spread']:.2f} / {spread}, worst imbalance {m['worst_imbalance']:.1f}"
            f" / {worst}, imbalance ≤ 1 for {100 * m['balanced_share']:.1f}% (≥ 95%),"
            f" {1000 * m['seconds_per_session']:.0f} / {1000 * seconds:.0f} ms"
        )
    if (200, 8) in table:
        slow = table[200, 8]["seconds_per_session"]
        print(f"N = 200: {slow:.2f} s per session (limit 1 s; Pantheon 0.56 s)")


if __name__ == "__main__":
    main()
