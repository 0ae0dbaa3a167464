"""Swiss seating in simulated riichi tournaments, against Pantheon's reference figures.

Each tournament: session 1 a random draw; every table's results a random permutation of
+15/+5/−5/−15 plus Gaussian noise (σ = 10) per player; standings the running sum; sessions
2..R seated by `swiss_round` from the standings, best first, knowing that R sessions are planned
(as the desk passes the tournament's planned sessions). Prints means over three seeds
(`--seeds` for others: single tournaments vary a lot, so compare changes over more of them).
Run: .venv/bin/python benchmarks/swiss_sim.py [--players 32 48 100] [--sessions 8] [--workers 1]
[--against ROOT]

Times are CPU seconds of the worker process (`time.process_time`), per session: the mean and
the slowest (the last session, where every player owes one wind, is usually the slowest), and
over three or more field sizes the exponent b of a least-squares fit ms ≈ a · N^b. `uneven` is
the share of players whose winds end uneven (some wind sat more than once more than another).
`--against ROOT` runs the same tournaments (same seeds) with the seating code of another
checkout (e.g. the code before a change), in its own process, and prints both side by side.
"""

import argparse
import json
import random
import statistics
import subprocess
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if "--code" in sys.argv:  # the seating code of another checkout (see --against)
    ROOT = Path(sys.argv[sys.argv.index("--code") + 1]).resolve()
sys.path.insert(0, str(ROOT))
sys.path.append(str(Path(__file__).resolve().parent))  # timing; after the code: seating.py

from timing import growth_exponent  # noqa: E402

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
    seconds = slowest = 0.0
    for _ in range(1, sessions):
        ranking = sorted(players, key=lambda p: (-totals[p], p))
        started = time.process_time()
        tables = swiss_round(ranking, rounds, seed=seed, sessions=sessions)
        took = time.process_time() - started
        seconds += took
        slowest = max(slowest, took)
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
        "slowest_session": slowest,
        "last_session": took,
        "uneven": 1.0 - q.balanced_share,
    }


def _simulate(args: tuple[int, int, int]) -> dict:
    return simulate(*args)


def run(args) -> dict:
    """Each (N, R) of the grid: its seeds' figures, in the worker processes."""
    seeds = tuple(args.seeds)
    grid = [(n, sessions) for n in args.players for sessions in args.sessions]
    with ProcessPoolExecutor(max_workers=args.workers) as pool:
        runs = {cell: [pool.submit(_simulate, (*cell, seed)) for seed in seeds] for cell in grid}
        return {cell: [future.result() for future in runs[cell]] for cell in grid}


def against(args) -> dict:
    """The same grid run with the code of the checkout `args.against`, in its own process."""
    command = [sys.executable, __file__, "--code", args.against, "--json", "--workers"]
    command += [str(args.workers), "--players", *map(str, args.players)]
    command += ["--sessions", *map(str, args.sessions), "--seeds", *map(str, args.seeds)]
    found = json.loads(subprocess.run(command, capture_output=True, check=True, text=True).stdout)
    return {(n, r): done for n, r, done in found}


def means(done: list[dict]) -> dict:
    m = {key: statistics.fmean(run[key] for run in done) for key in done[0]}
    m["slowest_session"] = max(run["slowest_session"] for run in done)
    m["worst_imbalance_max"] = max(run["worst_imbalance"] for run in done)
    return m


def exponent(points: list[tuple[int, float]]) -> float | None:
    """b of the least-squares fit of log t = log a + b log N, over three or more sizes."""
    if len(points) < 3:
        return None
    return growth_exponent([(n, max(t, 1e-6)) for n, t in points])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, nargs="+", default=PLAYERS, metavar="N")
    parser.add_argument("--sessions", type=int, nargs="+", default=SESSIONS, metavar="R")
    parser.add_argument("--workers", type=int, default=WORKERS, help="worker processes")
    parser.add_argument("--seeds", type=int, nargs="+", default=SEEDS, metavar="SEED")
    parser.add_argument("--against", metavar="ROOT", help="another checkout, side by side")
    parser.add_argument("--code", metavar="ROOT", help=argparse.SUPPRESS)
    parser.add_argument("--json", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.json:  # for --against: the figures of this checkout's code, as JSON
        print(json.dumps([[n, r, done] for (n, r), done in run(args).items()]))
        return
    seeds = tuple(args.seeds)
    before = against(args) if args.against else None
    print(f"Swiss seating, means over seeds {seeds}; {args.workers} worker process(es)")
    if before:
        print(f"before = {args.against}, after = {ROOT}")
    table = {}
    head = f"{'extra':>6} {'spread':>6} {'worst':>5} {'uneven':>6} {'ms/sess':>7} {'ms max':>7}"
    print(f"{'N':>4} {'R':>3} " + (f"{head} | before: {head}" if before else head))
    for cell, done in run(args).items():
        rows = [means(done)] + ([means(before[cell])] if before else [])
        table[cell] = rows
        print(
            f"{cell[0]:>4} {cell[1]:>3} "
            + " | before: ".join(
                f"{m['extra']:>6.1f} {m['spread']:>6.2f} {m['worst_imbalance_max']:>5.0f}"
                f" {100 * m['uneven']:>5.2f}% {1000 * m['seconds_per_session']:>7.0f}"
                f" {1000 * m['slowest_session']:>7.0f}"
                for m in rows
            ),
            flush=True,
        )
    for sessions in args.sessions:
        for k, who in enumerate(("after", "before") if before else ("",)):
            points = [(n, table[n, sessions][k]) for n in args.players]
            mean = exponent([(n, m["seconds_per_session"]) for n, m in points])
            slow = exponent([(n, m["slowest_session"]) for n, m in points])
            if mean is not None:
                print(
                    f"R = {sessions} {who}: time ~ N^{mean:.2f} per session (mean),"
                    f" N^{slow:.2f} (slowest session)"
                )
    compared = [n for n in REFERENCE if (n, 8) in table]
    if compared:
        print("\nR = 8 against Pantheon's Swiss (ours / reference; our extra-meetings target)")
    for n in compared:
        extra, spread, worst, seconds = REFERENCE[n]
        m = table[n, 8][0]
        print(
            f"N = {n:>3}: extra {m['extra']:.1f} / {extra} (≤ {TARGET_EXTRA[n]}),"
            f" spread {m['spread']:.2f} / {spread}, worst imbalance {m['worst_imbalance']:.1f}"
            f" / {worst}, imbalance ≤ 1 for {100 * m['balanced_share']:.1f}% (≥ 95%),"
            f" {1000 * m['seconds_per_session']:.0f} / {1000 * seconds:.0f} ms"
        )
    if (200, 8) in table:
        slow = table[200, 8][0]["seconds_per_session"]
        print(f"N = 200: {slow:.2f} s per session (limit 1 s; Pantheon 0.56 s)")


if __name__ == "__main__":
    main()
