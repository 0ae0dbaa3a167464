"""Standings at full size: 400 players, 12 sessions, in a scratch SQLite database.

Prints the time to compute the standings (the pure module alone, and with the database load)
and the number of queries the public standings page runs, cold and cached.
Run: .venv/bin/python benchmarks/standings.py
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import fixture  # noqa: E402  (sets Django up on a scratch database)
from django.core.cache import cache  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402
from timing import timed  # noqa: E402

from scoring import selectors  # noqa: E402
from scoring.standings import compute_standings  # noqa: E402

PLAYERS, SESSIONS = 400, 12


def page_queries(client, path):
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(path)
    assert response.status_code == 200, response.status_code
    return len(ctx.captured_queries)


def main():
    fixture.migrate()
    t = fixture.build(PLAYERS, SESSIONS)
    rules = t.rule_set()
    players = selectors.player_rows(t)
    tables = selectors.table_rows(t)
    assert len(tables) == SESSIONS * PLAYERS // 4
    pure = timed(lambda: compute_standings(rules, players, tables), 20)
    print(f"{PLAYERS} players x {SESSIONS} sessions ({len(tables)} tables)")
    print(f"standings computed (pure module):   median {pure[0]:6.1f} ms, best {pure[1]:6.1f} ms")

    def cold():
        cache.clear()
        selectors.standings(t)

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
