"""The real desk server in a process of its own, for tests that kill it or race it over HTTP.

`LiveDesk` starts `manage.py serve` (the README's server: migrate, waitress) on a fresh data
folder, with a database of its own: a new SQLite file, or, when the suite runs on PostgreSQL
(DATABASE_URL set), a new database on that server, dropped afterwards. `manage()` runs a
management command against the same database, so a test can seed it and check it afterwards
from outside the server.
"""

import fcntl
import hashlib
import http.cookiejar
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SQLITE_FILE = "desk.sqlite3"  # config/settings.py: the database in the data folder


# The hall's staff for a test's seed (`LiveDesk.python`): desk1 and desk2 (password "pw-" and
# the name) in the desk's group, and with `director=True` the superuser boss ("pw-boss"). Made
# before the tournament, whose factory gives them their roles on it.
def staff_seed(director: bool = False) -> str:
    boss = 'User.objects.create_superuser("boss", password="pw-boss")\n' if director else ""
    return (
        "from django.contrib.auth.models import Group, User\n"
        "from core.roles import DESK, ensure_groups\n"
        "ensure_groups()\n"
        'for name in ("desk1", "desk2"):\n'
        '    user = User.objects.create_user(name, password="pw-" + name)\n'
        "    user.groups.add(Group.objects.get(name=DESK))\n" + boss
    )


