"""Issue 38's standby goal at full size on real servers on loopback: kill -9 the main desk while
phones record hands and the desk confirms; take over on the standby; count the acknowledged
changes lost (goal: none older than the stated window, at most 2 s).

Each trial starts two desks (`manage.py serve`, each its own data folder and SQLite, the
publishing threads on as in the hall): the main desk with a 400-player tournament (sessions 1-6
confirmed, benchmarks/fixture.py, imported as a tournament file; session 7 seated), the second
made a standby on its own page and paired on the main desk's (publishing.standby). Then for
`--seconds`:

- phones at `--phones` of session 7's tables each record a hand every `--hand-every` seconds
  (the table page's JSON, tests/e2e/test_hall_hands.py's Phone), and two desk users enter and
  confirm the other tables' results one after another (the desk's pages);
- a watcher reads the standby's file of the tournament (DATA_DIR/standby/<key id>/, what the
  standby fsynced before it answered) every time its revision grows, and notes which hands and
  result versions it holds, and when.

For each acknowledged change (a 2xx answer) the commit-to-standby latency is the time from its
answer until the standby's file on disk holds it (the watcher looks every 20 ms). At a random
moment in the last third the main desk is killed (SIGKILL of its process group); the changes
acknowledged and not in the standby's newest file are the trial's lost ones. Then "Take over"
(timed) and a login there with the main desk's account.

Printed: the window (median, p95, max of the latency), lost per trial with the oldest one's
age, the take-over time, the full file's size (JSON, gzip, sealed) and the CPU one build costs
(export, JSON, gzip, seal: measured here on the same tournament), and with --profile the
build's profile.

Run: .venv/bin/python benchmarks/standby.py [--players 400] [--trials 3] [--seconds 30]
     [--phones 50] [--hand-every 5] [--profile]
"""

import argparse
import cProfile
import gzip
import itertools
import json
import pstats
import random
import re
import secrets
import statistics
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(ROOT))

import fixture  # noqa: E402  (sets Django up on a scratch database)

from archive.tournament_file import dumps, export_tournament  # noqa: E402
from core import signed  # noqa: E402
from publishing import spool  # noqa: E402
from tests.e2e.test_hall_hands import Phone, hand_for  # noqa: E402
from tests.support.federation_server import wait_for  # noqa: E402
from tests.support.live_desk import Browser, LiveDesk  # noqa: E402
from tournament.models import Tournament  # noqa: E402

SLUG, SESSION = "bench", 7

SEED = fixture.hall_seed(SESSION, "{tb.number: table_path(tb) for tb in session.tables.all()}")

STANDBY_SEED = """
import json
from django.contrib.auth.models import User
from seating.codes import secret_mark
from seating.models import TableCodes
User.objects.create_superuser("second", password="pw-second")
TableCodes.objects.update_or_create(pk=1, defaults={"secret_mark": secret_mark()})
print(json.dumps(True))
"""


def held_in(text: bytes) -> tuple[dict, set]:
    """What a tournament file holds of session 7: hands per table, and (table, version,
    confirmed?) of each result version."""
    data = json.loads(gzip.decompress(text))
    hands, versions = {}, set()
    for session in data["sessions"]:
        if session["number"] != SESSION:
            continue
        for table in session["tables"]:
            hands[table["number"]] = len(table.get("hands", []))
            for row in table.get("history", []):
                versions.add((table["number"], row["version"], row["status"] != "draft"))
    return hands, versions


def holds(seen, change) -> bool:
    hands, versions = seen
    if change[0] == "hand":
        _kind, table, number = change
        return hands.get(table, 0) >= number
    _kind, table, version, confirmed = change
    return (table, version, True) in versions or (
        not confirmed and (table, version, False) in versions
    )


