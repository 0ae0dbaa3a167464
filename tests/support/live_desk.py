"""The real desk server in a process of its own, for tests that kill it or race it over HTTP.

`LiveDesk` starts `manage.py serve` (the README's server: migrate, waitress) on a fresh data
folder, with a database of its own: a new SQLite file, or, when the suite runs on PostgreSQL
(DATABASE_URL set), a new database on that server, dropped afterwards. `manage()` runs a
management command against the same database, so a test can seed it and check it afterwards
from outside the server.
"""

import http.cookiejar
import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


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
            self._postgres(f'CREATE DATABASE "{self.database}"')
            base = urllib.parse.urlsplit(os.environ["DATABASE_URL"])
            self.env["DATABASE_URL"] = base._replace(path="/" + self.database).geturl()
        self.process = None
        self.port = None

    def _postgres(self, sql):
        import psycopg

        base = urllib.parse.urlsplit(os.environ["DATABASE_URL"])
        with psycopg.connect(base._replace(path="/postgres").geturl(), autocommit=True) as c:
            c.execute(sql)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def manage(self, *args, stdin: str | None = None) -> str:
        done = subprocess.run(
            [sys.executable, "manage.py", *args],
            cwd=ROOT,
            env=self.env,
            input=stdin,
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert done.returncode == 0, done.stdout + done.stderr
        return done.stdout

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
            self._postgres(f'DROP DATABASE IF EXISTS "{self.database}" WITH (FORCE)')


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
