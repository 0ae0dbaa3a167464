"""The hall's load on the real server: public pages under 50 clients while the desk confirms.

Seeds a tournament in the middle of a session (200 players; sessions 1-5 confirmed, session 6
seated with every table's result entered as a draft), starts the desk the way the README does
(`manage.py serve`, waitress) on loopback with a scratch data folder, then runs three phases of
`--seconds` each, every client a keep-alive HTTP/1.1 connection asking again as soon as it has
its answer:

1. public pages: standings, their refresh, find my table (and its search), player pages and
   the feed, while a desk client logs in through /login/ and keeps confirming session 6's tables
   through the real desk URLs (and, once every draft is confirmed, enters and confirms
   corrections), measuring for each confirmation how long until the public standings page shows
   it (from sending the confirmation, polling every 50 ms);
2. the standings page alone, the desk still confirming;
3. a static file of the standings page's size, served by the same server (whitenoise).

Goals: no errors, p95 <= 100 ms on the public pages, standings >= 50 % of the static file's
requests per second, a confirmed result on the public page within 2 s.
Run: .venv/bin/python benchmarks/load.py [--seconds 30] [--clients 50] [--players 200]
"""

import argparse
import asyncio
import http.client
import math
import os
import random
import re
import secrets
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import time
from collections import defaultdict
from pathlib import Path
from urllib.parse import urlencode

sys.path.insert(0, str(Path(__file__).resolve().parent))

HOST = "127.0.0.1"
SLUG = "bench"
PLAYED, LIVE_SESSION, PLANNED = 5, 6, 8
DESK_USERS = {"desk1": "load-desk1-pw", "desk2": "load-desk2-pw"}
REQUEST_TIMEOUT = 10.0  # a request slower than this counts as an error
VISIBLE_GIVE_UP = 10.0  # seconds of polling before a confirmation counts as never visible
POLL_EVERY = 0.05
GOAL_P95_MS, GOAL_RATIO, GOAL_VISIBLE_S = 100.0, 0.5, 2.0


# --- seeding (in this process, before the server starts) ------------------------------------


def seed(fixture, players) -> dict:
    """The tournament `bench` mid-session; returns session 6's seats: table -> wind -> key."""
    from django.contrib.auth.models import Group, User

    from core.roles import DESK, ensure_groups
    from scoring.models import Result
    from tournament.models import Tournament

    live = {}

    def drafts(t, session, tables, order, user, now):
        if session.number != LIVE_SESSION:
            return
        # Entered by the fixture's user, so the desk users may confirm them.
        Result.objects.filter(table__session=session).update(
            status=Result.Status.DRAFT, confirmed_by=None, confirmed_at=None
        )
        for n, table in enumerate(tables):
            live[table.number] = dict(
                zip("ESWN", (p.key for p in order[4 * n : 4 * n + 4]), strict=True)
            )

    fixture.migrate()
    ensure_groups()
    t = fixture.build(players, LIVE_SESSION, each_session=drafts)
    Tournament.objects.filter(pk=t.pk).update(planned_sessions=PLANNED)
    desk = Group.objects.get(name=DESK)
    for name, password in DESK_USERS.items():
        User.objects.create_user(name, password=password).groups.add(desk)
    return live


def standings_page_bytes() -> bytes:
    from django.test import Client

    response = Client().get(f"/t/{SLUG}/")
    assert response.status_code == 200, response.status_code
    return response.content


# --- the server -------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


def _die_with_parent():
    """The server must not outlive this script, even when it is killed outright (Linux)."""
    try:
        import ctypes

        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except OSError:
        pass


def start_server(root, port, data_dir, threads, log, secret=None) -> subprocess.Popen:
    """The desk as the README starts it; `secret`: the desk's secret (a new one by default)."""
    secret = secret or secrets.token_urlsafe(50)
    env = dict(os.environ, DESK_DATA_DIR=str(data_dir), DESK_SECRET_KEY=secret)
    env["PYTHONUNBUFFERED"] = "1"
    for name in ("DATABASE_URL", "DESK_DEBUG"):
        env.pop(name, None)
    cmd = [sys.executable, str(root / "manage.py"), "serve", "--host", HOST]
    cmd += ["--port", str(port)] + (["--threads", str(threads)] if threads else [])
    return subprocess.Popen(
        cmd,
        cwd=root,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        stdin=subprocess.DEVNULL,
        start_new_session=True,  # Ctrl-C reaches this script, which stops the server itself
        preexec_fn=_die_with_parent,
    )


