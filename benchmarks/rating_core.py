"""The club rating's pure core at full size (issue 25): 150 people, 10,000 games, 5 seasons.

Builds the games deterministically (seeded) and prints the time for one rating table from
scratch, for everything a correction of the first game recomputes (every game scored again,
the 5 seasons' tables and the all-time table, every person's timeline), and for the timelines
alone. No Django, no database.
Run: .venv/bin/python benchmarks/rating_core.py
"""

import datetime
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from timing import timed  # noqa: E402

from mahjong.presets import PRESETS  # noqa: E402
from mahjong.rating import Game, RatedSeat, RatingBook, rating_table  # noqa: E402

PEOPLE, GAMES, SEASONS = 150, 10_000, 5
FIRST_DAY = datetime.date(2021, 1, 1)
DAYS_PER_SEASON = 365


def final_scores(rng: random.Random) -> list[int]:
    """Four scores in hundreds summing to 120,000 less 0–2 sticks left on the table (001 §3.11);
    now and then a tie and a chombo."""
    sticks = rng.choice((0, 0, 0, 1, 2))
    cuts = sorted(rng.randint(0, 1200 - 10 * sticks) for _ in range(3))
    hundreds = [cuts[0], cuts[1] - cuts[0], cuts[2] - cuts[1], 1200 - 10 * sticks - cuts[2]]
    scores = [h * 100 for h in hundreds]
    if rng.random() < 0.02:  # a tie: move points so two seats are equal
        a, b = rng.sample(range(4), 2)
        total = scores[a] + scores[b]
        if total % 200 == 0:
            scores[a] = scores[b] = total // 2
    return scores


def build_games(seed: int = 25) -> list[Game]:
    rng = random.Random(seed)
    people = [f"person-{i:03d}" for i in range(PEOPLE)]
    games = []
    span = SEASONS * DAYS_PER_SEASON
    for key in range(GAMES):
        day = FIRST_DAY + datetime.timedelta(days=key * span // GAMES)
        four = rng.sample(people, 4)
        scores = final_scores(rng)
        seats = [
            RatedSeat(p, s, 1 if rng.random() < 0.01 else 0)
            for p, s in zip(four, scores, strict=True)
        ]
        games.append(Game(key, day, seats))
    return games


def seasons() -> list[tuple]:
    return [
        (
            FIRST_DAY + datetime.timedelta(days=i * DAYS_PER_SEASON),
            FIRST_DAY + datetime.timedelta(days=(i + 1) * DAYS_PER_SEASON - 1),
        )
        for i in range(SEASONS)
    ]


def everything(rules, games):
    book = RatingBook(rules, games)
    tables = [book.table(since=a, until=b, min_games=10) for a, b in seasons()]
    tables.append(book.table(min_games=10))
    return tables, book.timelines()


def main():
    rules = PRESETS["furiten-club"]
    games = build_games()
    tables, lines = everything(rules, games)
    assert len(tables[-1].rows) + len(tables[-1].unranked) == PEOPLE
    assert sum(len(line) for line in lines.values()) == 4 * GAMES
    book = RatingBook(rules, games)
    one = timed(lambda: rating_table(rules, games), 10)
    scored = timed(lambda: RatingBook(rules, games), 10)
    table = timed(lambda: book.table(), 10)
    all_lines = timed(book.timelines, 10)
    corrected = [Game(games[0].key, games[0].played_on, list(reversed(games[0].seats)))]
    corrected += games[1:]
    recompute = timed(lambda: everything(rules, corrected), 10)
    print(f"{PEOPLE} people x {GAMES:,} games over {SEASONS} seasons (median / best of 10)")
    print(f"one rating table from the games:          {one[0]:6.1f} / {one[1]:6.1f} ms")
    print(f"  every game scored (RatingBook):         {scored[0]:6.1f} / {scored[1]:6.1f} ms")
    print(f"  one table from the scored games:        {table[0]:6.1f} / {table[1]:6.1f} ms")
    print(f"every person's timeline (scored games):   {all_lines[0]:6.1f} / {all_lines[1]:6.1f} ms")
    print(f"correction of the first game, recompute:  {recompute[0]:6.1f} / {recompute[1]:6.1f} ms")
    print("  (score all, 5 seasons' tables + all-time, every timeline)")


if __name__ == "__main__":
    main()
