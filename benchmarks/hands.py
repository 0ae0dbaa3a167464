"""Fifty tables recording their hands at once on the real server, and the table page's weight.

Seeds a tournament of 200 players with sessions 1 and 2 seated (50 tables each, no result),
starts the desk the way the README does (`manage.py serve`, waitress) on loopback with a
scratch data folder, then lets 50 clients — one per table, each its own keep-alive connection —
play an EMA game through the table page's own address (`…/act/`): each hand recorded, then
confirmed by the four players, to the end of South (8 hands), the last confirmation turning
the hands into the table's draft result. Every request is timed. Two phases:

1. paced (session 1): between one table's taps, a pause of 0.2–1.8 × `--pause` seconds (2.5 s
   on average): 50 tables then ask about 20 times a second — ten times what a hall asks, where
   a table records a hand every two minutes or so (five taps a hand);
2. burst (session 2): every table's taps back to back, all tables at once: the worst case,
   reported, not a goal.

Then the table page itself: its size over the wire (as the server sends it, compressed when the
browser asks for it), and the time until it is interactive in headless Chromium under
WebPageTest's "3G Slow" profile (400 ms round trip, 400 kbit/s each way), from the start of the
navigation to the moment the page has drawn the sheet and the hand form.

With `--players N` the tournament has N players and 12 sessions planned, sessions 1-5 confirmed
(the standings then have something to count), the tables playing in the sessions after them.
With `--phones P` (issue 39) the paced phase is played twice in the same run, first alone, then
with P phones that have the public standings page open, each asking again every `--period`
seconds (15) from a random offset with If-None-Match, now and then its own player page (the
phones of benchmarks/load.py's phase 4, its own code): both p95s of a hand saved and their
ratio (goal <= 1.5), and the server's CPU in each (no burst phase then).

Then the table page's `state.json` as a phone refreshes it (issue 39): the server's CPU per
request asked again and again on one connection, without and with the ETag it was sent
(If-None-Match: 304 where the desk keeps the state), beside a kept standings page's 304.
`--server-root PATH` starts the server from another checkout (before/after side by side; the
seeding is this one's, the database the same).

Goals (issue 24): a hand saved in <= 50 ms p95 with 0 errors (paced phase); the page <= 100 KB
over the wire and interactive in <= 1 s. Issue 39: with the phones, a hand's p95 <= 1.5 x
without them.
Run: .venv/bin/python benchmarks/hands.py [--tables 50] [--pause 2.5] [--threads N]
     [--players N] [--phones 300] [--period 15] [--server-root PATH]
"""

import argparse
import asyncio
import gzip
import http.client
import json
import os
import random
import re
import secrets
import sys
import threading
import time
import uuid
from pathlib import Path

os.environ["DESK_SECRET_KEY"] = secrets.token_urlsafe(50)  # the server's and this script's
sys.path.insert(0, str(Path(__file__).resolve().parent))

import fixture  # noqa: E402
from load import (  # noqa: E402
    HOST,
    SLUG,
    Connection,
    Phone,
    Stats,
    cpu_seconds,
    free_port,
    mean,
    percentile,
    start_server,
    stop_server,
    wait_until_ready,
)

WINDS = "ESWN"
PACE = (0.2, 1.8)  # × --pause: the spread of the seconds between one table's taps
GOAL_P95_MS, GOAL_KB, GOAL_INTERACTIVE_S = 50.0, 100, 1.0
GOAL_PHONES_RATIO = 1.5  # issue 39: a hand's p95 with the phones / without them
PLAYED, PLANNED = 5, 12  # with --players: sessions confirmed before the tables play; planned
OWN_PAGE = 0.1  # share of a phone's asks for its own player page (load.py's --own-page)
POLLS = 300  # state.json asked this many times in a row for its cost
SLOW_3G = {"latency": 400, "downloadThroughput": 400_000 / 8, "uploadThroughput": 400_000 / 8}


def seed(tables: int, players: int | None = None) -> list[tuple[str, str]]:
    """The tournament `bench` with two sessions seated and nothing played in them (sessions 1
    and 2; with `players`, sessions 6 and 7 of 12 planned, 1-5 confirmed); the first `tables`
    tables' paths in each (one session for each phase: a game ends after South)."""
    from scoring.models import Result
    from seating.keys import table_path
    from tournament.models import Tournament

    played = 0 if players is None else PLAYED
    live = (played + 1, played + 2)

    def unplayed(t, session, tables, order, user, now):
        if session.number in live:
            Result.objects.filter(table__session=session).delete()

    fixture.migrate()
    t = fixture.build(players or tables * 4, played + 2, each_session=unplayed)
    if players is not None:
        Tournament.objects.filter(pk=t.pk).update(planned_sessions=PLANNED)
    paths = [
        [table_path(table) for table in t.sessions.get(number=n).tables.order_by("number")]
        for n in live
    ]
    return list(zip(*[p[:tables] for p in paths], strict=True))


