"""The federation server as a host runs it (issue 38), for tests over real HTTP on loopback: ONE
PostgreSQL and ONE redis-server (`scripts/federation --temporary --servers-only`, the command
the docs give, which also stops and removes them) and TWO separate gunicorn instances
(config/gunicorn.py, one worker each, each on its own port, so a test can ask each app process
by its port) in hosted mode (DESK_HOSTED=1) on that database and that cache.

`manage()` runs a management command against the same database and cache, as a host's own
commands do, so a test can put a tournament in and change it from outside the app processes.
"""

import json
import os
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
import uuid
from pathlib import Path

from tests.support.live_desk import free_port
from tests.support.live_desk import manage as run_manage

ROOT = Path(__file__).resolve().parents[2]
# What the suite's own environment may carry that the server must not take from it.
NOT_OURS = ("DATABASE_URL", "DESK_CACHE_URL", "DESK_HOSTS", "DESK_HTTPS", "DJANGO_SETTINGS_MODULE")


class FederationServer:
    def __init__(self, folder: Path, processes: int = 2):
        self.folder = folder
        self.processes = processes
        self.servers = None  # scripts/federation --servers-only
        self.apps: list[subprocess.Popen] = []
        self.ports: list[int] = []
        self.env = {k: v for k, v in os.environ.items() if k not in NOT_OURS}
        self.env.update(
            DESK_HOSTED="1",
            DESK_DATA_DIR=str(folder / "data"),
            DESK_SECRET_KEY="federation-" + uuid.uuid4().hex * 2,
            DJANGO_SETTINGS_MODULE="config.settings",  # the server's settings, not the tests'
            PYTHONUNBUFFERED="1",
        )

    def urls(self) -> list[str]:
        return [f"http://127.0.0.1:{port}" for port in self.ports]

    def manage(self, *args, stdin: str | None = None) -> str:
        return run_manage(self.env, *args, stdin=stdin)

    def start(self, timeout: float = 180):
        """PostgreSQL and Redis, the migrations, then the app processes, each answering."""
        log = self.folder / "servers.log"
        self.servers = subprocess.Popen(
            ["bash", "scripts/federation", "--temporary", "--servers-only"],
            cwd=ROOT,
            env=self.env,
            stdout=open(log, "w"),
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        deadline = time.monotonic() + timeout
        found: dict[str, str] = {}
        while len(found) < 2:
            assert self.servers.poll() is None, log.read_text()
            assert time.monotonic() < deadline, "no database and cache within the time: " + (
                log.read_text()
            )
            for line in log.read_text().splitlines():
                name, _, value = line.partition("=")
                if name in ("DATABASE_URL", "DESK_CACHE_URL"):
                    found[name] = value
            time.sleep(0.1)
        self.env.update(found)
        self.manage("migrate", "-v0")
        return self.start_apps(deadline - time.monotonic())

    def start_apps(self, timeout: float = 120):
        """The app processes, each answering (again after stop_apps, on the same ports)."""
        deadline = time.monotonic() + timeout
        self.ports = self.ports or [free_port() for _ in range(self.processes)]
        self.apps = []
        for number, port in enumerate(self.ports):
            self.apps.append(
                subprocess.Popen(
                    [sys.executable, "-m", "gunicorn", "-c", "config/gunicorn.py"],
                    cwd=ROOT,
                    env={**self.env, "DESK_PORT": str(port), "DESK_WORKERS": "1"},
                    stdout=open(self.folder / f"app-{number + 1}.log", "a"),
                    stderr=subprocess.STDOUT,
                    start_new_session=True,
                )
            )
        for number, url in enumerate(self.urls()):
            while True:
                assert self.apps[number].poll() is None, self.log(number)
                assert time.monotonic() < deadline, f"{url} did not answer: " + self.log(number)
                try:
                    with urllib.request.urlopen(url + "/login/", timeout=2) as answer:
                        if answer.status == 200:
                            break
                except OSError:
                    time.sleep(0.2)
        return self

    def stop_apps(self):
        """Every app process, the database and the cache left running: the server is away."""
        for process in self.apps:
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGTERM)
        for process in self.apps:
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()

    def log(self, number: int) -> str:
        return (self.folder / f"app-{number + 1}.log").read_text()

    def close(self):
        """Every app process, then the database and the cache (the script stops and removes
        them on SIGTERM)."""
        for process in self.apps:
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGTERM)
        if self.servers is not None and self.servers.poll() is None:
            self.servers.terminate()  # the script alone: its trap stops its servers in order
        for process in [*self.apps, self.servers]:
            if process is None:
                continue
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()


# --- what the real-server tests and benchmarks/federation.py ask of a hall and its mirror ------


def fetch(url: str, headers: dict | None = None):
    """(status, body, headers) of a GET; an error answer's status, or 0 for no answer."""
    request = urllib.request.Request(url, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return answer.status, answer.read(), answer.headers
    except urllib.error.HTTPError as e:
        return e.code, e.read(), e.headers
    except OSError:
        return 0, b"", {}


def standings(base: str, slug: str) -> list:
    """(player key, total) of each row of the server's standings feed, or [] for no feed."""
    status, body, _headers = fetch(f"{base}/t/{slug}/standings.json")
    if status != 200:
        return []
    return [(row["player"]["key"], row["total"]) for row in json.loads(body)["standings"]]


def wait_for(what, seconds: float) -> float:
    """How long until what() is true (asked every 50 ms); fails after `seconds`."""
    started = time.monotonic()
    while not what():
        assert time.monotonic() - started < seconds, f"not within {seconds} s"
        time.sleep(0.05)
    return time.monotonic() - started


def confirm_table(enterer, confirmer, slug: str, session: int, table: int, k: int, step=1000):
    """A table's first result entered by one desk user and confirmed by another, through the
    desk's pages (tests.support.live_desk.Browser); the seconds both answers took."""
    scores = {"E": 30000 + step * k, "S": 30000 - step * k, "W": 30000, "N": 30000}
    body = {"base_version": 0, "note": ""}
    body.update({f"score_{w}": v for w, v in scores.items()})
    body.update({f"chombo_{w}": 0 for w in "ESWN"})
    started = time.monotonic()
    status, _url, text = enterer.request(f"/desk/{slug}/s/{session}/t/{table}/", body)
    assert status == 200 and "saved as a draft" in text, (status, text[-300:])
    status, _url, text = confirmer.request(
        f"/desk/{slug}/s/{session}/t/{table}/confirm/", {"version": 1}
    )
    assert status == 200 and f"Table {table} confirmed." in text, (status, text[-300:])
    return time.monotonic() - started
