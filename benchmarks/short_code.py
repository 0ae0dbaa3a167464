"""The table's short code (issue 34, finding 10): a guess's cost as the hall fills, and a phone's
hand save while four clients guess.

Seeds the tournament `live` (256 players, session 1 seated: 64 tables, nothing played), starts
the desk the way the README does (`manage.py serve`, waitress) on loopback with a scratch data
folder, and measures:

1. a guess (a wrong code posted to `/h/`, one after another on a keep-alive connection) with 64
   live tables, then again after the tournament `more` (400 players, 12 sessions seated: 1,200
   tables) is added — 1,264 live tables. Each guess comes from its own loopback address
   (127.0.0.x, a new one every 5 guesses) so that the throttle (10 wrong codes a minute per
   address) never answers for the lookup: this is what a guess costs the server. Beside it, in
   this process and on the same database, the lookup itself and the old way (a keyed hash of
   every live table, as `seating.keys.table_for_code` did before issue 34), at both sizes;
2. a phone recording a game at one of `live`'s tables (8 hands, each confirmed by the four
   players, every request timed), in rounds: alone; while 4 clients ask for the code's form
   (`GET /h/`, no guess) flat out, as fast as the server answers — what any 4 busy clients cost
   a phone; while 4 guessers post wrong codes flat out, each from its own address (throttled
   after 10, as phones in the hall are); flat out, each changing its address every 5 guesses
   (never throttled: every guess is looked up); and 5 guesses a second each, changing address
   (a guessing script on the hall's Wi-Fi). The rounds alternate, so that all see the same
   machine.

Goals (issue 34): the guess at 1,264 tables <= 1.5 × the guess at 64; the hand save with 4
guessers about as fast as alone (the ratio is printed; before, it was 6.8×), and no slower than
with 4 clients that only open the form.
Run: .venv/bin/python benchmarks/short_code.py [--guesses 300] [--rounds 4] [--threads N]
"""

import argparse
import hmac
import http.client
import json
import os
import re
import secrets
import statistics
import sys
import threading
import time
import uuid
from pathlib import Path
from urllib.parse import urlencode

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
GOAL_RATIO = 1.5
KINDS = (
    "alone",
    "4 clients opening /h/ flat out, no guess",
    "4 guessers flat out, one address each",
    "4 guessers flat out, new addresses",
    "4 guessers at 5 a second, new addresses",
)
PER_ADDRESS = 5  # guesses from one address before the next (the throttle allows 10 a minute)


# --- seeding (in this process; the server reads the same SQLite file) -----------------------


