"""Does building the public file hold the desk's writers? (issue 38, core.snapshot)

On the benchmarks' scratch SQLite file (WAL, the desk's IMMEDIATE transactions), one thread
builds the public file of 400 players × 6 sessions over and over while the main thread makes
desk writes (touch(): one short IMMEDIATE transaction each); prints how long the writes took
with and without the builder running, and, for comparison, with the builder in an IMMEDIATE
transaction (what a plain transaction.atomic() would be on this desk).
Run: .venv/bin/python benchmarks/publish_snapshot.py
"""

import statistics
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import fixture  # noqa: E402  (sets Django up on a scratch database)
from django.core.cache import cache  # noqa: E402
from django.db import OperationalError, connection, connections, transaction  # noqa: E402

from archive.tournament_file import dumps  # noqa: E402
from publishing import sender  # noqa: E402
from publishing.public_file import public_tournament_file  # noqa: E402
from tournament.changes import touch  # noqa: E402
from tournament.models import Tournament  # noqa: E402

WRITES = 15


def writes(t, count=WRITES) -> list[float]:
    """Seconds each write took; a write refused ("database is locked", after the desk's 20 s
    timeout) counts as infinite."""
    took = []
    for _ in range(count):
        start = time.perf_counter()
        try:
            with transaction.atomic():
                touch(t.pk, seating=False)
        except OperationalError:
            took.append(float("inf"))
        else:
            took.append(time.perf_counter() - start)
        time.sleep(0.02)
    return took


def builder(stop, how):
    while not stop.is_set():
        cache.clear()
        if how == "snapshot":
            sender.public_text("tournament", "bench")
        else:
            with transaction.atomic():  # BEGIN IMMEDIATE on this desk
                t = Tournament.objects.get(slug="bench")
                connection.cursor().execute("UPDATE django_session SET expire_date=expire_date")
                dumps(public_tournament_file(t))
    connections.close_all()


def main():
    fixture.migrate()
    t = fixture.build(400, 6)
    report = {}
    for how in ("alone", "snapshot", "immediate"):
        stop = threading.Event()
        thread = None
        if how != "alone":
            thread = threading.Thread(target=builder, args=(stop, how))
            thread.start()
            time.sleep(0.3)
        took = writes(t, 3 if how == "immediate" else WRITES)
        stop.set()
        if thread:
            thread.join()
        report[how] = took
        print(
            f"writes with the builder {how:9}: median {statistics.median(took) * 1000:6.1f} ms,"
            f" max {max(took) * 1000:6.1f} ms, refused {took.count(float('inf'))}"
        )


if __name__ == "__main__":
    main()
