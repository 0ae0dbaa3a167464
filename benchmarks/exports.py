"""Exports at full size: 400 players (or `--players`), 12 sessions, in a scratch SQLite database.

Prints the seconds each export takes from a cold cache (the first download after a
confirmation recomputes the standings too). Each export is one function in MEASUREMENTS;
goals: protocols for 100 tables ≤ 3 s, the workbook ≤ 2 s. The automatic backup (written after
every change, issue 39) is measured three ways: the whole write, the CPU of reading the file
(`export_tournament`) and of its text (`dumps`) apart, and how long a desk write (a hand saved,
a result confirmed: one short IMMEDIATE transaction) waits while backups are being written one
after another. `--players 400 1000 2000` measures the backup at each size, each in its own
process and scratch database, and fits how its cost grows (cost ≈ c · players^k).
Run: .venv/bin/python benchmarks/exports.py [--repeat N] [--players N ...] [--only NAME ...]
"""

import argparse
import json
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import fixture  # noqa: E402  (sets Django up on a scratch database)
from django.core.cache import cache  # noqa: E402
from django.db import OperationalError, connections, transaction  # noqa: E402
from timing import growth_exponent  # noqa: E402

from archive.backups import write_backup  # noqa: E402
from archive.tournament_file import dumps, export_tournament  # noqa: E402
from printing.pdf.protocols import protocols_pdf  # noqa: E402
from printing.pdf.standings import standings_pdf  # noqa: E402
from printing.xlsx.ema import ema_results_bytes  # noqa: E402
from printing.xlsx.tournament import workbook_bytes  # noqa: E402
from referee.models import Appeal  # noqa: E402
from scoring.models import Penalty  # noqa: E402
from tournament.changes import touch  # noqa: E402

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


def cpu(fn, repeat) -> float:
    """The median CPU seconds of `fn()` over `repeat` runs (this thread alone)."""
    times = []
    for _ in range(repeat):
        start = time.thread_time()
        fn()
        times.append(time.thread_time() - start)
    return statistics.median(times)


def measure_file_read(t, repeat):
    """The backup's reading of the file: export_tournament's CPU, then dumps' (shown apart)."""
    data = export_tournament(t)
    read = cpu(lambda: export_tournament(t), repeat)
    text = cpu(lambda: dumps(data), repeat)
    return read, text, len(dumps(data))


def measure_write_waits(t, seconds=6.0):
    """Desk writes (touch: one IMMEDIATE transaction, as a hand saved) every 50 ms while another
    thread writes backups one after another: (median, max) seconds a write took, and how many
    backups were written meanwhile."""
    stop, written = threading.Event(), []

    def backups():
        while not stop.is_set():
            write_backup(t)
            written.append(1)
        connections.close_all()

    thread = threading.Thread(target=backups)
    thread.start()
    took, end = [], time.perf_counter() + seconds
    while time.perf_counter() < end:
        start = time.perf_counter()
        try:
            with transaction.atomic():
                touch(t.pk, seating=False)
        except OperationalError:  # "database is locked" after the desk's timeout
            took.append(float("inf"))
        else:
            took.append(time.perf_counter() - start)
        time.sleep(0.05)
    stop.set()
    thread.join()
    return statistics.median(took), max(took), len(written)


# (what, function(tournament, repeat) -> (median s, best s, bytes), goal in seconds or None)
MEASUREMENTS = [
    ("protocols for 100 tables (.pdf)", measure_protocols, 3.0),
    ("standings (.pdf)", measure_standings_pdf, None),
    ("tournament workbook (.xlsx)", measure_workbook, 2.0),
    ("EMA results sheet (.xlsx)", measure_ema_sheet, None),
    ("backup: tournament file (.json)", measure_backup, None),
]
BACKUP = "backup"  # --only backup: the backup's figures alone (any --players)


def backup_figures(players, repeat) -> dict:
    fixture.migrate()
    start = time.perf_counter()
    t = fixture.build(players, SESSIONS, names=person, each_session=records)
    built = time.perf_counter() - start
    whole = measure_backup(t, repeat)[0]
    read, text, size = measure_file_read(t, repeat)
    waits = measure_write_waits(t)
    return {
        "players": players,
        "built": built,
        "backup": whole,
        "read": read,
        "text": text,
        "bytes": size,
        "write_median": waits[0],
        "write_max": waits[1],
        "backups": waits[2],
    }


def print_backup(f):
    print(
        f"  {f['players']:5d} players: backup {f['backup']:6.2f} s ({f['bytes'] / 2**20:5.1f} MiB);"
        f" CPU: reading {f['read']:5.2f} s, text {f['text']:5.2f} s;"
        f" a desk write during backups: median {f['write_median'] * 1000:6.1f} ms,"
        f" max {f['write_max'] * 1000:7.1f} ms ({f['backups']} backups meanwhile)"
    )


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5, help="runs per export (default 5)")
    parser.add_argument("--players", type=int, nargs="+", default=[PLAYERS], metavar="N")
    parser.add_argument(
        "--only", nargs="+", choices=[BACKUP], help="the backup's figures alone (any size)"
    )
    parser.add_argument("--json", action="store_true", help=argparse.SUPPRESS)  # one size's
    args = parser.parse_args()
    if args.only or args.players != [PLAYERS]:
        if len(args.players) == 1:
            figures = backup_figures(args.players[0], args.repeat)
            if args.json:
                print(json.dumps(figures))
            else:
                print_backup(figures)
            return
        print(f"the automatic backup, {SESSIONS} sessions, {args.repeat} runs each:")
        rows = []
        for players in args.players:  # each size in its own process and scratch database
            command = [
                sys.executable,
                __file__,
                "--only",
                BACKUP,
                "--players",
                str(players),
                "--json",
            ]
            command += ["--repeat", str(args.repeat)]
            out = subprocess.run(command, check=True, capture_output=True, text=True).stdout
            rows.append(json.loads(out.strip().splitlines()[-1]))
            print_backup(rows[-1])
        for what in ("backup", "read", "text"):
            k = growth_exponent([(r["players"], r[what]) for r in rows])
            print(f"  {what}: cost ≈ c · players^{k:.2f}")
        return
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