def game() -> list[dict]:
    """Eight hands, East 1 to South 4: each won by the seat after the dealer on the next
    seat's discard (1 han 30 fu), so the dealership passes every hand and South ends it."""
    hands = []
    for n in range(8):
        dealer = n % 4
        winner, discarder = WINDS[(dealer + 1) % 4], WINDS[(dealer + 2) % 4]
        riichi = [winner] if n % 2 else []
        win = {"seat": winner, "han": 1 + n % 3, "fu": 30}
        hands.append({"result": "ron", "from": discarder, "wins": [win], "riichi": riichi})
    return hands


class Table(threading.Thread):
    """One table's phones: a hand recorded, then the four confirmations, one request after
    another with `pause` (lo, hi) seconds between them, as people tap."""

    def __init__(self, port, path, start, pause, seed):
        super().__init__(daemon=True)
        self.port, self.path, self.start_at = port, path, start
        self.pause = pause
        self.rng = random.Random(seed)
        self.ms = {"record": [], "confirm": []}
        self.errors = []

    def wait(self):
        if self.pause[1]:
            time.sleep(self.rng.uniform(*self.pause))

    def post(self, conn, kind, body):
        t0 = time.perf_counter()
        try:
            conn.request(
                "POST",
                self.path + "act/",
                json.dumps(body),
                {
                    "Content-Type": "application/json",
                    "Connection": "keep-alive",
                    "X-CSRFToken": self.token,
                    "Cookie": f"csrftoken={self.token}",
                },
            )
            response = conn.getresponse()
            content = response.read()
        except (OSError, http.client.HTTPException) as e:
            self.errors.append(f"{kind}: {type(e).__name__}: {e}")
            conn.close()  # the next request opens a new connection, as a phone would
            return None
        self.ms[kind].append((time.perf_counter() - t0) * 1000)
        if response.status != 200:
            self.errors.append(f"{kind}: {response.status} {content[:200]!r}")
            return None
        return json.loads(content)

    def run(self):
        conn = http.client.HTTPConnection(HOST, self.port, timeout=30)
        # The page first, as a phone opens it: its form token goes with every change.
        conn.request("GET", self.path)
        response = conn.getresponse()
        response.read()
        cookies = ";".join(response.headers.get_all("Set-Cookie") or [])
        self.token = re.search(r"csrftoken=([^;]+)", cookies)[1]
        self.start_at.wait()
        self.wait()
        for n, hand in enumerate(game(), start=1):
            body = {"action": "record", "data": hand, "number": n, "client_id": str(uuid.uuid4())}
            if self.post(conn, "record", body) is None:
                return
            for wind in WINDS:
                self.wait()
                body = {"action": "confirm", "number": n, "version": 1, "wind": wind}
                self.post(conn, "confirm", body)
            self.wait()
        conn.close()


def play_phase(port, paths, pause, session):
    start = threading.Event()
    tables = [Table(port, path[session], start, pause, n) for n, path in enumerate(paths)]
    for table in tables:
        table.start()
    t0 = time.perf_counter()
    start.set()
    for table in tables:
        table.join()
    return tables, time.perf_counter() - t0


class Phones(threading.Thread):
    """`count` phones with the public standings page open (benchmarks/load.py's Phone, each on
    its own keep-alive connection): each opens the page (spread over 5 s, not measured), then
    asks again every `period` seconds from a random offset with If-None-Match until `done`."""

    def __init__(self, port, count, players, period):
        super().__init__(daemon=True)
        self.port, self.count, self.players, self.period = port, count, players, period
        self.ready, self.done = threading.Event(), threading.Event()
        self.stats = Stats()

    def run(self):
        asyncio.run(self._run())

    async def _run(self):
        pool = asyncio.Queue()
        for _ in range(self.count):
            pool.put_nowait(Connection(self.port))
        phones = [Phone(n, self.players, "full") for n in range(self.count)]
        warm_up = Stats()

        async def first_load(phone):
            await asyncio.sleep(phone.rng.uniform(0, min(self.period, 5.0)))
            await phone.ask(pool, warm_up, phone.standings, "first load", measured=False)

        await asyncio.gather(*(first_load(p) for p in phones))
        self.ready.set()
        start = time.perf_counter()
        tasks = [
            asyncio.create_task(
                p.run(pool, self.stats, start, start + 86_400, self.period, OWN_PAGE)
            )
            for p in phones
        ]
        while not self.done.is_set():
            await asyncio.sleep(0.2)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self.stats.elapsed = time.perf_counter() - start
        while not pool.empty():
            pool.get_nowait().close()


