"""Issue 38's goals on real servers on loopback: the hall publishing to the federation server.

The hall is the README's server (`manage.py serve`, SQLite) with a 400-player tournament
(sessions 1-6 confirmed, benchmarks/fixture.py, imported as a tournament file; session 7 seated
for the benchmark to confirm). The federation server is `scripts/federation`'s PostgreSQL and
Redis with two gunicorn app processes (tests/support/federation_server.py). Between them the
hall's internet: benchmarks/link.py, a proxy with a 300 ms round trip and 1 Mbit/s upstream.

1. **A confirmation on the mirror**: desk users confirm session 7's tables one by one through
   the desk's pages; for each, the time from the confirmation's answer until both app
   processes' standings.json equal the hall's (polled every 50 ms), and the bytes the hall sent
   through the link for it (upload and heartbeats, headers included).
2. **An outage**: the link goes down for `--outage` seconds while the desk confirms
   `--outage-tables` more tables, spread evenly over it (its answers timed: the desk is not
   held up); the mirror still shows the standings from before the outage at its end; then the
   time from the link's return until both processes show the hall's standings (every row
   equal), and the bytes sent meanwhile. (The sender waits at most 30 s between tries, so any
   outage longer than about a minute is caught up alike.)
3. **The mirror under phones**: `--phones` requests of the standings page with If-None-Match
   (the ETag each process gave) spread over both app processes, `--concurrency` at a time,
   against the same number of requests of a static file from the same servers; requests per
   second of each and their ratio, and the errors.
4. **1,000 phones at once** (`--at-once`): that many phones each open a keep-alive connection
   to one of the two app processes (half each) and, once all are connected, each refreshes
   `--refreshes` times with a random think time of 0 to `--think` s before each: the standings
   page with If-None-Match, then a new crowd the static file, twice each, side by side. Requests
   per second of each and their ratio; the errors (an answer other than 200 or 304, a
   connection refused, reset or closed before the answer, no answer within 30 s); the answers'
   median and 95th percentile latency. A phone whose connection the server closed while it
   thought (gunicorn's 5 s keep-alive) opens a new one; a request whose kept-alive connection
   fails as it is reused is asked again once on a new one, as a browser does (RFC 9112
   §9.3.1), and counted apart. The phones are one asyncio loop in this process, raw HTTP/1.1
   on sockets (the standard library only); its CPU share is printed, as a saturated client
   would cap both rates alike.

`--confirmations 0`, `--outage 0`, `--phones 0`, `--at-once 0` leave parts 1, 2, 3, 4 out.

Run: .venv/bin/python benchmarks/federation.py [--players 400] [--confirmations 10]
     [--outage 90] [--outage-tables 20] [--phones 1000] [--concurrency 50]
     [--at-once 1000] [--refreshes 5] [--think 0.5]
"""

import argparse
import asyncio
import json
import random
import statistics
import sys
import tempfile
import threading
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(ROOT))

import fixture  # noqa: E402  (sets Django up on a scratch database)
from link import Link  # noqa: E402

from archive.tournament_file import dumps, export_tournament  # noqa: E402
from tests.support.federation_server import (  # noqa: E402
    FederationServer,
    confirm_table,
    fetch,
    standings,
    wait_for,
)
from tests.support.live_desk import Browser, LiveDesk  # noqa: E402
from tournament.models import Tournament  # noqa: E402

SLUG, ADDRESS, SESSION = "bench", "bench-live", 7

SEED = fixture.hall_seed(SESSION, "session.tables.count()")

KEY = """
import json
from django.contrib.auth.models import User
from federation.keys import key_text, make_key
print(json.dumps(key_text(make_key(User.objects.get(username="anna"), "tournament", "bench-live"))))
"""


def confirm(desk1, desk2, table: int, k: int) -> float:
    return confirm_table(desk1, desk2, SLUG, SESSION, table, k, step=100)


def hammer(urls: list[str], count: int, concurrency: int, headers_of) -> tuple[float, int]:
    """(requests per second, errors) of `count` GETs spread over `urls`."""
    errors = 0
    lock = threading.Lock()

    def one(i):
        nonlocal errors
        url = urls[i % len(urls)]
        status, _body, _headers = fetch(url, headers_of(url))
        if status not in (200, 304):
            with lock:
                errors += 1

    started = time.monotonic()
    with ThreadPoolExecutor(concurrency) as pool:
        list(pool.map(one, range(count)))
    return count / (time.monotonic() - started), errors