def seed(slug: str, players: int, sessions: int, seats: bool) -> None:
    from django.db import transaction

    from seating.models import Seat, Table
    from tournament.models import Player, Session, Tournament

    with transaction.atomic():
        t = Tournament.objects.create(
            name=slug.title(), slug=slug, ruleset="ema-2012", planned_sessions=sessions
        )
        people = Player.objects.bulk_create(
            Player(tournament=t, key=f"p{i:03d}", name=f"Player {i:03d}", country="PL")
            for i in range(players)
        )
        for number in range(1, sessions + 1):
            session = Session.objects.create(tournament=t, number=number)
            tables = Table.objects.bulk_create(  # stores each table's code, as save() does
                Table(session=session, number=n + 1) for n in range(players // 4)
            )
            if seats:
                Seat.objects.bulk_create(
                    Seat(table=table, session=session, wind=w, player=p)
                    for n, table in enumerate(tables)
                    for w, p in zip(WINDS, people[4 * n : 4 * n + 4], strict=True)
                )


def live_tables() -> int:
    from seating.models import Table

    return Table.objects.filter(session__tournament__finished_at__isnull=True).count()


def paths(slug: str) -> list[str]:
    from seating.keys import table_path
    from seating.models import Table

    tables = Table.objects.filter(session__tournament__slug=slug).select_related(
        "session__tournament"
    )
    return [table_path(t) for t in tables.order_by("session__number", "number")]


def old_scan(code: str):
    """What a guess did before issue 34: a keyed hash of every live table."""
    from seating.keys import normal_code, table_code
    from seating.models import Table

    code = normal_code(code)
    tables = Table.objects.select_related("session__tournament").filter(
        session__tournament__finished_at__isnull=True
    )
    for table in tables:
        if hmac.compare_digest(table_code(table), code):
            return table
    return None


def in_process(guesses: int) -> dict:
    """ms per wrong guess in this process: the stored code's lookup, and the old scan."""
    from seating.keys import table_for_code

    out = {}
    for name, look in (("lookup", table_for_code), ("old scan", old_scan)):
        look("AAAA-AAAA")  # warm
        t0 = time.perf_counter()
        for _n in range(guesses):
            look(wrong_code())
        out[name] = (time.perf_counter() - t0) * 1000 / guesses
    return out


def wrong_code() -> str:
    """A code as printed, at random: one of 31**8, a live table's once in 670 million."""
    return "".join(secrets.choice("23456789ABCDEFGHJKMNPQRSTUVWXYZ") for _ in range(8))


# --- the clients --------------------------------------------------------------------------


def address(n: int) -> str:
    """The n-th loopback address after 127.0.0.1 (every 127.x.y.z reaches the server)."""
    n += 2
    return f"127.0.{n // 250 % 250}.{n % 250 + 1}"


class Guesser:
    """Wrong codes posted to /h/ over keep-alive connections, from one address or from a new
    one every PER_ADDRESS guesses."""

    def __init__(self, port, first_address: int, rotate: bool, only_open: bool = False):
        self.port, self.next, self.rotate = port, first_address, rotate
        self.only_open = only_open  # no guess: the form's page asked for again and again
        self.ms, self.statuses, self.errors = [], {}, []
        self.conn, self.sent = None, 0

    def _connect(self):
        if self.conn is not None:
            self.conn.close()
        self.conn = http.client.HTTPConnection(
            HOST, self.port, timeout=30, source_address=(address(self.next), 0)
        )
        self.next += 1
        self.conn.request("GET", "/h/")
        response = self.conn.getresponse()
        response.read()
        cookies = ";".join(response.headers.get_all("Set-Cookie") or [])
        self.token = re.search(r"csrftoken=([^;]+)", cookies)[1]

    def guess(self):
        if self.conn is None or (self.rotate and self.sent % PER_ADDRESS == 0):
            try:
                self._connect()
            except (OSError, http.client.HTTPException) as e:
                self.errors.append(f"connect: {type(e).__name__}: {e}")
                self.conn = None
                return
        self.sent += 1
        body = urlencode({"code": wrong_code(), "csrfmiddlewaretoken": self.token})
        headers = {
            "Content-Type": "application/x-www-form-urlencoded",
            "Cookie": f"csrftoken={self.token}",
        }
        t0 = time.perf_counter()
        try:
            if self.only_open:
                self.conn.request("GET", "/h/")
            else:
                self.conn.request("POST", "/h/", body, headers)
            response = self.conn.getresponse()
            content = response.read()
        except (OSError, http.client.HTTPException) as e:
            self.errors.append(f"{type(e).__name__}: {e}")
            self.conn = None
            return
        self.ms.append((time.perf_counter() - t0) * 1000)
        self.statuses[response.status] = self.statuses.get(response.status, 0) + 1
        if self.only_open and response.status != 200:
            self.errors.append(f"{response.status}: {content[:200]!r}")
        elif self.only_open:
            pass
        elif response.status == 200 and b"No table has the code" not in content:
            self.errors.append(f"200 without the message: {content[:200]!r}")
        elif response.status not in (200, 429):
            self.errors.append(f"{response.status}: {content[:200]!r}")

    def run_until(self, stop: threading.Event, pause: float):
        while not stop.is_set():
            self.guess()
            if pause:
                stop.wait(pause)


def guess_cost(port, guesses: int, first_address: int) -> Guesser:
    g = Guesser(port, first_address, rotate=True)
    for _n in range(guesses):
        g.guess()
    return g


def game() -> list[dict]:
    """Eight hands, East 1 to South 4 (as benchmarks/hands.py plays them)."""
    hands = []
    for n in range(8):
        dealer = n % 4
        winner, discarder = WINDS[(dealer + 1) % 4], WINDS[(dealer + 2) % 4]
        win = {"seat": winner, "han": 1 + n % 3, "fu": 30}
        riichi = [winner] if n % 2 else []
        hands.append({"result": "ron", "from": discarder, "wins": [win], "riichi": riichi})
    return hands


def phone_game(port, path) -> tuple[list[float], list[float], list[str]]:
    """One table's game through its page: ms of each hand save and each confirmation."""
    conn = http.client.HTTPConnection(HOST, port, timeout=30)
    conn.request("GET", path)
    response = conn.getresponse()
    response.read()
    cookies = ";".join(response.headers.get_all("Set-Cookie") or [])
    token = re.search(r"csrftoken=([^;]+)", cookies)[1]
    headers = {
        "Content-Type": "application/json",
        "X-CSRFToken": token,
        "Cookie": f"csrftoken={token}",
    }
    saves, confirms, errors = [], [], []

    def post(kind, body, into):
        t0 = time.perf_counter()
        conn.request("POST", path + "act/", json.dumps(body), headers)
        response = conn.getresponse()
        content = response.read()
        into.append((time.perf_counter() - t0) * 1000)
        if response.status != 200:
            errors.append(f"{kind}: {response.status} {content[:200]!r}")

    for n, hand in enumerate(game(), start=1):
        body = {"action": "record", "data": hand, "number": n, "client_id": str(uuid.uuid4())}
        post("record", body, saves)
        for wind in WINDS:
            post(
                "confirm", {"action": "confirm", "number": n, "version": 1, "wind": wind}, confirms
            )
    conn.close()
    return saves, confirms, errors


def with_guessers(port, path, kind: str, first_address: int):
    stop = threading.Event()
    rotate, only_open = "new addresses" in kind, "opening" in kind
    pause = 0.2 if "5 a second" in kind else 0
    guessers = [Guesser(port, first_address + 1000 * i, rotate, only_open) for i in range(4)]
    threads = [
        threading.Thread(target=g.run_until, args=(stop, pause), daemon=True) for g in guessers
    ]
    for thread in threads:
        thread.start()
    time.sleep(0.5)  # every guesser under way
    try:
        result = phone_game(port, path)
    finally:
        stop.set()
        for thread in threads:
            thread.join()
    return result, guessers


# --- report -----------------------------------------------------------------------------


def line(name, ms):
    return (
        f"  {name:44s} {len(ms):5d}  p50 {percentile(ms, 50):6.1f} ms"
        f"  p95 {percentile(ms, 95):6.1f} ms  mean {statistics.fmean(ms):6.1f} ms"
    )


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--guesses", type=int, default=300, help="guesses timed at each size")
    parser.add_argument("--rounds", type=int, default=4, help="games of each kind, alternating")
    parser.add_argument("--threads", type=int, help="the server's --threads (default: its own)")
    args = parser.parse_args()

    fixture.migrate()
    seed("live", 256, 1, seats=True)
    tables = paths("live")
    sizes = {}
    root = Path(__file__).resolve().parent.parent
    port = free_port()
    log_path = Path(os.environ["DESK_DATA_DIR"]) / "server.log"
    errors = []
    with open(log_path, "w") as log:
        secret = os.environ["DESK_SECRET_KEY"]
        server = start_server(root, port, os.environ["DESK_DATA_DIR"], args.threads, log, secret)
        try:
            wait_until_ready(server, port, "/h/", log_path)
            next_address = 0
            for grow in (None, ("more", 400, 12)):
                if grow:
                    seed(*grow, seats=False)
                n = live_tables()
                local = in_process(min(args.guesses, 100))
                g = guess_cost(port, args.guesses, next_address)
                next_address += args.guesses // PER_ADDRESS + 1
                errors += g.errors
                sizes[n] = (g, local)
            rounds = {kind: [] for kind in KINDS}
            statuses = {}
            table = iter(tables)
            for _round in range(args.rounds):
                for kind in rounds:
                    path = next(table)
                    if kind == "alone":
                        result, guessers = phone_game(port, path), []
                    else:
                        result, guessers = with_guessers(port, path, kind, next_address)
                        next_address += 4000
                    rounds[kind].append(result)
                    errors += result[2] + [e for g in guessers for e in g.errors]
                    counts = statuses.setdefault(kind, {})
                    for g in guessers:
                        for status, count in g.statuses.items():
                            counts[status] = counts.get(status, 0) + count
                    time.sleep(1)
        finally:
            stop_server(server)

    print("A wrong code typed at /h/ (the server, one guess after another; this process):")
    (small, (g_small, l_small)), (big, (g_big, l_big)) = sorted(sizes.items())
    for n, (g, local) in sorted(sizes.items()):
        print(line(f"{n:,} live tables: through the server", g.ms))
        print(
            f"  {'':44s}        lookup {local['lookup']:.2f} ms"
            f" · old scan {local['old scan']:.2f} ms (in this process)"
        )
    ratio = statistics.median(g_big.ms) / statistics.median(g_small.ms)
    old = l_big["old scan"] / l_small["old scan"]
    print(
        f"  guess at {big:,} / at {small:,} tables: {ratio:.2f} (p50; goal <= {GOAL_RATIO});"
        f" the lookup {l_big['lookup'] / l_small['lookup']:.2f}, the old scan {old:.2f}"
    )
    print(
        f"A phone's game at {big:,} live tables (8 hands, each confirmed by 4), {args.rounds}"
        " games of each kind, alternating:"
    )
    saves = {kind: [v for r in results for v in r[0]] for kind, results in rounds.items()}
    confirms = {kind: [v for r in results for v in r[1]] for kind, results in rounds.items()}
    for kind in rounds:
        print(line(f"hand save, {kind}", saves[kind]))
        print(line(f"confirmation, {kind}", confirms[kind]))
        if kind in statuses:
            done = ", ".join(f"{c} × {s}" for s, c in sorted(statuses[kind].items()))
            print(f"  {'':44s}        their answers: {done}")
    alone = statistics.median(saves["alone"])
    for kind in list(rounds)[1:]:
        r50 = statistics.median(saves[kind]) / alone
        r95 = percentile(saves[kind], 95) / percentile(saves["alone"], 95)
        print(f"  hand save with {kind} / alone: {r50:.2f} (p50), {r95:.2f} (p95)")
    busy = statistics.median(saves[KINDS[1]])
    for kind in KINDS[2:]:
        ratio_busy = statistics.median(saves[kind]) / busy
        print(f"  hand save with {kind} / with {KINDS[1]}: {ratio_busy:.2f} (p50)")
    print(f"errors {len(errors)}" + "".join(f"\n  {e}" for e in errors[:5]))
    met = ratio <= GOAL_RATIO and not errors
    print("goal met (guess ratio, no errors)" if met else "goal NOT met")


if __name__ == "__main__":
    main()
