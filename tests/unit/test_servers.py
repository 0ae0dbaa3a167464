"""The federation server's pieces on this machine (issue 38): its pinned requirements, and the
cache server scripts/lib/servers.sh starts (the one scripts/federation and the tests use)."""

import re
import socket
import subprocess
from importlib import metadata
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def pins() -> dict[str, str]:
    """requirements.txt's packages and their versions: every one is pinned exactly."""
    found = {}
    for line in (ROOT / "requirements.txt").read_text().splitlines():
        line = line.strip()
        if not line or line.startswith(("#", "-r")):
            continue
        match = re.fullmatch(r"([A-Za-z0-9_.-]+)(\[[a-z,]+\])?==([0-9][0-9A-Za-z.]*)", line)
        assert match, f"requirements.txt: {line!r} is not pinned as name==version"
        found[match[1].lower()] = match[3]
    return found


def test_the_federation_servers_packages_are_pinned_and_installed_as_pinned():
    """django-redis, redis and gunicorn are pinned like the rest, each with the comment saying
    why (the house's way), and the environment has exactly those versions."""
    pinned = pins()
    text = (ROOT / "requirements.txt").read_text()
    for name in ("django-redis", "redis", "gunicorn"):
        assert name in pinned, name
        assert metadata.version(name) == pinned[name], name
        above = text.split(f"\n{name}==")[0].splitlines()
        assert any(line.startswith("#") for line in above[-3:]), f"{name} has no comment"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def ask(port: int, command: bytes) -> bytes:
    """One Redis command (its inline form) on 127.0.0.1:port; the first line of the answer."""
    with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
        s.sendall(command + b"\r\n")
        return s.makefile("rb").readline().strip()


def test_the_cache_server_starts_on_loopback_keeps_nothing_on_disk_and_stops(tmp_path):
    """servers_redis_start: redis-server on 127.0.0.1 and the port given, answering at once;
    no snapshot or append-only file (the cache is rebuilt from the database); stopped and gone
    after servers_redis_stop."""
    port = free_port()
    folder = tmp_path / "redis"
    script = (
        f'source scripts/lib/servers.sh && servers_redis_start "{folder}" {port} && '
        f"redis-cli -p {port} config get save | tail -n 1 && "
        f"redis-cli -p {port} config get appendonly | tail -n 1 && "
        f"redis-cli -p {port} config get bind | tail -n 1"
    )
    try:
        done = subprocess.run(
            ["bash", "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=60
        )
        assert done.returncode == 0, done.stdout + done.stderr
        assert done.stdout.split("\n")[:3] == ["", "no", "127.0.0.1"], done.stdout
        assert ask(port, b"PING") == b"+PONG"
    finally:
        subprocess.run(
            ["bash", "-c", f'source scripts/lib/servers.sh && servers_redis_stop "{folder}"'],
            cwd=ROOT,
            timeout=30,
        )
    try:
        ask(port, b"PING")
        raise AssertionError("redis-server still answers after servers_redis_stop")
    except OSError:
        pass
    assert not list(folder.glob("*.rdb")) and not list(folder.glob("appendonly*"))


def test_every_setting_the_deploy_examples_give_is_one_the_server_reads():
    """deploy/ (the docs' examples for a real host) names only settings config/settings.py,
    config/gunicorn.py or deploy/Caddyfile reads (a misspelt one would be silently ignored),
    and gives the ones hosted mode requires."""
    read = set()
    for source in ("config/settings.py", "config/gunicorn.py"):
        read |= set(
            re.findall(
                r"environ(?:\.get\(|\[)[\"'](DESK_[A-Z_]+)[\"']", (ROOT / source).read_text()
            )
        )
    read.add("DATABASE_URL")  # dj_database_url's
    read |= set(re.findall(r"\{\$(DESK_[A-Z_]+)", (ROOT / "deploy/Caddyfile").read_text()))
    for example in ("deploy/systemd/desk-federation.env", "deploy/compose.yaml"):
        text = (ROOT / example).read_text()
        given = set(re.findall(r"^\s*(DESK_[A-Z_]+|DATABASE_URL)\s*[=:]", text, re.MULTILINE))
        assert given - read == set(), example
        assert {"DESK_HOSTED", "DATABASE_URL", "DESK_CACHE_URL", "DESK_SECRET_KEY"} <= given
