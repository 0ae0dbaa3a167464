"""Standings at full size: 400, 1,000 and 2,000 players, 12 sessions, in a scratch SQLite database.

Prints the time to compute the standings (the pure module alone, and with the database load),
the number of queries the public standings page runs, cold and kept, and the public standings
page's time (issue 26): cold (nothing kept: the cache cleared and the tables scored and rows
drawn forgotten, as after a restart), and the first render after a confirmation (a table's
result corrected through the desk's services, then the page asked for), beside the goals.

Issue 39, server CPU (this process's, the page asked through the test client): the first page
with nothing kept (the store on disk emptied too, public.stored), the first page after a
restart (this process's memory forgotten, the store kept) and the first page after a write that
changes nothing public (the clock: touch(seating=False)). Then the real server (`manage.py
serve`, as benchmarks/load.py starts it) on the same data: its CPU for the first standings page
after a start with the store empty and after a restart, and its resident memory (RSS) across a
session of `--rounds` corrections with phones refreshing (the standings with If-None-Match, the
feed, the statistics, ten player pages and a find page each round): at start, after a warm-up
of a fifth of the rounds, and at the end. Each figure's growth with the players is fitted as
an exponent (ms ∝ players^k). To measure code before a change, copy this script into that
code's benchmarks/ and run it there.
Run: .venv/bin/python benchmarks/standings.py [--players 400 1000 2000] [--repeat 9]
     [--rounds 60] [--server-only]
"""

import argparse
import http.client
import math
import shutil
import socket
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import fixture  # noqa: E402  (sets Django up on a scratch database)
from django.conf import settings  # noqa: E402
from django.contrib.auth.models import User  # noqa: E402
from django.core.cache import cache  # noqa: E402
from django.db import (
    connection,  # noqa: E402
    connections,  # noqa: E402
)
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402
from timing import timed  # noqa: E402

from mahjong import standings as pure_standings  # noqa: E402
from mahjong.standings import compute_standings  # noqa: E402
from public import tables as public_tables  # noqa: E402
from scoring import selectors, services  # noqa: E402
from seating.models import Table  # noqa: E402
from tournament.changes import touch  # noqa: E402
from tournament.models import Tournament  # noqa: E402

SESSIONS = 12
# Issue 26's goals, ms: the first render after a confirmation, by players; cold at 400.
AFTER_CONFIRMATION = {400: 50, 1000: 150}
COLD = {400: 150}
# Issue 39's goal, ms of server CPU: the first standings page after a restart, at 2,000.
RESTART = {2000: 150}


def page_queries(client, path):
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(path)
    assert response.status_code == 200, response.status_code
    return len(ctx.captured_queries)


def forget_everything(store=True):
    """Nothing kept, as in a process just started: the cache, and the tables scored and rows
    drawn that the standings keep from one revision to the next; and unless `store` is false,
    the public pages' store on disk (public.stored), which a restart keeps."""
    cache.clear()
    pure_standings._SCORED.clear()
    public_tables._DRAWN_ROWS.clear()
    if store:
        empty_store()


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


def run(players, repeat, rounds, server_only=False):
    t = fixture.build(players, SESSIONS)
    if server_only:  # the real server's figures alone (a longer session for its memory)
        print(f"{players} players x {SESSIONS} sessions")
        return server_figures(t, players, f"/t/{t.slug}/", corrections(t), rounds)
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
    figures = cpu_figures(t, client, path, repeat)
    figures.update(server_figures(t, players, path, correct, rounds))
    return figures


# --- issue 39: server CPU of the first page, the real server's memory --------------------------


def empty_store():
    """The public pages' store on disk (public.stored) emptied; none in code before it."""
    shutil.rmtree(Path(settings.DATA_DIR) / "public-pages", ignore_errors=True)


def cpu_ms(fn) -> float:
    """CPU of this thread, which answers the test client's request (a backup thread's not)."""
    start = time.thread_time()
    fn()
    return (time.thread_time() - start) * 1000


def median_cpu(fn, repeat) -> float:
    return statistics.median(cpu_ms(fn) for _ in range(repeat))


def cpu_figures(t, client, path, repeat) -> dict:
    """This process's CPU for the first standings page: nothing kept, after a restart (memory
    forgotten, the store kept), after a write that changes nothing public."""
    settings.DESK_BACKUP_ON_CHANGE = False  # no backup thread's CPU in this process's figures
    client.get(path)

    def nothing_kept():
        forget_everything()
        client.get(path)

    cold = median_cpu(nothing_kept, repeat)
    client.get(path)  # the store holds this revision's page again
    restart = median_cpu(lambda: (forget_everything(store=False), client.get(path)), repeat)

    def quiet():
        touch(t.pk, seating=False)  # the clock, a hand of a session the public does not see
        client.get(path)

    client.get(path)
    quiet_ms = median_cpu(quiet, repeat)
    players = t.players.count()
    goal = f" (goal ≤ {RESTART[players]} ms)" if players in RESTART else ""
    print(f"  first standings page, CPU: nothing kept {cold:6.1f} ms;", end="")
    print(f" after a restart {restart:6.1f} ms{goal}")
    print(f"  first standings page after a write that changes nothing public: {quiet_ms:6.1f} ms")
    return {"cold cpu": cold, "restart cpu": restart, "quiet write cpu": quiet_ms}


def rss_mb(pid) -> float:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return math.nan


def wait_for_port(server, port, timeout=120.0):
    import load

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise RuntimeError(f"the server exited ({server.returncode})")
        try:
            with socket.create_connection((load.HOST, port), timeout=1):
                return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError("the server did not listen")


