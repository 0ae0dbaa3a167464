"""Standings at full size: 400 (and 1,000) players, 12 sessions, in a scratch SQLite database.

Prints the time to compute the standings (the pure module alone, and with the database load),
the number of queries the public standings page runs, cold and kept, and the public standings
page's time (issue 26): cold (nothing kept: the cache cleared and the tables scored and rows
drawn forgotten, as after a restart), and the first render after a confirmation (a table's
result corrected through the desk's services, then the page asked for), beside the goals.
Run: .venv/bin/python benchmarks/standings.py [--players 400 1000] [--repeat 9]
"""

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import fixture  # noqa: E402  (sets Django up on a scratch database)
from django.contrib.auth.models import User  # noqa: E402
from django.core.cache import cache  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402
from timing import timed  # noqa: E402

from mahjong import standings as pure_standings  # noqa: E402
from mahjong.standings import compute_standings  # noqa: E402
from public import tables as public_tables  # noqa: E402
from scoring import selectors, services  # noqa: E402
from seating.models import Table  # noqa: E402
from tournament.models import Tournament  # noqa: E402

SESSIONS = 12
# Issue 26's goals, ms: the first render after a confirmation, by players; cold at 400.
AFTER_CONFIRMATION = {400: 50, 1000: 150}
COLD = {400: 150}


def page_queries(client, path):
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(path)
    assert response.status_code == 200, response.status_code
    return len(ctx.captured_queries)


def forget_everything():
    """Nothing kept, as in a process just started: the cache, and the tables scored and rows
    drawn that the standings keep from one revision to the next."""
    cache.clear()
    pure_standings._SCORED.clear()
    public_tables._DRAWN_ROWS.clear()


def corrections(t):
    """A function that corrects the next table of the last session (East's and South's scores
    swapped, so the standings move) by the desk's own services: a draft by one user, confirmed
    by another."""
    entered, confirmed = User.objects.get(username="bench"), User.objects.create_user("second")
    tables = list(Table.objects.filter(session__tournament=t, session__number=SESSIONS))
    done = iter(range(10**6))

    def correct():
        table = tables[next(done) % len(tables)]
        latest = services.latest_result(table)
        seats = services.seats_in_order(table)
        scores = {s.wind: s.score for s in latest.scores.all()}
        entries = {s.wind: (scores[s.wind], 0) for s in seats}
        east, south = seats[0].wind, seats[1].wind
        entries[east], entries[south] = entries[south], entries[east]
        draft = services.enter_result(table, entries, entered, latest.version)
        services.confirm_result(draft, confirmed)

    return correct


def run(players, repeat):
    t = fixture.build(players, SESSIONS)
    rules = t.rule_set()
    rows, tables = selectors.player_rows(t), selectors.table_rows(t)
    assert len(tables) == SESSIONS * players // 4

    def pure():
        pure_standings._SCORED.clear()
        compute_standings(rules, rows, tables)

    print(f"{players} players x {SESSIONS} sessions ({len(tables)} tables)")
    print(f"  standings computed (pure module):   median {timed(pure, repeat).median:6.1f} ms")

    def loaded():
        forget_everything()
        selectors.standings(Tournament.objects.get(pk=t.pk))

    print(f"  standings with database load, cold: median {timed(loaded, repeat).median:6.1f} ms")

    client = Client()
    path = f"/t/{t.slug}/"
    forget_everything()
    cold_q, kept_q = page_queries(client, path), page_queries(client, path)
    print(f"  GET {path}: queries cold {cold_q}, kept {kept_q}")
    cold = timed(lambda: (forget_everything(), client.get(path)), repeat)
    goal = f" (goal ≤ {COLD[players]} ms)" if players in COLD else ""
    print(f"  public standings, cold: median {cold.median:6.1f} ms{goal}")
    client.get(path)
    correct = corrections(t)
    after = []
    for _ in range(repeat):
        correct()
        after.append(timed(lambda: client.get(path), 1).median)
    after.sort()
    goal = AFTER_CONFIRMATION.get(players)
    goal = f" (goal ≤ {goal} ms)" if goal else ""
    print(
        f"  public standings, first render after a confirmation: median"
        f" {after[len(after) // 2]:6.1f} ms, best {after[0]:.1f}, worst {after[-1]:.1f}{goal}"
    )


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, nargs="+", default=[400, 1000], metavar="N")
    parser.add_argument("--repeat", type=int, default=9)
    args = parser.parse_args()
    fixture.migrate()
    for players in args.players:
        run(players, args.repeat)
        Tournament.objects.all().delete()  # the next size builds its own
        User.objects.all().delete()


if __name__ == "__main__":
    main()
