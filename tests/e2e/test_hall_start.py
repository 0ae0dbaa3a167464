"""The start on any laptop (issue 37 point 9), run on Linux exactly as docs/running/start.md
documents it: `python3 start.py` in a copy of the repository, then `./scripts/serve`, which
calls it. Each must migrate a new database, collect the static files, compile the catalogues,
make the first director and answer on its port; then it is stopped.

The one shortening is the documented `--venv PATH`: the test's own virtual environment is used
as it is, so no .venv is made and nothing is downloaded. `--host 127.0.0.1 --port N` are
`manage.py serve`'s own options, passed through, so the test's desk is not on the LAN and does
not take port 8000.
"""

import os
import re
import shutil
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from tests.support.live_desk import ROOT, Browser, free_port

pytestmark = [pytest.mark.once, pytest.mark.long(60)]


def copy_of_the_repository(target: Path) -> Path:
    """The repository's files as a fresh clone has them (tracked, and new ones not ignored):
    no .venv, data, static files or compiled catalogues."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        capture_output=True,
        check=True,
    ).stdout.decode()
    for name in filter(None, listed.split("\0")):
        source = ROOT / name
        if source.is_file():  # a file deleted and not yet committed is listed too
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target / name)
    return target


def python3() -> str:
    """The laptop's Python as the documentation names it (scripts/serve's choice)."""
    return shutil.which("python3.11") or shutil.which("python3") or sys.executable


def hall_env() -> dict:
    """The laptop's environment: none of the test run's settings, database or data folder."""
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("DESK_", "DJANGO_", "PYTEST_")) and k != "DATABASE_URL"
    }
    return {**env, "PYTHONUNBUFFERED": "1"}


def started(command: list[str], folder: Path, port: int, log: Path) -> subprocess.Popen:
    with log.open("w") as out:
        process = subprocess.Popen(
            command, cwd=folder, env=hall_env(), stdout=out, stderr=subprocess.STDOUT,
            start_new_session=True,
        )  # fmt: skip
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline:
        assert process.poll() is None, log.read_text()
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/login/", timeout=2) as r:
                if r.status == 200:
                    return process
        except OSError:
            time.sleep(0.3)
    stop(process)
    raise AssertionError("the desk did not answer within 240 s:\n" + log.read_text())


def stop(process: subprocess.Popen) -> None:
    os.killpg(process.pid, signal.SIGTERM)
    try:
        process.wait(timeout=20)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()


def test_the_documented_start_serves_the_desk_and_scripts_serve_calls_it(tmp_path):
    desk = copy_of_the_repository(tmp_path / "desk")
    assert not (desk / ".venv").exists() and not (desk / "data").exists()
    venv = Path(sys.prefix)  # the test's virtual environment: the documented --venv PATH
    port = free_port()
    log = tmp_path / "start.log"
    command = [python3(), "start.py", "--venv", str(venv), "--host", "127.0.0.1"]
    process = started([*command, "--port", str(port)], desk, port, log)
    try:
        # the server itself took start.py's process (os.execv on Linux and macOS)
        assert process.poll() is None
        out = log.read_text()
        assert "The desk is at http://" in out and f":{port}/ (desk: /desk/" in out
        password = re.search(r"password: (\S+)", out)[1]  # the first start's director
        director = Browser(f"http://127.0.0.1:{port}").log_in("director", password)
        status, _url, page = director.request("/desk/")
        assert status == 200 and "New tournament" in page
        # the catalogues compiled and the static files collected, in the copy
        assert (desk / "locale/ru/LC_MESSAGES/django.mo").exists()
        assert (desk / "data/desk.sqlite3").exists()
        assert any((desk / "staticfiles").iterdir())
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/static/desk/favicon.svg") as r:
            assert r.status == 200
        assert not (desk / ".venv").exists()  # --venv: nothing made, nothing installed
    finally:
        stop(process)
    assert process.returncode is not None

    # scripts/serve passes its options to start.py; the database is the one made above
    port = free_port()
    log = tmp_path / "serve.log"
    process = started(["bash", "scripts/serve", *command[2:], "--port", str(port)], desk, port, log)
    try:
        out = log.read_text()
        assert f":{port}/ (desk: /desk/" in out and "First start" not in out
    finally:
        stop(process)
