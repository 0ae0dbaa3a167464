"""Standings at full size: 400 players, 12 sessions, in a scratch SQLite database.

Prints the time to compute the standings (the pure module alone, and with the database load)
and the number of queries the public standings page runs, cold and cached.
Run: .venv/bin/python benchmarks/standings.py
"""

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
from django.db import connection, transaction  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402
from django.utils import timezone  # noqa: E402

from scoring import feed  # noqa: E402
from scoring.models import Result, ResultScore  # noqa: E402
from scoring.standings import compute_standings  # noqa: E402
from seating.models import Seat, Table  # noqa: E402
from tournament.models import Player, Session, Tournament  # noqa: E402

PLAYERS, SESSIONS = 400, 12


def build():
    rng = random.Random(2026)
    user = User.objects.create_user("bench")
    now = timezone.now()
    with transaction.atomic():
        t = Tournament.objects.create(
            name="Benchmark Open", slug="bench", ruleset="ema-2012", planned_sessions=SESSIONS
        )
        players = Player.objects.bulk_create(
            Player(tournament=t, key=f"p{i:03d}", name=f"Player {i:03d}", country="PL")
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
    return t


def timed(fn, repeat):
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times), min(times)


def page_queries(client, path):
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(path)
    assert response.status_code == 200, response.status_code
    return len(ctx.captured_queries)


def main():
    call_command("migrate", verbosity=0)
    t = build()
    rules = t.rule_set()
    players = feed.player_rows(t)
    tables = feed.table_rows(t)
    assert len(tables) == SESSIONS * PLAYERS // 4
    pure = timed(lambda: compute_standings(rules, players, tables), 20)
    print(f"{PLAYERS} players x {SESSIONS} sessions ({len(tables)} tables)")
    print(f"standings computed (pure module):   median {pure[0]:6.1f} ms, best {pure[1]:6.1f} ms")

    def cold():
        cache.clear()
        feed.standings(t)

    loaded = timed(cold, 10)
    print(
        f"standings with database load, cold: median {loaded[0]:6.1f} ms, best {loaded[1]:6.1f} ms"
    )

    client = Client()
    for path in (f"/t/{t.slug}/", f"/t/{t.slug}/standings.json"):
        cache.clear()
        cold_q = page_queries(client, path)
        warm_q = page_queries(client, path)
        cache.clear()
        cold_ms = timed(lambda p=path: (cache.clear(), client.get(p)), 5)
        warm_ms = timed(lambda p=path: client.get(p), 20)
        print(
            f"GET {path:28s} queries cold {cold_q}, cached {warm_q};"
            f" time cold {cold_ms[0]:6.1f} ms, cached {warm_ms[0]:6.1f} ms"
        )


if __name__ == "__main__":
    main()
