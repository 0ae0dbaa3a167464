"""The federation server as a host runs it (issue 38), over real HTTP on loopback: two separate
app processes (gunicorn) on one PostgreSQL and one Redis (tests/support/federation_server.py)
give the same answers, forget a changed page together (the new standings from both before
either serves the old ones again), and answer a burst of phones refreshing with If-None-Match
without an error. And `scripts/federation`, the documented command, starts it all and stops it
all again."""

import hashlib
import http.client
import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections import Counter
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from tests.support.federation_server import ROOT, FederationServer
from tests.support.live_desk import free_port

# Its own servers, no test database: once (not again in the PostgreSQL run of scripts/test).
pytestmark = pytest.mark.once

SLUG = "fed-open"
PAGE = f"/t/{SLUG}/"

# The tournament as the hall had it (table 1 confirmed) and after a change (table 2 too): both
# files written, the first one put in; the change is the second one restored over it, which
# replaces the tournament's row as the mirror's store does (delete and create, a new pk).
SEED = """
import json
from archive.tournament_file import dumps, export_tournament, import_tournament
from tests.support import factories as f
from tournament.models import Tournament
staff = f.staff()
t = f.tournament(slug="{slug}")
tables = list(f.seat_session(t).tables.order_by("number"))
f.play(tables[0], [40000, 35000, 25000, 20000], staff["desk1"], staff["desk2"])
before = dumps(export_tournament(Tournament.objects.get(pk=t.pk)))
f.play(tables[1], [45000, 30000, 25000, 20000], staff["desk1"], staff["desk2"])
after = dumps(export_tournament(Tournament.objects.get(pk=t.pk)))
open("{before}", "w").write(before)
open("{after}", "w").write(after)
Tournament.objects.filter(pk=t.pk).delete()
print(json.dumps(import_tournament(before, user=staff["director"]).slug))
"""


class Asker:
    """One visitor's keep-alive connection to one app process."""

    def __init__(self, url: str):
        parts = urlsplit(url)
        self.port = parts.port
        self.connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=30)

    def get(self, path: str, etag: str | None = None) -> tuple[int, str, bytes]:
        """(status, ETag, body); a connection the server closed is opened again, once."""
        headers = {"If-None-Match": etag} if etag else {}
        for attempt in (1, 2):
            try:
                self.connection.request("GET", path, headers=headers)
                answer = self.connection.getresponse()
                return answer.status, answer.getheader("ETag", ""), answer.read()
            except (ConnectionError, http.client.HTTPException):
                self.connection.close()
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")


def digest(body: bytes) -> str:
    return hashlib.sha256(body).hexdigest()[:16]


