"""Where a simulated Swiss tournament's repeats and spread come from, session by session.

The tournaments are those of benchmarks/swiss_sim.py (session 1 a random draw, random results,
standings the running sum). For each session from the second on, prints the mean table spread
(max − min standings place at a table) and the new extra meetings, averaged over the seeds, then
the whole tournament's figures as swiss_sim.py prints them. When every player owes exactly one
wind in the last session, it also prints the least mean spread that any seating giving each of
them that wind could have there (`spread_floor_one_of_each`): the price of even winds; and how
far the session before it moved a player in the standings.

`--plan-from K` seats sessions K..R with one balanced plan made before session K, the played
sessions kept (`balanced_plan` with them fixed), as a director would on the desk's plans page:
the plan searches for the fewest repeats over all the sessions left, but it does not look at
the standings, and its winds can only be made even as far as the played sessions allow. It
shows what the last sessions could give up in spread and wind balance for fewer repeats.
Run: .venv/bin/python benchmarks/swiss_sessions.py [--players 32] [--sessions 8] [--plan-from K]
"""

import argparse
import random
import statistics
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from swiss_sim import WORKERS, play  # noqa: E402

from seating.algorithms.draw import draw_tables  # noqa: E402
from seating.algorithms.plan import balanced_plan  # noqa: E402
from seating.algorithms.quality import quality, spread_floor_one_of_each, table_spread  # noqa: E402
from seating.algorithms.swiss import swiss_round  # noqa: E402
from seating.algorithms.swiss_winds import allowed_winds  # noqa: E402
from seating.algorithms.winds import wind_counts  # noqa: E402

SEEDS = tuple(range(1, 13))
SHUFFLES = 200  # random placements of the owed winds, per tournament
PLAN_BUDGET = 30.0  # seconds, only a safety cap: the plan stops at its step limit first


def simulate(n: int, sessions: int, seed: int, plan_from: int | None) -> dict:
    """One tournament; the spread and new extra meetings of each session from the second on."""
    rng = random.Random(seed)
    players = [f"p{i:03d}" for i in range(n)]
    totals = dict.fromkeys(players, 0.0)
    rounds = [draw_tables(players, seed)]
    ranks: list[dict | None] = [None]
    play(rounds[0], rng, totals)
    spreads, repeats, floor, moves = [], [], None, []
    for number in range(2, sessions + 1):
        ranking = sorted(players, key=lambda p: (-totals[p], p))
        place = {p: i for i, p in enumerate(ranking)}
        if number == sessions:
            floor = last_floor(ranking, rounds, seed)
            moves = [abs(place[p] - ranks[-1][p]) for p in players] if ranks[-1] else []
        if plan_from is not None and number == plan_from:
            left = sessions - number + 1
            planned = balanced_plan(players, left, fixed=rounds, seed=seed, budget=PLAN_BUDGET)
        if plan_from is not None and number >= plan_from:
            tables = planned.rounds[number - plan_from]
        else:
            tables = swiss_round(ranking, rounds, seed=seed, sessions=sessions)
        before = quality(rounds).extra_meetings
        rounds.append(tables)
        ranks.append(place)
        spreads.append(table_spread([tables], [place]))
        repeats.append(quality(rounds).extra_meetings - before)
        play(tables, rng, totals)
    q = quality(rounds, ranks=ranks)
    return {
        "floor": floor,
        "moves": moves,
        "spreads": spreads,
        "repeats": repeats,
        "extra": q.extra_meetings,
        "spread": q.spread,
        "worst": q.worst_imbalance,
        "even": q.balanced_share,
    }


def last_floor(ranking: list, rounds: list, seed: int) -> tuple[float, float] | None:
    """When every player owes one wind in the last session (an even plan whose sessions are a
    multiple of four), the least mean spread any seating giving each their wind can have
    (`spread_floor_one_of_each`), and the same for those winds placed at random down the
    standings (a mean of SHUFFLES shuffles); None otherwise."""
    counts = wind_counts(rounds)
    owed = [allowed_winds(counts[p], 1) for p in ranking]
    if any(mask.bit_count() != 1 for mask in owed) or len(ranking) % 4:
        return None
    kinds = [mask.bit_length() - 1 for mask in owed]
    floor = spread_floor_one_of_each(kinds)
    rng, shuffled = random.Random(seed), []
    for _ in range(SHUFFLES):
        rng.shuffle(kinds)
        shuffled.append(spread_floor_one_of_each(kinds))
    return floor, statistics.fmean(shuffled)


def _simulate(args: tuple) -> dict:
    return simulate(*args)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=32, metavar="N")
    parser.add_argument("--sessions", type=int, default=8, metavar="R")
    parser.add_argument("--plan-from", type=int, default=None, metavar="K")
    parser.add_argument("--seeds", type=int, nargs="+", default=SEEDS, metavar="SEED")
    parser.add_argument("--workers", type=int, default=WORKERS, help="worker processes")
    args = parser.parse_args()
    if args.plan_from is not None and not 2 <= args.plan_from <= args.sessions:
        parser.error(f"--plan-from: a session from 2 to {args.sessions} (session 1 is drawn)")
    n, sessions = args.players, args.sessions
    jobs = [(n, sessions, seed, args.plan_from) for seed in args.seeds]
    with ProcessPoolExecutor(max_workers=args.workers) as pool:
        runs = list(pool.map(_simulate, jobs))
    how = f"balanced plan from session {args.plan_from}" if args.plan_from else "Swiss"
    print(f"N = {n}, R = {sessions}, {how}; means over seeds {tuple(args.seeds)}")
    print(f"{'session':>7} {'spread':>7} {'new extra meetings':>19}")
    for k in range(sessions - 1):
        spread = statistics.fmean(run["spreads"][k] for run in runs)
        repeats = statistics.fmean(run["repeats"][k] for run in runs)
        print(f"{k + 2:>7} {spread:>7.2f} {repeats:>19.2f}")
    if all(run["floor"] is not None for run in runs):
        floors = [run["floor"][0] for run in runs]
        shuffled = statistics.fmean(run["floor"][1] for run in runs)
        print(
            f"session {sessions}: no seating that gives every player the one wind they owe"
            f" has a mean spread below {statistics.fmean(floors):.2f}"
            f" (per seed {min(floors):.2f}–{max(floors):.2f}; {shuffled:.2f} were the owed"
            " winds placed at random)"
        )
    moves = [move for run in runs for move in run["moves"]]
    if moves:
        print(
            f"session {sessions - 1} moved a player {statistics.fmean(moves):.1f} places in the"
            f" standings on average (median {statistics.median(moves):g})"
        )
    m = {key: statistics.fmean(run[key] for run in runs) for key in ("extra", "spread", "worst")}
    even = statistics.fmean(run["even"] for run in runs)
    print(
        f"tournament: extra meetings {m['extra']:.1f}, spread {m['spread']:.2f},"
        f" worst imbalance {m['worst']:.1f}, imbalance ≤ 1 for {100 * even:.1f}%"
    )


if __name__ == "__main__":
    main()