def manage(env: dict, *args, stdin: str | None = None) -> str:
    """Run `manage.py` with `env` (the hall's settings, its own data folder); its output."""
    done = subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def migrated(env: dict) -> None:
    """Give the database `env` names (its data folder's SQLite file, or its DATABASE_URL, an
    empty database) the schema `manage.py migrate` makes from nothing. The first call of a test
    run runs the migrations from nothing; later calls, in any worker, copy what it made: the
    data folder `migrated/` in the folder the run's workers share (DESK_TEST_SHARED, set by
    tests/conftest.py; pytest removes old runs' folders), or a PostgreSQL database named after
    that folder, made once and copied with CREATE DATABASE … TEMPLATE. A lock file there keeps
    two workers from migrating at once."""
    if not os.environ.get("DESK_TEST_SHARED"):  # outside pytest: a folder of this process
        os.environ["DESK_TEST_SHARED"] = tempfile.mkdtemp(prefix="desk-tests-")
    shared = Path(os.environ["DESK_TEST_SHARED"])
    url = env.get("DATABASE_URL")
    with open(shared / "migrated.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if url is None:
            folder = shared / "migrated"
            if not (folder / SQLITE_FILE).exists():
                building = Path(tempfile.mkdtemp(prefix="migrating-", dir=shared))
                manage({**env, "DESK_DATA_DIR": str(building)}, "migrate", "-v0")
                building.rename(folder)
            target = Path(env["DESK_DATA_DIR"])
            target.mkdir(parents=True, exist_ok=True)
            for path in folder.glob(SQLITE_FILE + "*"):  # with any -wal, -shm
                shutil.copyfile(path, target / path.name)
            return
        template = "desk_migrated_" + hashlib.sha256(str(shared).encode()).hexdigest()[:16]
        if not _postgres(f"SELECT 1 FROM pg_database WHERE datname = '{template}'"):
            _postgres(f'CREATE DATABASE "{template}"')
            migrate_url = urllib.parse.urlsplit(url)._replace(path="/" + template).geturl()
            manage({**env, "DATABASE_URL": migrate_url}, "migrate", "-v0")
        name = urllib.parse.urlsplit(url).path.lstrip("/")
        _postgres(f'DROP DATABASE "{name}"')
        _postgres(f'CREATE DATABASE "{name}" TEMPLATE "{template}"')


def _postgres(sql) -> list:
    """Run one statement on the suite's PostgreSQL server (DATABASE_URL), outside a database;
    the rows it returns."""
    import psycopg

    base = urllib.parse.urlsplit(os.environ["DATABASE_URL"])
    with psycopg.connect(base._replace(path="/postgres").geturl(), autocommit=True) as c:
        cursor = c.execute(sql)
        return cursor.fetchall() if cursor.description else []


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class LiveDesk:
    def __init__(self, folder: Path):
        self.folder = folder
        self.env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
        self.env.update(
            DESK_DATA_DIR=str(folder / "data"),
            DESK_SECRET_KEY="live-desk-" + uuid.uuid4().hex * 2,
            PYTHONUNBUFFERED="1",
            DJANGO_SETTINGS_MODULE="config.settings",  # the hall's server, not the test settings
        )
        self.database = None
        if os.environ.get("DATABASE_URL"):
            self.database = f"desk_live_{uuid.uuid4().hex[:12]}"
            _postgres(f'CREATE DATABASE "{self.database}"')
            base = urllib.parse.urlsplit(os.environ["DATABASE_URL"])
            self.env["DATABASE_URL"] = base._replace(path="/" + self.database).geturl()
        self.process = None
        self.port = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def manage(self, *args, stdin: str | None = None) -> str:
        return manage(self.env, *args, stdin=stdin)

    def migrate(self) -> None:
        """The desk's database, migrated (`migrated`)."""
        migrated(self.env)

    def python(self, code: str):
        """Run code in the desk's Django (manage.py shell); it prints one JSON line: returned."""
        out = self.manage("shell", "-c", code)
        return json.loads(out.strip().splitlines()[-1])

    def start(self):
        self.port = free_port()
        self.log = open(self.folder / f"server-{self.port}.log", "w")
        self.process = subprocess.Popen(
            [
                sys.executable,
                "manage.py",
                "serve",
                "--host",
                "127.0.0.1",
                "--port",
                str(self.port),
            ],
            cwd=ROOT,
            env=self.env,
            stdout=self.log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            assert self.process.poll() is None, (
                self.folder / f"server-{self.port}.log"
            ).read_text()
            try:
                with urllib.request.urlopen(self.url + "/login/", timeout=2) as r:
                    if r.status == 200:
                        return self
            except OSError:
                time.sleep(0.2)
        raise AssertionError("the desk server did not answer within 120 s")

    def kill(self):
        """SIGKILL: no shutdown handler, no flush, as when the laptop's power cable is pulled
        for the process (the operating system itself stays up)."""
        if self.process and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=30)
        self.log.close()

    def close(self):
        if self.process:
            if self.process.poll() is None:
                os.killpg(self.process.pid, signal.SIGTERM)
                try:
                    self.process.wait(timeout=15)
                except subprocess.TimeoutExpired:
                    os.killpg(self.process.pid, signal.SIGKILL)
                    self.process.wait()
            if not self.log.closed:
                self.log.close()
        if self.database:
            _postgres(f'DROP DATABASE IF EXISTS "{self.database}" WITH (FORCE)')


class Browser:
    """One desk user's HTTP client: cookies, the CSRF token, redirects followed."""

    def __init__(self, base: str):
        self.base = base
        self.cookies = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.cookies))

    def _csrf(self) -> str:
        return next(c.value for c in self.cookies if c.name == "csrftoken")

    def request(self, path: str, data: dict | None = None, timeout: float = 30):
        """(status, final URL, body text); 4xx/5xx are returned, not raised."""
        body = None
        headers = {"Referer": self.base + path}
        if data is not None:
            data = {**data, "csrfmiddlewaretoken": self._csrf()}
            body = urllib.parse.urlencode(data).encode()
        request = urllib.request.Request(self.base + path, data=body, headers=headers)
        try:
            with self.opener.open(request, timeout=timeout) as r:
                return r.status, r.geturl(), r.read().decode()
        except urllib.error.HTTPError as e:
            return e.code, e.geturl(), e.read().decode()

    def log_in(self, username: str, password: str):
        self.request("/login/")
        status, url, _body = self.request("/login/", {"username": username, "password": password})
        assert status == 200 and url.endswith("/desk/"), (status, url)
        return self
