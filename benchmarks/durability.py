"""What SQLite's synchronous=FULL costs a result save (issue 22, "durability as promised").

In WAL mode, synchronous=NORMAL may lose the last committed transactions at a power cut;
FULL syncs the log at every commit, so a save the desk acknowledged survives one. This times
the desk's own services, a draft and its confirmation (two commits), on a scratch SQLite
database on this machine's disk, alternating the two settings. Backups are switched off here:
they are written on their own thread after the commit, and would only add noise.

Run: .venv/bin/python benchmarks/durability.py [--saves 200]
"""

import argparse
import statistics
import time

import fixture
from django.conf import settings
from django.contrib.auth.models import User
from django.db import connection

from scoring.services import confirm_result, enter_result, latest_result
from seating.models import Table


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--saves", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    settings.BACKUP_THREAD = False
    settings.DESK_BACKUP_DIR = settings.DATA_DIR / "backups"  # the scratch data folder
    fixture.migrate()
    fixture.build(players=400, sessions=1)
    first, second = User.objects.create_user("first"), User.objects.create_user("second")
    tables = list(Table.objects.filter(session__tournament__slug="bench").order_by("number"))
    scores = {"E": (40000, 0), "S": (30000, 0), "W": (30000, 0), "N": (20000, 0)}
    timings = {"NORMAL": [], "FULL": []}
    for _round in range(args.rounds):
        for mode in timings:
            with connection.cursor() as cursor:
                cursor.execute(f"PRAGMA synchronous={mode}")
            for n in range(args.saves):
                table = tables[n % len(tables)]
                base = latest_result(table).version
                started = time.perf_counter()
                draft = enter_result(table, scores, first, base)
                confirm_result(draft, second)
                timings[mode].append((time.perf_counter() - started) * 1000)
    for mode, values in timings.items():
        median, p95 = statistics.median(values), statistics.quantiles(values, n=20)[-1]
        print(
            f"synchronous={mode:6}  draft + confirmation: median {median:6.2f} ms,"
            f" p95 {p95:6.2f} ms ({len(values)} saves)"
        )
    full, normal = (statistics.median(timings[m]) for m in ("FULL", "NORMAL"))
    print(f"FULL costs {full - normal:+.2f} ms a save ({full / normal:.2f}×)")


if __name__ == "__main__":
    main()