def wait_until_ready(server, port, path, log_path, timeout=120.0) -> bytes:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise RuntimeError(f"the server exited ({server.returncode}):\n{tail(log_path)}")
        conn = http.client.HTTPConnection(HOST, port, timeout=5)
        try:
            conn.request("GET", path)
            response = conn.getresponse()
            body = response.read()
            if response.status == 200:
                return body
        except OSError:
            pass
        finally:
            conn.close()
        time.sleep(0.2)
    raise RuntimeError(f"the server did not answer within {timeout:.0f} s:\n{tail(log_path)}")


def still_running(server, log_path):
    if server.poll() is not None:
        raise RuntimeError(f"the server stopped during the run:\n{tail(log_path)}")


def stop_server(server):
    if server.poll() is None:
        server.terminate()
        try:
            server.wait(10)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


def tail(path, lines=30) -> str:
    try:
        return "\n".join(Path(path).read_text(errors="replace").splitlines()[-lines:])
    except OSError:
        return ""


def cpu_seconds(pid) -> float:
    """User + system CPU of a process so far (Linux /proc), or nan elsewhere."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return math.nan


# --- a small keep-alive HTTP/1.1 client -------------------------------------------------------


class HttpError(Exception):
    pass


class Connection:
    """One keep-alive connection with its own cookies; a lost connection is reopened."""

    def __init__(self, port):
        self.port = port
        self.reader = self.writer = None
        self.cookies = {}

    async def request(self, method, path, form=None):
        """(status, headers as lowercase name -> list of values, body)."""
        try:
            return await asyncio.wait_for(self._request(method, path, form), REQUEST_TIMEOUT)
        except (TimeoutError, OSError, ValueError, EOFError, asyncio.LimitOverrunError) as e:
            self.close()
            raise HttpError(f"{type(e).__name__}: {e}") from e

    async def _request(self, method, path, form):
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection(HOST, self.port)
        body = urlencode(form).encode() if form is not None else b""
        head = [f"{method} {path} HTTP/1.1", f"Host: {HOST}:{self.port}", "Connection: keep-alive"]
        if self.cookies:
            head.append("Cookie: " + "; ".join(f"{k}={v}" for k, v in self.cookies.items()))
        if form is not None:
            head.append("Content-Type: application/x-www-form-urlencoded")
            head.append(f"Content-Length: {len(body)}")
        self.writer.write(("\r\n".join(head) + "\r\n\r\n").encode() + body)
        await self.writer.drain()
        raw = await self.reader.readuntil(b"\r\n\r\n")
        lines = raw.decode("latin-1").split("\r\n")
        status = int(lines[0].split(" ", 2)[1])
        headers = defaultdict(list)
        for line in lines[1:]:
            if ":" in line:
                name, value = line.split(":", 1)
                headers[name.strip().lower()].append(value.strip())
        if "chunked" in ",".join(headers.get("transfer-encoding", [])).lower():
            content = await self._chunks()
        else:
            content = await self.reader.readexactly(int(headers.get("content-length", ["0"])[0]))
        for cookie in headers.get("set-cookie", []):
            name, value = cookie.split(";", 1)[0].split("=", 1)
            self.cookies[name.strip()] = value.strip()
        if "close" in ",".join(headers.get("connection", [])).lower():
            self.close()
        return status, headers, content

    async def _chunks(self):
        parts = []
        while True:
            size = int((await self.reader.readuntil(b"\r\n")).split(b";")[0], 16)
            if size == 0:
                await self.reader.readuntil(b"\r\n")
                return b"".join(parts)
            parts.append(await self.reader.readexactly(size + 2))
            parts[-1] = parts[-1][:-2]

    def close(self):
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None


# --- measurements -----------------------------------------------------------------------------


class Stats:
    """Latencies (ms) and errors per endpoint for one phase."""

    def __init__(self):
        self.ms = defaultdict(list)
        self.errors = defaultdict(int)
        self.error_samples = []
        self.elapsed = 0.0
        self.desk = None  # what the desk measured meanwhile (Desk.take), if it was there

    def error(self, endpoint, what):
        self.errors[endpoint] += 1
        if len(self.error_samples) < 5:
            self.error_samples.append(f"{endpoint}: {what}")

    def endpoints(self):
        return sorted(set(self.ms) | set(self.errors), key=lambda e: -len(self.ms[e]))

    def all_ms(self):
        return [v for values in self.ms.values() for v in values]

    def total_errors(self):
        return sum(self.errors.values())


def percentile(values, p):
    """Nearest-rank percentile of a list of numbers (nan when empty)."""
    if not values:
        return math.nan
    ordered = sorted(values)
    return ordered[max(0, math.ceil(p / 100 * len(ordered)) - 1)]


def print_stats(stats):
    print(
        f"  {'endpoint':24s} {'requests':>8s} {'req/s':>8s} {'p50 ms':>8s} {'p95 ms':>8s}"
        f" {'p99 ms':>8s} {'max ms':>8s} {'errors':>6s}"
    )
    rows = [(e, stats.ms[e], stats.errors[e]) for e in stats.endpoints()]
    if len(rows) > 1:
        rows.append(("all", stats.all_ms(), stats.total_errors()))
    for name, ms, errors in rows:
        print(
            f"  {name:24s} {len(ms):8d} {len(ms) / stats.elapsed:8.1f}"
            f" {percentile(ms, 50):8.1f} {percentile(ms, 95):8.1f} {percentile(ms, 99):8.1f}"
            f" {max(ms, default=math.nan):8.1f} {errors:6d}"
        )
    for sample in stats.error_samples:
        print(f"  error: {sample}")


# --- the public clients -----------------------------------------------------------------------


def public_mix(players, tables):
    """A phone's choice of page, weighted roughly as the hall uses them."""
    base = f"/t/{SLUG}/"
    choices = [
        (30, "standings", lambda r: base),
        (10, "standings refresh", lambda r: base + "?partial=1"),
        (25, "player", lambda r: f"{base}p/p{r.randrange(players):03d}/"),
        (5, "find my table", lambda r: base + "find/"),
        (15, "find my table ?q=", lambda r: f"{base}find/?q={r.randrange(4 * tables):03d}"),
        (15, "feed", lambda r: base + "standings.json"),
    ]
    weights = [w for w, _n, _p in choices]

    def pick(rng):
        _w, name, path = rng.choices(choices, weights)[0]
        return name, path(rng)

    return pick