class Trial:
    def __init__(self, folder: Path, bench_file: Path, args):
        self.folder, self.args = folder, args
        (folder / "main").mkdir(parents=True)
        (folder / "standby").mkdir()
        self.main = LiveDesk(folder / "main")
        self.second = LiveDesk(folder / "standby")
        self.second.env.pop("DESK_SECRET_KEY")  # it takes the main desk's when it takes over
        self.bench_file = bench_file
        self.lock = threading.Lock()
        self.acks = []  # (acknowledged at, change)
        self.seen = []  # (seen at, (hands, versions)) of each revision the standby held
        self.errors = []
        self.stop = threading.Event()
        self.watched = threading.Event()

    def set_up(self):
        main, second = self.main, self.second
        main.migrate()
        main.manage("import_tournament", str(self.bench_file))
        self.paths = main.python(SEED)
        second.migrate()
        second.python(STANDBY_SEED)
        main.start()
        second.start()
        self.director = Browser(second.url).log_in("second", "pw-second")
        status, _url, text = self.director.request("/desk/standby/", {"action": "make"})
        assert status == 200, text[-600:]
        key = re.search(r'id="standby-key">([^<]+)<', text)[1]
        boss = Browser(main.url).log_in("boss", "pw-boss")
        status, _url, text = boss.request(
            "/desk/standby/", {"action": "pair", "url": second.url, "key": key, "enabled": "on"}
        )
        assert status == 200 and "Every change now goes to the standby." in text, text[-600:]
        self.held = second.folder / "data" / "standby" / key.split(".")[0]
        meta = self.held / f"tournament-{SLUG}.meta.json"
        first = wait_for(meta.exists, 300)
        print(f"  paired; the first full file on the standby {first:.2f} s after the pairing")

    # --- the load

    def ack(self, change):
        with self.lock:
            self.acks.append((time.monotonic(), change))

    def phone(self, table: int, offset: float):
        time.sleep(offset)
        try:
            device = Phone(self.main.url, self.paths[str(table)])
            number = 1
            while not self.stop.is_set():
                began = time.monotonic()
                body = {"action": "record", "number": number, "client_id": str(uuid.uuid4())}
                body["data"] = hand_for(number)
                status, answer = device.act(body)
                if status == 200:
                    self.ack(("hand", table, number))
                    number += 1
                elif status >= 500:
                    self.errors.append((table, number, status, answer))
                    return
                self.stop.wait(max(0.0, self.args.hand_every - (time.monotonic() - began)))
        except OSError:
            return  # the desk is gone

    def desk(self, tables: list[int]):
        try:
            enterer = Browser(self.main.url).log_in("desk1", "pw-desk1")
            confirmer = Browser(self.main.url).log_in("desk2", "pw-desk2")
            for k, table in enumerate(itertools.cycle(tables), start=1):
                if self.stop.is_set():
                    return
                version = 1 + (k - 1) // len(tables)
                scores = {"E": 30000 + 100 * k, "S": 30000 - 100 * k, "W": 30000, "N": 30000}
                body = {"base_version": version - 1, "note": ""}
                body.update({f"score_{w}": v for w, v in scores.items()})
                body.update({f"chombo_{w}": 0 for w in "ESWN"})
                path = f"/desk/{SLUG}/s/{SESSION}/t/{table}/"
                status, _url, text = enterer.request(path, body)
                if status != 200 or "saved as a draft" not in text:
                    self.errors.append((table, "enter", status, text[-200:]))
                    return
                self.ack(("result", table, version, False))
                status, _url, text = confirmer.request(path + "confirm/", {"version": version})
                if status != 200 or f"Table {table} confirmed." not in text:
                    self.errors.append((table, "confirm", status, text[-200:]))
                    return
                self.ack(("result", table, version, True))
                self.stop.wait(self.args.confirm_every)
        except OSError:
            return

    def watch(self):
        meta = self.held / f"tournament-{SLUG}.meta.json"
        body = self.held / f"tournament-{SLUG}.json.gz"
        last = None
        while not self.watched.is_set():
            try:
                revision = json.loads(meta.read_text())["revision"]
                if revision != last:
                    at = time.monotonic()
                    self.seen.append((at, held_in(body.read_bytes())))
                    last = revision
            except (OSError, ValueError):
                pass
            time.sleep(0.02)

    # --- the trial

    def run(self, rng) -> dict:
        args = self.args
        tables = len(self.paths)
        phones = list(range(1, min(args.phones, tables - 2) + 1))
        desk_tables = [n for n in range(1, tables + 1) if n not in phones]
        threads = [
            threading.Thread(target=self.phone, args=(n, rng.uniform(0, args.hand_every)))
            for n in phones
        ]
        threads.append(threading.Thread(target=self.desk, args=(desk_tables,)))
        watcher = threading.Thread(target=self.watch)
        watcher.start()
        for thread in threads:
            thread.start()
        time.sleep(rng.uniform(args.seconds * 2 / 3, args.seconds))
        killed_at = time.monotonic()
        self.main.kill()
        self.stop.set()
        for thread in threads:
            thread.join(timeout=60)
        time.sleep(0.3)  # what the standby was answering as the main desk died, on disk
        self.watched.set()
        watcher.join(timeout=60)
        assert not self.errors, self.errors[:5]

        latencies, lost = [], []
        final = self.seen[-1][1] if self.seen else ({}, set())
        for at, change in self.acks:
            found = next((when for when, s in self.seen if holds(s, change)), None)
            if found is not None:
                latencies.append(max(0.0, found - at))
            if not holds(final, change):
                lost.append(killed_at - at)

        started = time.monotonic()
        status, _url, text = self.director.request(
            "/desk/standby/", {"action": "take", "sure": "on"}, timeout=600
        )
        took = time.monotonic() - started
        assert status == 200, text[-800:]
        Browser(self.second.url).log_in("boss", "pw-boss")
        status, _url, _text = Browser(self.second.url).request(self.paths["1"])
        assert status == 200, "the printed link does not open the table on the standby"
        return {
            "acks": len(self.acks),
            "rate": len(self.acks) / (killed_at - min(at for at, _c in self.acks)),
            "latencies": latencies,
            "lost": lost,
            "take_over": took,
            "revisions": len(self.seen),
        }

    def close(self):
        self.stop.set()
        self.watched.set()
        self.main.close()
        self.second.close()