def with_phones(server, port, paths, pause, session, count, players, period):
    """The paced phase with `count` phones on the standings page meanwhile: (tables, elapsed),
    the phones' Stats."""
    phones = Phones(port, count, players, period)
    phones.start()
    phones.ready.wait()
    try:
        return play_phase(port, paths, pause, session), phones.stats
    finally:
        phones.done.set()
        phones.join()


def poll_cost(server, port, path) -> dict:
    """The server's CPU (ms) per request of the table's state.json asked POLLS times on one
    connection: without an ETag (each a 200), with the one it was sent (304 where the desk
    keeps it), and the public standings page's 304 beside them; and the answers' statuses."""
    conn = http.client.HTTPConnection(HOST, port, timeout=30)
    found = {}

    def ask(what, url, tag=None):
        headers = {"Accept-Encoding": "gzip"} | ({"If-None-Match": tag} if tag else {})
        statuses = {}
        cpu = cpu_seconds(server.pid)
        for _ in range(POLLS):
            conn.request("GET", url, headers=headers)
            response = conn.getresponse()
            response.read()
            statuses[response.status] = statuses.get(response.status, 0) + 1
        found[what] = ((cpu_seconds(server.pid) - cpu) * 1000 / POLLS, statuses)

    conn.request("GET", path + "state.json")
    response = conn.getresponse()
    response.read()
    tag = response.getheader("ETag")
    ask("state.json, no ETag", path + "state.json")
    ask("state.json, its ETag", path + "state.json", tag)
    conn.request("GET", f"/t/{SLUG}/", headers={"Accept-Encoding": "gzip"})
    response = conn.getresponse()
    response.read()
    ask("standings, its ETag (304)", f"/t/{SLUG}/", response.getheader("ETag"))
    conn.close()
    return found


def weight(port, path) -> tuple[int, int]:
    """The page's bytes as sent to a browser that takes gzip, and uncompressed."""
    conn = http.client.HTTPConnection(HOST, port, timeout=30)
    conn.request("GET", path, headers={"Accept-Encoding": "gzip"})
    response = conn.getresponse()
    body = response.read()
    raw = gzip.decompress(body) if response.getheader("Content-Encoding") == "gzip" else body
    conn.close()
    return len(body), len(raw)