async def public_client(n, port, pick, stats, stop_at):
    rng = random.Random(n)
    conn = Connection(port)
    try:
        while time.perf_counter() < stop_at:
            endpoint, path = pick(rng)
            start = time.perf_counter()
            try:
                status, _h, _body = await conn.request("GET", path)
            except HttpError as e:
                stats.error(endpoint, e)
                await asyncio.sleep(0.05)  # a refused connection fails at once: no spinning
                continue
            if status == 200:
                stats.ms[endpoint].append((time.perf_counter() - start) * 1000)
            else:
                stats.error(endpoint, f"HTTP {status} for {path}")
    finally:
        conn.close()


# --- the desk ---------------------------------------------------------------------------------

CSRF = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
VERSION = re.compile(r'name="version" value="(\d+)"')
BASE_VERSION = re.compile(r'name="base_version" value="(\d+)"')


class DeskError(Exception):
    pass


def found(pattern, page, what) -> str:
    match = re.search(pattern, page)
    if match is None:
        raise DeskError(f"{what} not found on the page")
    return match[1]


class Desk:
    """Two desk users at two keyboards: desk1 confirms, desk2 enters corrections."""

    def __init__(self, port, live, pause):
        self.live = live  # table -> wind -> player key
        self.pause = pause  # seconds between one confirmation and the next
        self.users = {name: Connection(port) for name in DESK_USERS}
        self.public = Connection(port)
        self.table = 0  # the last table confirmed
        self.take()

    def take(self) -> dict:
        """What was measured since the last take: confirmations' delays, requests, errors."""
        measured = getattr(self, "measured", None)
        self.measured = {"visible": [], "ms": defaultdict(list), "errors": []}
        return measured

    async def call(self, user, what, method, path, form=None, expect=200):
        start = time.perf_counter()
        try:
            status, headers, body = await self.users[user].request(method, path, form)
        except HttpError as e:
            raise DeskError(f"{what}: {e}") from e
        self.measured["ms"][what].append((time.perf_counter() - start) * 1000)
        if status != expect:
            raise DeskError(f"{what}: HTTP {status} for {path}, expected {expect}")
        return headers, body.decode()

    async def login(self):
        """Through the real form, with its CSRF token; the session cookies outlive the loop."""
        try:
            for user, password in DESK_USERS.items():
                _h, page = await self.call(user, "login form", "GET", "/login/")
                form = {"csrfmiddlewaretoken": found(CSRF, page, "login token"), "next": ""}
                form |= {"username": user, "password": password}
                await self.call(user, "login", "POST", "/login/", form, expect=302)
                if "sessionid" not in self.users[user].cookies:
                    raise DeskError(f"login of {user} gave no session")
        finally:
            self.close()

    async def run(self, stop_at):
        try:
            while time.perf_counter() < stop_at:
                try:
                    await self.confirm_next()
                except DeskError as e:
                    self.measured["errors"].append(str(e))
                    await asyncio.sleep(0.5)  # no hammering a desk page that keeps failing
                await asyncio.sleep(max(0, min(self.pause, stop_at - time.perf_counter())))
        finally:
            self.close()

    def close(self):
        for conn in [*self.users.values(), self.public]:
            conn.close()

    async def confirm_next(self):
        self.table = self.table % len(self.live) + 1
        number = self.table
        url = f"/desk/{SLUG}/s/{LIVE_SESSION}/t/{number}/"
        _h, page = await self.call("desk1", "result page", "GET", url)
        if not VERSION.search(page):  # confirmed already: desk2 enters a correction first
            await self.correct(url)
            _h, page = await self.call("desk1", "result page", "GET", url)
        version = found(VERSION, page, f"table {number}: the version to confirm")
        east = self.live[number]["E"]
        before = await self.public_row(east)
        form = {"csrfmiddlewaretoken": found(CSRF, page, "token"), "version": version}
        sent = time.perf_counter()
        headers, _body = await self.call("desk1", "confirm", "POST", url + "confirm/", form, 302)
        while (await self.public_row(east)) == before:
            if time.perf_counter() - sent > VISIBLE_GIVE_UP:
                self.measured["visible"].append(math.inf)
                raise DeskError(f"table {number}: not on the public page after {VISIBLE_GIVE_UP} s")
            await asyncio.sleep(POLL_EVERY)
        self.measured["visible"].append(time.perf_counter() - sent)
        _h, page = await self.call("desk1", "page after confirm", "GET", headers["location"][0])
        if f"Table {number} confirmed." not in page:
            raise DeskError(f"table {number}: the desk did not say it was confirmed")

    async def correct(self, url):
        """East and South swap 1,000 points, back and forth, so East's total always changes."""
        _h, page = await self.call("desk2", "result page", "GET", url)
        base = int(found(BASE_VERSION, page, "base version"))
        scores = {w: int(found(rf'name="score_{w}" value="(-?\d+)"', page, w)) for w in "ESWN"}
        shift = 1000 if base % 2 else -1000
        scores["E"] += shift
        scores["S"] -= shift
        form = {"csrfmiddlewaretoken": found(CSRF, page, "token"), "base_version": base}
        form |= {f"score_{w}": s for w, s in scores.items()}
        form |= {f"chombo_{w}": 0 for w in "ESWN"}
        form["note"] = "load benchmark correction"
        await self.call("desk2", "enter correction", "POST", url, form, expect=302)

    async def public_row(self, key):
        """The player's row of the public standings page."""
        start = time.perf_counter()
        try:
            status, _h, body = await self.public.request("GET", f"/t/{SLUG}/")
        except HttpError as e:
            raise DeskError(f"public standings: {e}") from e
        self.measured["ms"]["public standings poll"].append((time.perf_counter() - start) * 1000)
        if status != 200:
            raise DeskError(f"public standings: HTTP {status}")
        page = body.decode()
        at = page.find(f'href="/t/{SLUG}/p/{key}/"')
        if at < 0:
            raise DeskError(f"public standings: no row for {key}")
        return page[page.rfind("<tr", 0, at) : page.find("</tr>", at)]