def wait_idle(pid, quiet=0.5, timeout=30.0):
    """Until the process used no CPU for `quiet` seconds (its start's threads settled)."""
    import load

    deadline = time.monotonic() + timeout
    last = load.cpu_seconds(pid)
    while time.monotonic() < deadline:
        time.sleep(quiet)
        now = load.cpu_seconds(pid)
        if now == last:
            return
        last = now


class Phone:
    """A keep-alive connection asking with gzip and If-None-Match, as a phone refreshes."""

    def __init__(self, port):
        import load

        self.conn = http.client.HTTPConnection(load.HOST, port, timeout=60)
        self.tags = {}

    def get(self, path) -> int:
        headers = {"Accept-Encoding": "gzip"}
        if path in self.tags:
            headers["If-None-Match"] = self.tags[path]
        self.conn.request("GET", path, headers=headers)
        response = self.conn.getresponse()
        response.read()
        if response.getheader("ETag"):
            self.tags[path] = response.getheader("ETag")
        assert response.status in (200, 304), (path, response.status)
        return response.status


def server_figures(t, players, path, correct, rounds) -> dict:
    """The real server on this data: its CPU for the first standings page after a start with
    the store empty and after a restart (the store its predecessor left), then its RSS across
    `rounds` corrections with phones refreshing."""
    import load

    data_dir = Path(settings.DATA_DIR)
    log_path = data_dir / "server.log"
    settings.DESK_BACKUP_ON_CHANGE = False  # this process's corrections write no backups
    connections.close_all()
    figures = {}
    for label, emptied in (("server, nothing kept", True), ("server, after a restart", False)):
        if emptied:
            empty_store()
        port = load.free_port()
        with open(log_path, "a") as log:
            server = load.start_server(load_root(), port, data_dir, None, log)
        try:
            wait_for_port(server, port)
            wait_idle(server.pid)
            before = load.cpu_seconds(server.pid)
            phone = Phone(port)
            phone.get(path)
            time.sleep(0.3)
            figures[label] = (load.cpu_seconds(server.pid) - before) * 1000
            print(f"  {label}: first standings page {figures[label]:6.0f} ms server CPU")
            if not emptied:
                figures.update(session_rss(server, port, t, players, path, correct, rounds))
        finally:
            load.stop_server(server)
    return figures


def load_root() -> Path:
    return fixture.ROOT


def session_rss(server, port, t, players, path, correct, rounds) -> dict:
    """RSS across `rounds` corrections (made here, seen by the server within its second's
    revision) with phones refreshing; printed at start, after a fifth and at the end."""
    import random

    import load

    rng = random.Random(39)
    phones = [Phone(port) for _ in range(4)]
    keys = list(t.players.values_list("key", flat=True))
    pages = [path, f"{path}standings.json", f"{path}statistics.json", f"{path}find/?q=Player+1"]
    start = rss_mb(server.pid)
    warm = math.nan
    series = []  # RSS after each fifth of the rounds
    cpu = load.cpu_seconds(server.pid)
    for n in range(rounds):
        correct()
        time.sleep(1.05)  # past the second the server keeps a revision (public.cache.keys)
        for phone in phones:
            for page in pages + [f"{path}p/{rng.choice(keys)}/" for _ in range(3)]:
                phone.get(page)
        if n + 1 == max(1, rounds // 5):
            warm = rss_mb(server.pid)
        if (n + 1) % max(1, rounds // 5) == 0:
            series.append(f"{rss_mb(server.pid):.0f}")
    end = rss_mb(server.pid)
    cpu = load.cpu_seconds(server.pid) - cpu
    print(
        f"  server RSS: start {start:5.0f} MB, after {max(1, rounds // 5)} corrections"
        f" {warm:5.0f} MB, after {rounds} {end:5.0f} MB (growth after warm-up"
        f" {end - warm:+.0f} MB; server CPU {cpu:.1f} s)"
    )
    print(f"  server RSS after each fifth of the corrections: {' / '.join(series)} MB")
    return {"rss start": start, "rss warm": warm, "rss end": end}


def exponent(sizes, values) -> float:
    """k of values ∝ sizes^k, least squares on the logarithms."""
    xs = [math.log(s) for s in sizes]
    ys = [math.log(max(v, 0.1)) for v in values]
    mx, my = statistics.fmean(xs), statistics.fmean(ys)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / sum(
        (x - mx) ** 2 for x in xs
    )


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, nargs="+", default=[400, 1000, 2000], metavar="N")
    parser.add_argument("--repeat", type=int, default=9)
    parser.add_argument(
        "--rounds", type=int, default=60, help="corrections in the server's session (RSS)"
    )
    parser.add_argument(
        "--server-only", action="store_true", help="the real server's figures alone"
    )
    args = parser.parse_args()
    fixture.migrate()
    found = {}
    for players in args.players:
        found[players] = run(players, args.repeat, args.rounds, args.server_only)
        Tournament.objects.all().delete()  # the next size builds its own
        User.objects.all().delete()
    if len(found) < 2:
        return
    sizes = sorted(found)
    print("\nby players: " + ", ".join(f"{n:,}" for n in sizes) + " (exponent k: ms ∝ players^k)")
    for name in found[sizes[0]]:
        values = [found[n][name] for n in sizes]
        unit = "MB" if name.startswith("rss") else "ms"
        shown = " / ".join(f"{v:.0f} {unit}" for v in values)
        print(f"  {name:28s} {shown:36s} k = {exponent(sizes, values):.2f}")


if __name__ == "__main__":
    main()