def build_cost(secret: str, profile: bool) -> None:
    """The full file of the 400-player tournament as the main desk's sender makes it: export,
    JSON, gzip, seal; CPU seconds of each turn and the sizes."""
    tournament = Tournament.objects.get(slug=SLUG)
    cpu = []
    for _ in range(5):
        began = time.process_time()
        text = dumps(export_tournament(tournament))
        packed = spool.pack(text)
        sealed = signed.seal(secret, packed)
        cpu.append(time.process_time() - began)
    began = time.process_time()
    dumps(export_tournament(tournament))
    export = time.process_time() - began
    print(
        f"the full file: {len(text.encode()):,} bytes JSON, {len(packed):,} gzip, "
        f"{len(sealed):,} sealed; one build (export, JSON, gzip, seal): "
        f"{statistics.median(cpu) * 1000:.0f} ms CPU median (export and JSON alone "
        f"{export * 1000:.0f} ms), on an idle process"
    )
    if profile:
        profiler = cProfile.Profile()
        profiler.enable()
        export_tournament(tournament)
        profiler.disable()
        pstats.Stats(profiler).sort_stats("cumulative").print_stats(15)


def percentile(values, share):
    values = sorted(values)
    return values[min(len(values) - 1, int(share * len(values)))]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--players", type=int, default=400)
    parser.add_argument("--trials", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--phones", type=int, default=50, help="tables recording on a phone")
    parser.add_argument("--hand-every", type=float, default=5.0, help="seconds, per phone")
    parser.add_argument("--confirm-every", type=float, default=1.0, help="seconds, the desk")
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    folder = Path(tempfile.mkdtemp(prefix="standby-bench-"))
    fixture.migrate()
    fixture.build(players=args.players, sessions=6)
    bench_file = folder / "bench.json"
    bench_file.write_text(dumps(export_tournament(Tournament.objects.get(slug=SLUG))))
    print(
        f"{args.players} players, sessions 1-6 confirmed, session 7 seated; phones at "
        f"{args.phones} tables, a hand each every {args.hand_every:g} s, the desk entering and "
        f"confirming the others; kill -9 after {args.seconds * 2 / 3:.0f}-{args.seconds:.0f} s"
    )
    build_cost(secrets.token_urlsafe(32), args.profile)
    every, results = [], []
    for number in range(1, args.trials + 1):
        print(f"trial {number}:")
        trial = Trial(folder / f"trial-{number}", bench_file, args)
        try:
            trial.set_up()
            result = trial.run(rng)
        finally:
            trial.close()
        results.append(result)
        every += result["latencies"]
        lat = result["latencies"]
        print(
            f"  {result['acks']} changes acknowledged ({result['rate']:.1f}/s), "
            f"{result['revisions']} revisions on the standby; latency median "
            f"{statistics.median(lat):.2f} s, p95 {percentile(lat, 0.95):.2f} s, "
            f"max {max(lat):.2f} s; lost {len(result['lost'])}"
            + (
                f", the oldest {max(result['lost']):.2f} s before the kill"
                if result["lost"]
                else ""
            )
            + f"; take-over {result['take_over']:.1f} s"
        )
    print(
        f"the window over {len(every)} acknowledged changes in {args.trials} trials: "
        f"median {statistics.median(every):.2f} s, p95 {percentile(every, 0.95):.2f} s, "
        f"max {max(every):.2f} s; lost per trial "
        f"{[len(r['lost']) for r in results]}, the oldest lost "
        f"{max((max(r['lost']) for r in results if r['lost']), default=0):.2f} s before the kill; "
        "take-over " + ", ".join(f"{r['take_over']:.1f}" for r in results) + " s"
    )


if __name__ == "__main__":
    main()