# --- phases -----------------------------------------------------------------------------------


async def phase(port, seconds, clients, pick, desk=None):
    stats = Stats()
    start = time.perf_counter()
    stop_at = start + seconds
    public = [
        asyncio.create_task(public_client(n, port, pick, stats, stop_at)) for n in range(clients)
    ]
    desk_task = asyncio.create_task(desk.run(stop_at)) if desk is not None else None
    # Every task stops by itself at stop_at; the timeouts only bound a request that hangs (each
    # gives up after REQUEST_TIMEOUT) or a confirmation that never shows (VISIBLE_GIVE_UP).
    await wait_for_all(public, seconds + REQUEST_TIMEOUT + 5, stats)
    stats.elapsed = time.perf_counter() - start  # the public clients' time: their req/s
    if desk_task is not None:
        await wait_for_all([desk_task], max(0, stop_at - time.perf_counter()) + 30, stats)
    return stats


async def wait_for_all(tasks, timeout, stats):
    done, pending = await asyncio.wait(tasks, timeout=timeout)
    for task in pending:
        task.cancel()
        stats.error("(client)", "a client did not stop in time")
    for task in done:
        if task.exception() is not None:
            stats.error("(client)", repr(task.exception()))


def run_phase(title, server, port, seconds, clients, pick, desk=None):
    print(f"\n{title}")
    cpu_server, cpu_client = cpu_seconds(server.pid), time.process_time()
    stats = asyncio.run(phase(port, seconds, clients, pick, desk))
    cpu_server = cpu_seconds(server.pid) - cpu_server
    cpu_client = time.process_time() - cpu_client
    print_stats(stats)
    print(
        f"  {stats.elapsed:.1f} s; CPU used: server {cpu_server:.1f} s, clients {cpu_client:.1f} s"
        f" (of {os.cpu_count()} cores x {stats.elapsed:.1f} s)"
    )
    if desk is not None:
        stats.desk = desk.take()
        print_desk(stats.desk)
    return stats


