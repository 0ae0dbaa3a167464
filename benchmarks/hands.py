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

Goals (issue 24): a hand saved in <= 50 ms p95 with 0 errors (paced phase); the page <= 100 KB
over the wire and interactive in <= 1 s.
Run: .venv/bin/python benchmarks/hands.py [--tables 50] [--pause 2.5] [--threads N]
"""

import argparse
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
    free_port,
    percentile,
    start_server,
    stop_server,
    wait_until_ready,
)

WINDS = "ESWN"
PACE = (0.2, 1.8)  # × --pause: the spread of the seconds between one table's taps
GOAL_P95_MS, GOAL_KB, GOAL_INTERACTIVE_S = 50.0, 100, 1.0
SLOW_3G = {"latency": 400, "downloadThroughput": 400_000 / 8, "uploadThroughput": 400_000 / 8}


def seed(tables: int) -> list[tuple[str, str]]:
    """The tournament `bench` with sessions 1 and 2 seated and nothing played; each table's
    paths in session 1 and 2 (one session for each phase: a game ends after South)."""
    from scoring.models import Result
    from seating.keys import table_path

    def unplayed(t, session, tables, order, user, now):
        Result.objects.filter(table__session=session).delete()

    fixture.migrate()
    t = fixture.build(tables * 4, 2, each_session=unplayed)
    paths = [
        [table_path(table) for table in t.sessions.get(number=n).tables.order_by("number")]
        for n in (1, 2)
    ]
    return list(zip(*paths, strict=True))


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
    args = parser.parse_args()
    paths = seed(args.tables)
    root = Path(__file__).resolve().parent.parent
    port = free_port()
    log_path = Path(os.environ["DESK_DATA_DIR"]) / "server.log"
    with open(log_path, "w") as log:
        # The links are keyed by the desk's secret: the server gets this script's.
        secret = os.environ["DESK_SECRET_KEY"]
        server = start_server(root, port, os.environ["DESK_DATA_DIR"], args.threads, log, secret)
        try:
            wait_until_ready(server, port, paths[0][0], log_path)
            phases = []
            for title, pause, where in (
                (f"paced: {args.pause} s on average between one table's taps", PACE, 0),
                ("burst: every table's taps back to back, at once", (0, 0), 1),
            ):
                pause = (args.pause * pause[0], args.pause * pause[1])
                phases.append((title, play_phase(port, paths, pause, session=where)))
            sent, raw = weight(port, paths[0][0])
            ready = interactive(port, paths[1][0])
        finally:
            stop_server(server)
    report(phases, sent, raw, ready)


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