@pytest.mark.long(65)
def test_two_app_processes_answer_alike_forget_a_change_together_and_take_a_burst(tmp_path):
    server = FederationServer(tmp_path)
    try:
        server.start()
        before, after = tmp_path / "before.json", tmp_path / "after.json"
        seeded = server.manage("shell", "-c", SEED.format(slug=SLUG, before=before, after=after))
        assert json.loads(seeded.strip().splitlines()[-1]) == SLUG
        one, two = (Asker(url) for url in server.urls())

        # --- the same answers from both processes
        answers = [asker.get(PAGE) for asker in (one, two, one, two)]
        assert [status for status, _tag, _body in answers] == [200] * 4
        assert len({tag for _status, tag, _body in answers}) == 1  # one ETag: one page
        old = digest(answers[0][2])
        assert {digest(body) for _status, _tag, body in answers} == {old}
        feeds = [asker.get(PAGE + "standings.json")[2] for asker in (one, two)]
        assert feeds[0] == feeds[1]
        assert "p05" not in [
            line["player"]["key"]
            for line in json.loads(feeds[0])["standings"]
            if any(s["score"] is not None for s in line["sessions"])
        ]

        # --- a change, while visitors ask both processes as fast as they answer
        seen: list[tuple[float, float, int, int, str]] = []  # start, end, port, status, digest
        stop = threading.Event()
        failures: list[str] = []

        def visitor(url):
            asker = Asker(url)
            while not stop.is_set():
                start = time.monotonic()
                try:
                    status, _tag, body = asker.get(PAGE)
                except OSError as e:
                    failures.append(f"{url}: {e!r}")
                    continue
                seen.append((start, time.monotonic(), asker.port, status, digest(body)))

        visitors = [threading.Thread(target=visitor, args=(url,)) for url in server.urls() * 2]
        for thread in visitors:
            thread.start()
        try:
            time.sleep(0.5)
            server.manage("restore", str(after), "--yes")
            changed = time.monotonic()
            time.sleep(1.5)  # past the second a revision is kept
        finally:
            stop.set()
            for thread in visitors:
                thread.join(timeout=30)
        assert failures == []
        new = digest(one.get(PAGE)[2])
        assert new != old and digest(two.get(PAGE)[2]) == new
        assert Counter(status for _s, _e, _p, status, _d in seen) == {200: len(seen)}
        assert {d for _s, _e, _p, _st, d in seen} <= {old, new}
        first_new = min(end for _s, end, _p, _st, d in seen if d == new)
        old_again = [(start, port) for start, _e, port, _st, d in seen if d == old]
        assert [(s, p) for s, p in old_again if s > first_new] == []
        # both processes served the new page, and soon after the change
        for port in server.ports:
            served = [end for _s, end, p, _st, d in seen if p == port and d == new]
            assert served and min(served) - changed < 1.0, port

        # --- a burst of phones refreshing with If-None-Match on both: no error
        _status, tag, _body = one.get(PAGE)
        statuses: Counter = Counter()
        lock = threading.Lock()

        def phone(n):
            asker = Asker(server.urls()[n % 2])
            for _ in range(25):
                try:
                    status = asker.get(PAGE, etag=tag)[0]
                except OSError as e:
                    status = repr(e)
                with lock:
                    statuses[status] += 1

        phones = [threading.Thread(target=phone, args=(n,)) for n in range(20)]
        for thread in phones:
            thread.start()
        for thread in phones:
            thread.join(timeout=120)
        assert statuses == {304: 500}
    finally:
        server.close()


def background(command: list[str], env: dict, log: Path) -> subprocess.Popen:
    return subprocess.Popen(
        command,
        cwd=ROOT,
        env=env,
        stdout=open(log, "w"),
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )


@pytest.mark.long(45)
def test_scripts_federation_starts_the_server_prints_its_address_and_stops_it_all(tmp_path):
    """The documented command, throwaway data, this test's environment as it is (installing
    nothing): it prints the address once the server answers; the public pages are there and
    the desk is not; SIGTERM (as Ctrl+C) stops gunicorn, Redis and PostgreSQL and removes the
    throwaway folder."""
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "DESK_CACHE_URL")}
    env.update(DESK_PORT=str(port), DJANGO_SETTINGS_MODULE="config.settings")
    log = tmp_path / "federation.log"
    venv = Path(sys.prefix)
    command = ["bash", "scripts/federation", "--temporary", "--venv", str(venv)]
    script = background(command, env, log)
    try:
        deadline = time.monotonic() + 180
        while "The federation server is at" not in log.read_text():
            assert script.poll() is None, log.read_text()
            assert time.monotonic() < deadline, log.read_text()
            time.sleep(0.2)
        text = log.read_text()
        assert f"The federation server is at http://127.0.0.1:{port}/" in text
        folder = text.split("data in ", 1)[1].split(")", 1)[0]
        assert Path(folder).is_dir()
        asker = Asker(f"http://127.0.0.1:{port}")
        assert asker.get("/")[0] == 200
        assert asker.get("/desk/")[0] == 404
        assert asker.get("/static/desk/desk.js")[0] == 200
    finally:
        if script.poll() is None:
            script.send_signal(signal.SIGTERM)
        try:
            script.wait(timeout=60)
        except subprocess.TimeoutExpired:
            os.killpg(script.pid, signal.SIGKILL)
            raise
    assert not Path(folder).exists()
    with pytest.raises(OSError):
        Asker(f"http://127.0.0.1:{port}").get("/")