def print_desk(desk):
    visible = [v for v in desk["visible"] if math.isfinite(v)]
    median = statistics.median(visible) * 1000 if visible else math.nan
    most = max(desk["visible"], default=math.nan) * 1000
    print(
        f"  desk: {len(desk['visible'])} confirmations, each on the public standings page"
        f" after (from sending it): median {median:.0f} ms, max {most:.0f} ms"
    )
    for what, ms in desk["ms"].items():
        print(
            f"    {what:22s} {len(ms):4d} requests, p50 {percentile(ms, 50):6.1f} ms,"
            f" max {max(ms):6.1f} ms"
        )
    for error in desk["errors"][:5]:
        print(f"  desk error: {error}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=30, help="length of each phase")
    parser.add_argument("--clients", type=int, default=50, help="concurrent public clients")
    parser.add_argument("--players", type=int, default=200, help="players (a multiple of 4)")
    parser.add_argument("--threads", type=int, help="the server's --threads (default: its own)")
    parser.add_argument("--desk-pause", type=float, default=1.0, help="seconds between confirms")
    parser.add_argument("--keep-data", action="store_true", help="keep the scratch data folder")
    args = parser.parse_args()
    if args.players < 8 or args.players % 4:
        parser.error("--players must be a multiple of 4, at least 8")
    if args.seconds <= 0 or args.clients < 1:
        parser.error("--seconds and --clients must be positive")
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # clean up as on Ctrl-C

    import fixture  # sets Django up on a scratch database in a new temporary data folder

    data_dir = Path(os.environ["DESK_DATA_DIR"])
    static_file = fixture.ROOT / "staticfiles" / f"load-benchmark-{os.getpid()}.html"
    log_path = data_dir / "server.log"
    server = None
    try:
        start = time.perf_counter()
        live = seed(fixture, args.players)
        # A static file of the standings page's size (its very bytes), in STATIC_ROOT before the
        # server starts: whitenoise lists the files it serves once, at start. Removed at the end.
        static_file.write_bytes(standings_page_bytes())
        from django.db import connections

        connections.close_all()
        print(
            f"{args.players} players, sessions 1-{PLAYED} confirmed, session {LIVE_SESSION}"
            f" seated with {len(live)} draft results; seeded in {time.perf_counter() - start:.1f} s"
        )
        port = free_port()
        with open(log_path, "w") as log:
            server = start_server(fixture.ROOT, port, data_dir, args.threads, log)
        start = time.perf_counter()
        served = wait_until_ready(server, port, f"/t/{SLUG}/", log_path)
        static_url = f"/static/{static_file.name}"
        static = wait_until_ready(server, port, static_url, log_path, timeout=5)
        print(
            f"server: manage.py serve on {HOST}:{port} (waitress, threads:"
            f" {args.threads or 'its default'}), answered after {time.perf_counter() - start:.1f}"
            f" s; data in {data_dir}"
        )
        print(
            f"standings page {len(served)} bytes, static file {static_url} {len(static)} bytes"
            + ("" if len(served) == len(static) else "  (SIZES DIFFER)")
        )
        desk = Desk(port, live, args.desk_pause)
        start = time.perf_counter()
        asyncio.run(desk.login())
        desk.take()  # the logins are not part of any phase
        print(f"desk users logged in through /login/ in {time.perf_counter() - start:.1f} s")
        print(
            f"{args.clients} keep-alive HTTP/1.1 clients (asyncio, one process) and the server"
            f" share this machine's {os.cpu_count()} cores; {args.seconds:g} s per phase;"
            f" the desk confirms a table, waits until it shows, pauses {args.desk_pause:g} s"
        )

        mixed = run_phase(
            "1. public pages, the desk confirming", server, port, args.seconds, args.clients,
            public_mix(args.players, len(live)), desk,
        )  # fmt: skip
        still_running(server, log_path)
        only_standings = run_phase(
            "2. standings page alone, the desk confirming", server, port, args.seconds,
            args.clients, lambda r: ("standings", f"/t/{SLUG}/"), desk,
        )  # fmt: skip
        still_running(server, log_path)
        only_static = run_phase(
            "3. static file of the same size, from the same server", server, port, args.seconds,
            args.clients, lambda r: ("static file", static_url),
        )  # fmt: skip
        still_running(server, log_path)
        report(mixed, only_standings, only_static)
    finally:
        if server is not None:
            stop_server(server)
        static_file.unlink(missing_ok=True)
        if args.keep_data:
            print(f"data kept in {data_dir}")
        else:
            shutil.rmtree(data_dir, ignore_errors=True)


def rps(stats):
    return len(stats.all_ms()) / stats.elapsed if stats.elapsed else 0.0


def report(mixed, only_standings, only_static):
    phases = (mixed, only_standings, only_static)
    desks = [s.desk for s in phases if s.desk is not None]
    errors = sum(s.total_errors() for s in phases) + sum(len(d["errors"]) for d in desks)
    p95 = percentile(mixed.all_ms(), 95)
    p95s = {e: percentile(mixed.ms[e], 95) for e in mixed.endpoints() if mixed.ms[e]}
    worst = max(p95s, key=p95s.get, default=None)
    ratio = rps(only_standings) / rps(only_static) if rps(only_static) else 0.0
    visible = [v for d in desks for v in d["visible"]]
    most = max(visible, default=math.inf)
    median = statistics.median(visible) if visible else math.inf
    goals = [
        ("errors (every phase and the desk)", f"{errors}", "0", errors == 0),
        (
            "p95 latency, public pages (phase 1)",
            f"{p95:.1f} ms" + (f" (worst: {worst} {p95s[worst]:.1f} ms)" if worst else ""),
            f"<= {GOAL_P95_MS:g} ms",
            p95 <= GOAL_P95_MS,
        ),
        (
            "standings / static file req/s",
            f"{ratio:.0%} ({rps(only_standings):.0f} / {rps(only_static):.0f})",
            f">= {GOAL_RATIO:.0%}",
            ratio >= GOAL_RATIO,
        ),
        (
            "confirmed result on the public page",
            f"max {most:.2f} s, median {median:.2f} s ({len(visible)} confirmations)"
            if visible
            else "no confirmation measured",
            f"<= {GOAL_VISIBLE_S:g} s",
            most <= GOAL_VISIBLE_S,
        ),
    ]
    print("\ngoals")
    for what, measured, goal, met in goals:
        print(f"  {what:36s} {measured:48s} {goal:10s} {'met' if met else 'NOT MET'}")


if __name__ == "__main__":
    try:
        main()
    except KeyboardInterrupt:
        sys.exit("interrupted: the server is stopped and the scratch data removed")
    except RuntimeError as e:  # the server did not start or stopped: its log's tail is in e
        sys.exit(f"load.py: {e}")