async def answer_of(reader) -> tuple[int, bool]:
    """(status, closed) of one HTTP/1.1 answer read whole from the stream."""
    head = (await reader.readuntil(b"\r\n\r\n")).decode("latin-1").split("\r\n")
    status = int(head[0].split(" ", 2)[1])
    fields = {}
    for line in head[1:]:
        name, _, value = line.partition(":")
        fields[name.strip().lower()] = value.strip().lower()
    closed = fields.get("connection") == "close"
    if fields.get("transfer-encoding") == "chunked":
        while size := int((await reader.readuntil(b"\r\n")).split(b";")[0], 16):
            await reader.readexactly(size + 2)
        await reader.readuntil(b"\r\n")  # no trailers: the last empty line
    elif "content-length" in fields:
        await reader.readexactly(int(fields["content-length"]))
    elif status not in (204, 304) and status >= 200:
        await reader.read()  # the body runs to the connection's end
        closed = True
    return status, closed


async def crowd_of(urls, headers: dict, phones: int, refreshes: int, think: float, seed: int):
    """`phones` phones at once, phone i on urls[i % len(urls)]: each connects, waits until all
    have, then refreshes `refreshes` times (a think time of 0 to `think` s before each),
    reconnecting when the server closed. Returns the figures (see part 4)."""
    timeout = 30.0
    rng = random.Random(seed)
    latencies: list[float] = []
    errors: Counter = Counter()
    arrived, everyone = 0, asyncio.Event()
    opened: list[float] = []
    reopened = [0]  # connections the server had closed between two refreshes
    retried: Counter = Counter()  # requests asked again: their reused connection failed

    async def connect(host, port):
        began = time.monotonic()
        try:
            connection = await asyncio.wait_for(asyncio.open_connection(host, port), timeout)
        except TimeoutError:
            errors["connect: no answer"] += 1
            return None
        except OSError as e:
            errors[f"connect: {e.strerror or type(e).__name__}"] += 1
            return None
        opened.append(time.monotonic() - began)
        return connection

    async def phone(number: int):
        nonlocal arrived
        url = urlsplit(urls[number % len(urls)])
        lines = [f"GET {url.path} HTTP/1.1", f"Host: {url.netloc}"]
        lines += [f"{name}: {value}" for name, value in headers.get(url.geturl(), {}).items()]
        request = ("\r\n".join(lines) + "\r\n\r\n").encode()
        connection = await connect(url.hostname, url.port)
        arrived += 1
        if arrived == phones:
            everyone.set()
        await everyone.wait()
        used = False  # the connection has carried an answer already
        for _ in range(refreshes):
            await asyncio.sleep(rng.uniform(0, think))
            if connection is not None and connection[0].at_eof():
                # The server closed it while the phone thought (keep-alive timeout): a browser
                # opens a new one, as here.
                connection[1].close()
                connection, used = None, False
                reopened[0] += 1
            began = time.monotonic()
            for attempt in range(2):
                if connection is None:
                    connection, used = await connect(url.hostname, url.port), False
                    if connection is None:
                        break
                reader, writer = connection
                failed = None
                try:
                    writer.write(request)
                    status, closed = await asyncio.wait_for(answer_of(reader), timeout)
                except TimeoutError:
                    failed, closed = "no answer within 30 s", True
                except asyncio.IncompleteReadError:
                    failed, closed = "closed before the answer", True
                except OSError as e:
                    failed, closed = e.strerror or type(e).__name__, True
                if closed:
                    writer.close()
                    connection = None
                if failed is None:
                    latencies.append(time.monotonic() - began)
                    if status not in (200, 304):
                        errors[f"answered {status}"] += 1
                    used = True
                    break
                if used and attempt == 0 and failed != "no answer within 30 s":
                    # A kept-alive connection the server closed just as it was reused: a
                    # browser asks again on a new one (RFC 9112 §9.3.1), and so does the phone.
                    retried[failed] += 1
                    continue
                errors[failed] += 1
                break
        if connection is not None:
            connection[1].close()

    cpu = time.process_time()
    runs = [asyncio.ensure_future(phone(n)) for n in range(phones)]
    await everyone.wait()
    started = time.monotonic()
    await asyncio.gather(*runs)
    wall = time.monotonic() - started
    ordered = sorted(latencies)
    return {
        "rate": len(latencies) / wall,
        "answers": len(latencies),
        "errors": errors,
        "median": statistics.median(ordered) if ordered else 0.0,
        "p95": ordered[int(0.95 * (len(ordered) - 1))] if ordered else 0.0,
        "connect_p95": sorted(opened)[int(0.95 * (len(opened) - 1))] if opened else 0.0,
        "wall": wall,
        "reopened": reopened[0],
        "retried": retried,
        "cpu": (time.process_time() - cpu) / wall,
    }


