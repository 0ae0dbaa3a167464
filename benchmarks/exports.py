"""Exports at full size: 400 players, 12 sessions, in a scratch SQLite database.

Prints the seconds each export takes from a cold cache (the first download after a
confirmation recomputes the standings too). Each export is one function in MEASUREMENTS;
goals: protocols for 100 tables ≤ 3 s, the workbook ≤ 2 s.
Run: .venv/bin/python benchmarks/exports.py [--repeat N]
"""

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import fixture  # noqa: E402  (sets Django up on a scratch database)
from django.core.cache import cache  # noqa: E402

from archive.backups import write_backup  # noqa: E402
from printing.pdf.protocols import protocols_pdf  # noqa: E402
from printing.pdf.standings import standings_pdf  # noqa: E402
from printing.xlsx.ema import ema_results_bytes  # noqa: E402
from printing.xlsx.tournament import workbook_bytes  # noqa: E402
from referee.models import Appeal  # noqa: E402
from scoring.models import Penalty  # noqa: E402

PLAYERS, SESSIONS = 400, 12
FIRST = ["Юлія", "Łukasz", "Олег", "Zofia", "Анна", "Jan", "Дмитро", "Małgorzata", "Ivan"]
LAST = ["Ґудзь", "Żółć", "Щербаков", "Kowalski", "Шевченко", "Nowak", "Brzęczyszczykiewicz"]
COUNTRIES = ["Ukraine", "Poland", "Czech Republic", "Germany", "Denmark"]


def person(i):
    return {
        "name": f"{FIRST[i % len(FIRST)]} {LAST[i % len(LAST)]} {i:03d}",
        "ema_id": f"{i:08d}",
        "country": COUNTRIES[i % len(COUNTRIES)],
        "club": f"Club {i % 40}",
        "team": f"Team {i // 4}",
    }


def records(t, session, tables, order, user, now):
    """A late arrival and a misconduct penalty per session, and an appeal of the latter."""
    late, rude = order[0], order[1]
    penalties = Penalty.objects.bulk_create(
        [
            Penalty(session=session, player=late, table=tables[0], kind="late", minutes=3,
                    recorded_by=user, recorded_at=now),
            Penalty(session=session, player=rude, table=tables[0], kind="misconduct",
                    amount=-8000, recorded_by=user, recorded_at=now),
        ]
    )  # fmt: skip
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


def measure_backup(t, repeat):
    """One automatic backup as the background writer makes it: export, write, fsync, prune."""
    return timed(lambda: write_backup(t).path.read_bytes(), repeat)


# (what, function(tournament, repeat) -> (median s, best s, bytes), goal in seconds or None)
MEASUREMENTS = [
    ("protocols for 100 tables (.pdf)", measure_protocols, 3.0),
    ("standings (.pdf)", measure_standings_pdf, None),
    ("tournament workbook (.xlsx)", measure_workbook, 2.0),
    ("EMA results sheet (.xlsx)", measure_ema_sheet, None),
    ("backup: tournament file (.json)", measure_backup, None),
]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5, help="runs per export (default 5)")
    args = parser.parse_args()
    fixture.migrate()
    start = time.perf_counter()
    t = fixture.build(PLAYERS, SESSIONS, names=person, each_session=records)
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
