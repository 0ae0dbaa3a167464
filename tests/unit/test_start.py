"""start.py, the start on any laptop (issue 37 point 9): the choices it makes for Windows and
for Linux and macOS, checked here on Linux without starting anything. The start itself, run as
documented, is tests/e2e/test_hall_start.py's."""

import subprocess
import sys
from pathlib import Path, PureWindowsPath

import pytest

import start


@pytest.mark.parametrize(
    ("platform", "expected"),
    [
        ("win32", ("Scripts", "python.exe")),
        ("darwin", ("bin", "python")),
        ("linux", ("bin", "python")),
    ],
)
def test_the_virtual_environments_python_is_where_each_system_puts_it(platform, expected):
    venv = Path("/laptop/desk/.venv")
    assert start.venv_python(venv, platform) == venv.joinpath(*expected)
    # on a Windows path too: .venv\Scripts\python.exe
    windows = start.venv_python(PureWindowsPath(r"C:\desk\.venv"), "win32")
    assert str(windows) == r"C:\desk\.venv\Scripts\python.exe"


def test_the_server_takes_the_process_on_linux_and_macos(monkeypatch):
    seen = {}

    def execv(path, args):
        seen["execv"] = (path, args)
        raise SystemExit(0)  # execv never returns

    monkeypatch.setattr(start.os, "execv", execv)
    monkeypatch.setattr(start.os, "chdir", lambda folder: seen.setdefault("chdir", folder))
    monkeypatch.setattr(start.subprocess, "Popen", lambda *a, **k: pytest.fail("no child"))
    python = Path("/desk/.venv/bin/python")
    with pytest.raises(SystemExit):
        start.serve(python, ["--port", "8080"], os_name="posix")
    assert seen["execv"] == (str(python), [str(python), "manage.py", "serve", "--port", "8080"])
    assert seen["chdir"] == start.ROOT


def test_the_server_runs_as_a_child_on_windows(monkeypatch):
    """Windows has no exec: the server is a child process, and its exit status is start.py's."""
    calls = []

    class Server:
        def __init__(self, command, cwd):
            calls.append((command, cwd))

        def wait(self):
            return 3

    monkeypatch.setattr(start.os, "execv", lambda *a: pytest.fail("no exec on Windows"))
    monkeypatch.setattr(start.subprocess, "Popen", Server)
    python = PureWindowsPath(r"C:\desk\.venv\Scripts\python.exe")
    assert start.serve(python, ["--threads", "6"], os_name="nt") == 3
    assert calls == [([str(python), "manage.py", "serve", "--threads", "6"], start.ROOT)]


def test_its_own_options_and_the_rest_for_serve():
    options, rest = start.parse(["--venv", "/v", "--port", "8080", "--threads", "6"])
    assert options.venv == Path("/v") and options.requirements == "requirements.txt"
    assert not options.setup_only
    assert rest == ["--port", "8080", "--threads", "6"]


def test_a_missing_virtual_environment_is_named(tmp_path):
    with pytest.raises(SystemExit) as stop:
        start.main(["--venv", str(tmp_path / "nowhere")])
    assert "--venv: there is no virtual environment at" in str(stop.value)


def test_setup_only_refuses_options_for_serving(monkeypatch):
    monkeypatch.setattr(start, "prepare", lambda *a: pytest.fail("nothing installed"))
    with pytest.raises(SystemExit) as stop:
        start.main(["--setup-only", "--port", "8080"])
    assert "--setup-only does not serve: --port 8080" in str(stop.value)


def test_an_older_python_is_told_what_to_install(monkeypatch):
    monkeypatch.setattr(start.sys, "version_info", (3, 10, 12))
    with pytest.raises(SystemExit) as stop:
        start.main([])
    assert "The desk needs Python 3.11 or newer" in str(stop.value)


def test_it_imports_nothing_outside_the_standard_library():
    """It runs before anything is installed: in a Python with no site packages at all."""
    done = subprocess.run(
        [sys.executable, "-S", "-I", str(start.ROOT / "start.py"), "--help"],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    assert "--venv PATH" in done.stdout