def interactive(port, path) -> float | None:
    """Seconds from the start of the navigation to the sheet drawn and its form ready, under
    3G Slow; None without Playwright or Chromium."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        return None
    chromium = os.environ.get("E2E_CHROMIUM", "/usr/bin/chromium")
    if not Path(chromium).exists():
        return None
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
        page = browser.new_page(viewport={"width": 390, "height": 844})
        cdp = page.context.new_cdp_session(page)
        cdp.send("Network.enable")
        cdp.send("Network.emulateNetworkConditions", {"offline": False, **SLOW_3G})
        times = []
        for _round in range(3):
            page.goto(f"http://{HOST}:{port}{path}", wait_until="commit")
            page.wait_for_function("window.sheetReady !== undefined", timeout=30_000)
            times.append(page.evaluate("window.sheetReady") / 1000)
        browser.close()
    return sorted(times)[1]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--threads", type=int, help="the server's --threads (default: its own)")
    parser.add_argument(
        "--pause", type=float, default=2.5, help="mean seconds between one table's taps"
    )
    parser.add_argument("--players", type=int, help="players (12 sessions planned, 5 played)")
    parser.add_argument("--phones", type=int, default=0, help="standings phones (issue 39)")
    parser.add_argument("--period", type=float, default=15, help="a phone's seconds between asks")
    parser.add_argument("--server-root", type=Path, help="start the server from this checkout")
    args = parser.parse_args()
    if args.players is not None and args.players < 4 * args.tables:
        parser.error("--players must seat --tables tables")
    paths = seed(args.tables, args.players)
    root = args.server_root or Path(__file__).resolve().parent.parent
    port = free_port()
    log_path = Path(os.environ["DESK_DATA_DIR"]) / "server.log"
    with open(log_path, "w") as log:
        # The links are keyed by the desk's secret: the server gets this script's.
        secret = os.environ["DESK_SECRET_KEY"]
        server = start_server(root, port, os.environ["DESK_DATA_DIR"], args.threads, log, secret)
        try:
            wait_until_ready(server, port, paths[0][0], log_path)
            print(f"server: {root}; {args.players or 4 * args.tables} players", flush=True)
            phases, phones = [], None
            paced = (args.pause * PACE[0], args.pause * PACE[1])
            title = f"paced: {args.pause} s on average between one table's taps"
            cpu = cpu_seconds(server.pid)
            phases.append((title, play_phase(port, paths, paced, session=0)))
            cpus = [cpu_seconds(server.pid) - cpu]
            if args.phones:
                players = args.players or 4 * args.tables
                cpu = cpu_seconds(server.pid)
                played, phones = with_phones(
                    server, port, paths, paced, 1, args.phones, players, args.period
                )
                cpus.append(cpu_seconds(server.pid) - cpu)
                phases.append((f"{title}, {args.phones} standings phones", played))
            else:
                burst = "burst: every table's taps back to back, at once"
                phases.append((burst, play_phase(port, paths, (0, 0), session=1)))
            costs = poll_cost(server, port, paths[0][0])
            sent, raw = weight(port, paths[0][0])
            ready = None if args.phones else interactive(port, paths[1][0])
        finally:
            stop_server(server)
    report(phases, sent, raw, ready)
    report_phones(phases, cpus, phones, costs)


def report_phones(phases, cpus, phones, costs):
    """Issue 39: the hand's p95 without and with the phones, their ratio, the CPU of each
    phase; the cost of the table page's refresh."""
    for (title, (tables, elapsed)), cpu in zip(phases, cpus, strict=False):
        saves = sum(len(t.ms["record"]) + len(t.ms["confirm"]) for t in tables)
        print(f"server CPU, {title}: {cpu:.1f} s in {elapsed:.0f} s ({saves} changes)")
    if phones is not None:
        record = [[v for t in tables for v in t.ms["record"]] for _, (tables, _) in phases]
        alone, crowded = (percentile(ms, 95) for ms in record)
        ratio = crowded / alone
        ms = [v for values in phones.ms.values() for v in values]
        refresh = phones.refresh
        print(
            f"{len(ms)} phone asks: p50 {percentile(ms, 50):.0f} ms, p95 {percentile(ms, 95):.0f}"
            f" ms, {phones.total_errors()} errors; standings refreshes with news"
            f" {len(refresh['news'])} x {mean(refresh['news']):.0f} B, without"
            f" {len(refresh['none'])} x {mean(refresh['none']):.0f} B"
        )
        print(
            f"a hand saved, p95: {alone:.1f} ms alone, {crowded:.1f} ms with the phones:"
            f" x{ratio:.2f} (goal <= {GOAL_PHONES_RATIO})"
            + ("" if ratio <= GOAL_PHONES_RATIO else "  NOT met")
        )
    base = costs["standings, its ETag (304)"][0]
    for what, (ms, statuses) in costs.items():
        answers = ", ".join(f"{n} x {status}" for status, n in sorted(statuses.items()))
        print(
            f"  {what:28s} {ms:6.2f} ms server CPU a request"
            f" ({ms / base:.1f} x a standings 304; {answers})"
        )


def report(phases, sent, raw, ready):
    met = True
    for title, (tables, elapsed) in phases:
        errors = [e for t in tables for e in t.errors]
        print(f"{len(tables)} tables, {title}: {elapsed:.1f} s")
        for kind in ("record", "confirm"):
            ms = [v for t in tables for v in t.ms[kind]]
            print(
                f"  {kind:8s} {len(ms):5d} requests  p50 {percentile(ms, 50):6.1f} ms"
                f"  p95 {percentile(ms, 95):6.1f} ms  max {max(ms, default=0):6.1f} ms"
            )
        print(f"  errors {len(errors)}" + "".join(f"\n    {e}" for e in errors[:5]))
        met = met and not errors
        if title.startswith("paced"):
            record = [v for t in tables for v in t.ms["record"]]
            met = met and percentile(record, 95) <= GOAL_P95_MS
    print(f"table page: {sent / 1000:.1f} KB over the wire ({raw / 1000:.1f} KB uncompressed)")
    if ready is None:
        print("interactive: not measured (no Playwright or Chromium)")
    else:
        print(f"interactive under 3G Slow (400 ms RTT, 400 kbit/s): {ready:.2f} s")
    met = met and sent <= GOAL_KB * 1000 and (ready is None or ready <= GOAL_INTERACTIVE_S)
    print("goals met (the paced phase's record p95, no error anywhere)" if met else "goals NOT met")


if __name__ == "__main__":
    main()
