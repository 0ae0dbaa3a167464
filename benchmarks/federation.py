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
   equal), and the bytes sent meanwhile. (The sender waits at
   most 30 s between tries, so any outage longer than about a minute is caught up alike.)
3. **The mirror under phones**: `--phones` requests of the standings page with If-None-Match
   (the ETag each process gave) spread over both app processes, `--concurrency` at a time,
   against the same number of requests of a static file from the same servers; requests per
   second of each and their ratio, and the errors. `--phones 0` leaves this part out.

Run: .venv/bin/python benchmarks/federation.py [--players 400] [--confirmations 10]
     [--outage 90] [--outage-tables 20] [--phones 1000] [--concurrency 50]
"""

import argparse
import json
import statistics
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

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

SEED = """
import json
from django.contrib.auth.models import Group, User
from core.roles import DESK, ensure_groups
from tests.support import factories as f
from tournament.models import Tournament
ensure_groups()
t = Tournament.objects.get(slug="bench")
for name in ("desk1", "desk2"):
    user = User.objects.create_user(name, password="pw-" + name)
    user.groups.add(Group.objects.get(name=DESK))
    f.grant(user, t)
User.objects.create_superuser("boss", password="pw-boss")
session = f.seat_session(t, number=7)
print(json.dumps(session.tables.count()))
"""

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


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--players", type=int, default=400)
    parser.add_argument("--confirmations", type=int, default=10)
    parser.add_argument("--outage", type=float, default=90)
    parser.add_argument("--outage-tables", type=int, default=20)
    parser.add_argument("--phones", type=int, default=1000)
    parser.add_argument("--concurrency", type=int, default=50)
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
            director = Browser(hall.url).log_in("boss", "pw-boss")
            status, _url, text = director.request(
                f"/desk/{SLUG}/publish/",
                {"url": f"http://127.0.0.1:{link.port}", "key": key, "enabled": "on"},
            )
            assert status == 200 and "Publishing is on" in text, text[-600:]
            hall_now = standings(hall.url, SLUG)
            first = wait_for(lambda: standings(mirrors[1], ADDRESS) == hall_now, 120)
            print(f"{args.players} players, 6 sessions played, session 7 seated ({tables} tables)")
            print(f"first upload on the mirror after {first:.2f} s ({link.sent_up:,} bytes)")

            desk1 = Browser(hall.url).log_in("desk1", "pw-desk1")
            desk2 = Browser(hall.url).log_in("desk2", "pw-desk2")
            took, sent, answers = [], [], []
            for k in range(1, args.confirmations + 1):
                before = link.sent_up
                answers.append(confirm(desk1, desk2, k, k))
                wanted = standings(hall.url, SLUG)
                took.append(
                    wait_for(lambda w=wanted: all(standings(m, ADDRESS) == w for m in mirrors), 60)
                )
                time.sleep(0.3)  # the upload's last bytes counted before the next one
                sent.append(link.sent_up - before)
            print(
                "1. a confirmation on both mirror processes: "
                f"median {statistics.median(took):.2f} s, "
                f"max {max(took):.2f} s over {len(took)} (link 300 ms RTT, 1 Mbit/s up); "
                f"bytes sent per confirmation: median {statistics.median(sent):,.0f}"
            )

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
                f"(one every {args.outage / max(count, 1):.0f} s): the desk answered each in "
                f"median {statistics.median(answered):.2f} s, max {max(answered):.2f} s "
                f"(before: {statistics.median(answers):.2f} s); caught up {caught:.2f} s after "
                f"the link came back, both processes with the hall's standings "
                f"({len(wanted)} rows equal); {link.sent_up - sent_before:,} bytes sent from the "
                f"return until caught up"
            )

        if args.phones <= 0:
            return
        tags = {}
        for m in mirrors:
            _status, _body, headers = fetch(f"{m}/t/{ADDRESS}/", {"Accept-Encoding": "gzip"})
            tags[f"{m}/t/{ADDRESS}/"] = headers.get("ETag", "")
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
    finally:
        hall.close()
        server.close()


if __name__ == "__main__":
    main()