def crowd(urls, headers: dict, phones: int, refreshes: int, think: float, seed: int) -> dict:
    return asyncio.run(crowd_of(urls, headers, phones, refreshes, think, seed))


def shown(figures: dict) -> str:
    errors = sum(figures["errors"].values())
    what = ", ".join(f"{n} {kind}" for kind, n in sorted(figures["errors"].items()))
    retry = ", ".join(f"{n} {kind}" for kind, n in sorted(figures["retried"].items()))
    return (
        f"{figures['rate']:.0f}/s ({figures['answers']} answers in {figures['wall']:.1f} s, "
        f"latency median {1000 * figures['median']:.0f} ms, p95 {1000 * figures['p95']:.0f} ms, "
        f"{errors} errors{': ' + what if what else ''}; {figures['reopened']} connections "
        f"reopened{', ' + retry + ' asked again' if retry else ''})"
    )


def at_once(args, mirrors: list[str], tags: dict) -> None:
    """Part 4: the standings page and the static file, each to its own crowd, twice."""
    pages = list(tags)
    statics = [f"{m}/static/desk/desk.css" for m in mirrors]
    page_headers = {url: {"If-None-Match": tags[url], "Accept-Encoding": "gzip"} for url in pages}
    static_headers = {url: {"Accept-Encoding": "gzip"} for url in statics}
    for round_ in range(2):
        page = crowd(pages, page_headers, args.at_once, args.refreshes, args.think, 2 * round_)
        static = crowd(
            statics, static_headers, args.at_once, args.refreshes, args.think, 2 * round_ + 1
        )
        print(
            f"4. {args.at_once} phones at once on 2 app processes, {args.refreshes} refreshes "
            f"each (think 0-{args.think:g} s): standings (If-None-Match) {shown(page)}; "
            f"a static file {shown(static)}: {100 * page['rate'] / static['rate']:.0f} % "
            f"(the phones' CPU: {100 * page['cpu']:.0f} % and {100 * static['cpu']:.0f} % of "
            f"a core; connecting, p95 {1000 * page['connect_p95']:.0f} and "
            f"{1000 * static['connect_p95']:.0f} ms)"
        )


def published(args, server: FederationServer, hall: LiveDesk, key: str, link) -> float:
    """The hall set to publish through the link; the seconds until the mirror has it."""
    director = Browser(hall.url).log_in("boss", "pw-boss")
    status, _url, text = director.request(
        f"/desk/{SLUG}/publish/",
        {"url": f"http://127.0.0.1:{link.port}", "key": key, "enabled": "on"},
    )
    assert status == 200 and "Publishing is on" in text, text[-600:]
    hall_now = standings(hall.url, SLUG)
    return wait_for(lambda: standings(server.urls()[1], ADDRESS) == hall_now, 120)


def confirmations(args, hall, mirrors, link, desk1, desk2) -> list[float]:
    """Part 1; the desk's answer to each confirmation."""
    took, sent, answers = [], [], []
    for k in range(1, args.confirmations + 1):
        before = link.sent_up
        answers.append(confirm(desk1, desk2, k, k))
        wanted = standings(hall.url, SLUG)
        took.append(wait_for(lambda w=wanted: all(standings(m, ADDRESS) == w for m in mirrors), 60))
        time.sleep(0.3)  # the upload's last bytes counted before the next one
        sent.append(link.sent_up - before)
    print(
        "1. a confirmation on both mirror processes: "
        f"median {statistics.median(took):.2f} s, "
        f"max {max(took):.2f} s over {len(took)} (link 300 ms RTT, 1 Mbit/s up); "
        f"bytes sent per confirmation: median {statistics.median(sent):,.0f}"
    )
    return answers


