"""A big tournament file imported while the hall goes on (issue 22, "big imports do not stall
the hall").

Writes a tournament file of 20,000 players as the desk exports one (with --sessions, also that
many sessions of 5,000 tables, each with a confirmed result and its history), imports it into
a scratch SQLite database set up as the hall's (WAL, synchronous=FULL, 20 s busy timeout,
IMMEDIATE transactions: config/settings.py) and prints the file's size, the import's time and
how long its write transaction held SQLite's write lock, which every check-in and result save
in the hall waits for. The backup the import schedules is written afterwards on its own
thread, as in the hall; its time and its own hold on the lock (it reads the whole tournament
in one transaction, so that a backup is one consistent state) are printed too.

Run: .venv/bin/python benchmarks/big_import.py [--players 20000] [--sessions 0]
"""

import argparse
import random
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import fixture  # noqa: E402  (sets Django up on a scratch database)
from django.conf import settings  # noqa: E402
from django.contrib.auth.models import User  # noqa: E402
from django.db import connection, connections  # noqa: E402

from archive.backups import wait_for_backups  # noqa: E402
from archive.tournament_file import dumps, import_tournament  # noqa: E402
from tournament.models import Player  # noqa: E402

FIRST = ["Юлія", "Łukasz", "Олег", "Zofia", "Анна", "Jan", "Дмитро", "Małgorzata", "Ivan"]
LAST = ["Ґудзь", "Żółć", "Щербаков", "Kowalski", "Шевченко", "Nowak", "Brzęczyszczykiewicz"]
COUNTRIES = ["Ukraine", "Poland", "Czech Republic", "Germany", "Denmark"]
WHEN = "2026-11-21T14:05:00+01:00"


def big_file(players: int, sessions: int, seed: int = 2026) -> bytes:
    """A tournament file as the desk exports one: every player field, every table confirmed
    with a history of one version entered by desk1 and confirmed by desk2."""
    rng = random.Random(seed)
    keys = [f"p{i:05d}" for i in range(players)]
    rows = [
        {
            "key": key,
            "name": f"{FIRST[i % len(FIRST)]} {LAST[i % len(LAST)]} {i:05d}",
            "ema_id": f"{i:08d}",
            "country": COUNTRIES[i % len(COUNTRIES)],
            "club": f"Club {i % 400}",
            "team": "",
            "substitute": False,
            "status": "active",
            "checked_in": i % 3 == 0,
        }
        for i, key in enumerate(keys)
    ]
    played = []
    for number in range(1, sessions + 1):
        order = keys[:]
        rng.shuffle(order)
        tables = []
        for n in range(players // 4):
            points = [rng.randrange(50, 550) * 100 for _ in range(3)]
            points.append(120000 - sum(points))
            four = list(zip("ESWN", order[4 * n : 4 * n + 4], points, strict=True))
            scores = [{"wind": w, "player": p, "score": s, "chombo": 0} for w, p, s in four]
            version = {
                "version": 1,
                "status": "confirmed",
                "entered_by": "desk1",
                "entered_at": WHEN,
                "confirmed_by": "desk2",
                "confirmed_at": WHEN,
                "superseded_at": None,
                "note": "",
                "scores": scores,
            }
            seats = [{"wind": w, "player": p, "score": s, "chombo": 0} for w, p, s in four]
            tables.append({"number": n + 1, "seats": seats, "history": [version]})
        played.append({"number": number, "method": "draw", "seed": number, "tables": tables})
    data = {
        "format": "mahjong-tournament",
        "version": 1,
        "tournament": {
            "name": "Big Open",
            "slug": "big-open",
            "ruleset": "ema-2012",
            "sessions": max(sessions, 1),
        },
        "players": rows,
        "sessions": played,
        "penalties": [],
        "appeals": [],
    }
    return dumps(data).encode("utf-8")


class LockClock:
    """Times every write transaction, per thread: with transaction_mode IMMEDIATE, SQLite's
    write lock is taken at BEGIN and held until COMMIT or ROLLBACK."""

    def __init__(self):
        self.held = []  # (thread name, seconds)
        self._began = {}
        wrapper = type(connections["default"])
        begin, commit, rollback = (
            wrapper._start_transaction_under_autocommit,
            wrapper.commit,
            wrapper.rollback,
        )

        def timed_begin(db):
            begin(db)
            self._began[threading.get_ident()] = time.perf_counter()

        def ended(end):
            def timed(db):
                end(db)
                began = self._began.pop(threading.get_ident(), None)
                if began is not None:
                    self.held.append((threading.current_thread().name, time.perf_counter() - began))

            return timed

        wrapper._start_transaction_under_autocommit = timed_begin
        wrapper.commit = ended(commit)
        wrapper.rollback = ended(rollback)

    def longest(self, thread_name) -> float:
        return max((s for name, s in self.held if name == thread_name), default=0.0)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--players", type=int, default=20000)
    parser.add_argument("--sessions", type=int, default=0)
    args = parser.parse_args()
    settings.DESK_BACKUP_DIR = settings.DATA_DIR / "backups"  # the scratch data folder
    fixture.migrate()
    with connection.cursor() as cursor:
        journal = cursor.execute("PRAGMA journal_mode").fetchone()[0]
        synchronous = cursor.execute("PRAGMA synchronous").fetchone()[0]
    importer = User.objects.create_user("director")
    for name in ("desk1", "desk2"):
        User.objects.create_user(name)
    content = big_file(args.players, args.sessions)
    tables = (
        f", {args.sessions} session(s) of {args.players // 4:,} tables" if args.sessions else ""
    )
    print(f"SQLite: journal_mode={journal}, synchronous={synchronous} (2 is FULL)")
    print(f"file: {args.players:,} players{tables}, {len(content) / 1e6:.1f} MB")
    clock = LockClock()
    started = time.perf_counter()
    tournament = import_tournament(content, user=importer)
    total = time.perf_counter() - started
    assert Player.objects.filter(tournament=tournament).count() == args.players
    started = time.perf_counter()
    wait_for_backups()
    backup = time.perf_counter() - started
    held = clock.longest(threading.current_thread().name)
    print(f"import: {total:.2f} s in all; its write transaction held the lock {held:.2f} s")
    print(
        f"backup after it (own thread): {backup:.2f} s, holding the lock"
        f" {clock.longest('desk-backups'):.2f} s while it read the tournament"
    )


if __name__ == "__main__":
    main()
