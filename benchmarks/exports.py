"""Exports at full size: 400 players, 12 sessions, in a scratch SQLite database.

Prints the seconds each export takes from a cold cache (the first download after a
confirmation recomputes the standings too). Each export is one function in MEASUREMENTS;
goals: protocols for 100 tables ≤ 3 s, the workbook ≤ 2 s.
Run: .venv/bin/python benchmarks/exports.py [--repeat N]
"""

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ["DESK_DATA_DIR"] = tempfile.mkdtemp(prefix="desk-bench-")
os.environ.pop("DATABASE_URL", None)
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402

django.setup()

from django.contrib.auth.models import User  # noqa: E402
from django.core.cache import cache  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import transaction  # noqa: E402
from django.utils import timezone  # noqa: E402

from scoring.models import Penalty, Result, ResultScore  # noqa: E402
from scoring.workbook import ema_results_bytes, workbook_bytes  # noqa: E402
from seating.models import Seat, Table  # noqa: E402
from tournament.models import Appeal, Player, Session, Tournament  # noqa: E402
from tournament.printouts import protocols_pdf, standings_pdf  # noqa: E402

PLAYERS, SESSIONS = 400, 12
FIRST = ["Юлія", "Łukasz", "Олег", "Zofia", "Анна", "Jan", "Дмитро", "Małgorzata", "Ivan"]
LAST = ["Ґудзь", "Żółć", "Щербаков", "Kowalski", "Шевченко", "Nowak", "Brzęczyszczykiewicz"]
COUNTRIES = ["Ukraine", "Poland", "Czech Republic", "Germany", "Denmark"]


def build():
    """The same shape as benchmarks/standings.py, with the facts the workbook shows: names in
    several scripts, EMA ids, clubs and teams, a penalty or two per session and some appeals."""
    rng = random.Random(2026)
    user = User.objects.create_user("bench")
    now = timezone.now()
    with transaction.atomic():
        t = Tournament.objects.create(
            name="Benchmark Open", slug="bench", ruleset="ema-2012", planned_sessions=SESSIONS
        )
        players = Player.objects.bulk_create(
            Player(
                tournament=t,
                key=f"p{i:03d}",
                name=f"{FIRST[i % len(FIRST)]} {LAST[i % len(LAST)]} {i:03d}",
                ema_id=f"{i:08d}",
                country=COUNTRIES[i % len(COUNTRIES)],
                club=f"Club {i % 40}",
                team=f"Team {i // 4}",
            )
            for i in range(PLAYERS)
        )
        for number in range(1, SESSIONS + 1):
            session = Session.objects.create(tournament=t, number=number)
            order = players[:]
            rng.shuffle(order)
            tables = Table.objects.bulk_create(
                Table(session=session, number=n + 1) for n in range(PLAYERS // 4)
            )
            seats, results, scores = [], [], []
            for n, table in enumerate(tables):
                four = order[4 * n : 4 * n + 4]
                seats += [
                    Seat(table=table, session=session, wind=w, player=p)
                    for w, p in zip("ESWN", four, strict=True)
                ]
                results.append(
                    Result(
                        table=table,
                        version=1,
                        status="confirmed",
                        entered_by=user,
                        entered_at=now,
                        confirmed_by=user,
                        confirmed_at=now,
                    )
                )
            Seat.objects.bulk_create(seats)
            Result.objects.bulk_create(results)
            for n, result in enumerate(results):
                points = [rng.randrange(50, 550) * 100 for _ in range(3)]
                points.append(120000 - sum(points))
                scores += [
                    ResultScore(result=result, wind=w, player=p, score=s)
                    for w, p, s in zip("ESWN", order[4 * n : 4 * n + 4], points, strict=True)
                ]
            ResultScore.objects.bulk_create(scores)
            late, rude = order[0], order[1]
            penalties = Penalty.objects.bulk_create(
                [
                    Penalty(
                        session=session,
                        player=late,
                        table=tables[0],
                        kind="late",
                        minutes=3,
                        recorded_by=user,
                        recorded_at=now,
                    ),
                    Penalty(
                        session=session,
                        player=rude,
                        table=tables[0],
                        kind="misconduct",
                        amount=-8000,
                        recorded_by=user,
                        recorded_at=now,
                    ),
                ]
            )
            Appeal.objects.create(
                tournament=t,
                session=session,
                table=tables[0],
                appellant=rude,
                penalty=penalties[1],
                subject="Misconduct penalty",
                filed_at=now,
                recorded_by=user,
            )
    return t


def timed(fn, repeat) -> tuple[float, float, int]:
    """(median, best) seconds over `repeat` cold runs, and the size of what fn returned."""
    times, size = [], 0
    for _ in range(repeat):
        cache.clear()
        start = time.perf_counter()
        size = len(fn())
        times.append(time.perf_counter() - start)
    return statistics.median(times), min(times), size


def measure_workbook(t, repeat):
    return timed(lambda: workbook_bytes(t), repeat)


def measure_ema_sheet(t, repeat):
    return timed(lambda: ema_results_bytes(t), repeat)


def measure_protocols(t, repeat):
    session = t.sessions.get(number=SESSIONS)  # 400 players: 100 tables
    assert session.tables.count() == 100
    return timed(lambda: protocols_pdf(session, filled=True), repeat)


def measure_standings_pdf(t, repeat):
    return timed(lambda: standings_pdf(t), repeat)


# (what, function(tournament, repeat) -> (median s, best s, bytes), goal in seconds or None)
MEASUREMENTS = [
    ("protocols for 100 tables (.pdf)", measure_protocols, 3.0),
    ("standings (.pdf)", measure_standings_pdf, None),
    ("tournament workbook (.xlsx)", measure_workbook, 2.0),
    ("EMA results sheet (.xlsx)", measure_ema_sheet, None),
]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5, help="runs per export (default 5)")
    args = parser.parse_args()
    call_command("migrate", verbosity=0)
    start = time.perf_counter()
    t = build()
    print(f"{PLAYERS} players x {SESSIONS} sessions, built in {time.perf_counter() - start:.1f} s")
    print(f"each export {args.repeat} times from a cold cache:")
    for what, measure, goal in MEASUREMENTS:
        median, best, size = measure(t, args.repeat)
        verdict = ""
        if goal is not None:
            verdict = f"  goal <= {goal:g} s: {'met' if median <= goal else 'MISSED'}"
        print(
            f"  {what:32s} median {median:6.2f} s, best {best:6.2f} s,"
            f" {size / 1024:7.0f} KiB{verdict}"
        )


if __name__ == "__main__":
    main()