def outage(args, hall, mirrors, link, desk1, desk2, answers: list[float]) -> None:
    """Part 2."""
    before_outage = standings(hall.url, SLUG)
    link.down()
    answered = []
    down_at = time.monotonic()
    count = args.outage_tables
    for i, k in enumerate(range(args.confirmations + 1, args.confirmations + 1 + count)):
        # Spread over the outage: the i-th confirmation at i/count of it.
        time.sleep(max(0.0, down_at + i * args.outage / count - time.monotonic()))
        answered.append(confirm(desk1, desk2, k, k))
    time.sleep(max(0.0, args.outage - (time.monotonic() - down_at)))
    wanted = standings(hall.url, SLUG)
    # The link was really down: both processes still show the standings from before it.
    assert all(standings(m, ADDRESS) == before_outage for m in mirrors)
    assert wanted != before_outage or count == 0
    sent_before = link.sent_up
    link.up()
    caught = wait_for(lambda: all(standings(m, ADDRESS) == wanted for m in mirrors), 120)
    time.sleep(0.3)  # the upload's last bytes counted
    print(
        f"2. an outage of {args.outage:.0f} s with {count} confirmations spread over it "
        f"(one every {args.outage / max(count, 1):.0f} s): the desk answered each in median "
        f"{statistics.median(answered or [0]):.2f} s, max {max(answered or [0]):.2f} s "
        f"(before: {statistics.median(answers or [0]):.2f} s); caught up {caught:.2f} s "
        f"after the link came back, both processes with the hall's standings "
        f"({len(wanted)} rows equal); {link.sent_up - sent_before:,} bytes sent from the "
        "return until caught up"
    )


def refreshes(args, mirrors: list[str], tags: dict) -> None:
    """Part 3."""
    pages = list(tags)
    statics = [f"{m}/static/desk/desk.css" for m in mirrors]
    for _round in range(2):
        page_rate, page_errors = hammer(
            pages,
            args.phones,
            args.concurrency,
            lambda url: {"If-None-Match": tags[url], "Accept-Encoding": "gzip"},
        )
        static_rate, static_errors = hammer(
            statics, args.phones, args.concurrency, lambda url: {"Accept-Encoding": "gzip"}
        )
        print(
            f"3. {args.phones} phones' refreshes (If-None-Match) on 2 app processes, "
            f"{args.concurrency} at a time: "
            f"standings {page_rate:.0f}/s ({page_errors} errors), "
            f"a static file {static_rate:.0f}/s ({static_errors} errors): "
            f"{100 * page_rate / static_rate:.0f} %"
        )


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--players", type=int, default=400)
    parser.add_argument("--confirmations", type=int, default=10)
    parser.add_argument("--outage", type=float, default=90)
    parser.add_argument("--outage-tables", type=int, default=20)
    parser.add_argument("--phones", type=int, default=1000)
    parser.add_argument("--concurrency", type=int, default=50)
    parser.add_argument("--at-once", type=int, default=1000)
    parser.add_argument("--refreshes", type=int, default=5)
    parser.add_argument("--think", type=float, default=0.5)
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="federation-bench-"))
    fixture.migrate()
    fixture.build(players=args.players, sessions=6)
    (folder / "bench.json").write_text(dumps(export_tournament(Tournament.objects.get(slug=SLUG))))
    (folder / "federation").mkdir()
    (folder / "hall").mkdir()
    server = FederationServer(folder / "federation")
    hall = LiveDesk(folder / "hall")
    try:
        server.start()
        server.manage("federation_organiser", "anna", "--password", "pw-anna-organiser")
        key = json.loads(server.manage("shell", "-c", KEY).strip().splitlines()[-1])
        hall.migrate()
        hall.manage("import_tournament", str(folder / "bench.json"))
        tables = hall.python(SEED)
        hall.start()
        mirrors = server.urls()
        port = int(mirrors[0].rsplit(":", 1)[1])
        with Link(("127.0.0.1", port), rtt=0.3, up_bps=1_000_000) as link:
            first = published(args, server, hall, key, link)
            print(f"{args.players} players, 6 sessions played, session 7 seated ({tables} tables)")
            print(f"first upload on the mirror after {first:.2f} s ({link.sent_up:,} bytes)")
            desk1 = Browser(hall.url).log_in("desk1", "pw-desk1")
            desk2 = Browser(hall.url).log_in("desk2", "pw-desk2")
            answers = []
            if args.confirmations > 0:
                answers = confirmations(args, hall, mirrors, link, desk1, desk2)
            if args.outage > 0:
                outage(args, hall, mirrors, link, desk1, desk2, answers)

        tags = {}
        for m in mirrors:
            _status, _body, headers = fetch(f"{m}/t/{ADDRESS}/", {"Accept-Encoding": "gzip"})
            tags[f"{m}/t/{ADDRESS}/"] = headers.get("ETag", "")
        if args.phones > 0:
            refreshes(args, mirrors, tags)
        if args.at_once > 0:
            at_once(args, mirrors, tags)
    finally:
        hall.close()
        server.close()


if __name__ == "__main__":
    main()
