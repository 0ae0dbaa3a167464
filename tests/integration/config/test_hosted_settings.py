"""The federation server's settings (DESK_HOSTED=1, issue 38), built from the environment as a
host starts it: PostgreSQL required, the shared cache, the hosted URL conf, the hosts and origins
it answers, TLS at the host's proxy; and the hall's settings unchanged when it is off."""

import os
import re
import runpy
import secrets
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured
from django.test import RequestFactory

from core.addresses import client_address

# No database: the PostgreSQL run of scripts/test leaves it out (tests/conftest.py).
pytestmark = pytest.mark.once

ROOT = Path(__file__).resolve().parents[3]
SETTINGS = ROOT / "config" / "settings.py"
OURS = (
    "DESK_HOSTED",
    "DATABASE_URL",
    "DESK_CACHE_URL",
    "DESK_HOSTS",
    "DESK_HTTPS",
    "DESK_BACKUP_ON_CHANGE",
)
POSTGRES = "postgres://desk:secret@127.0.0.1:5432/federation"
REDIS = "redis://127.0.0.1:6379/0"


def built(monkeypatch, **env) -> dict:
    """config/settings.py's settings, built afresh from the environment `env` (and the suite's
    secret key), as a process starting with it would have them."""
    for name in OURS:
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    return runpy.run_path(str(SETTINGS))


def refusal(monkeypatch, **env) -> str:
    with pytest.raises(ImproperlyConfigured) as refused:
        built(monkeypatch, **env)
    return str(refused.value)


def test_the_halls_settings_are_unchanged_without_hosted_mode(monkeypatch):
    hall = built(monkeypatch)
    assert hall["DESK_HOSTED"] is False
    assert hall["ROOT_URLCONF"] == "config.urls"
    assert hall["ALLOWED_HOSTS"] == ["*"]
    assert hall["DATABASES"]["default"]["ENGINE"] == "django.db.backends.sqlite3"
    assert hall["CACHES"]["default"]["BACKEND"].endswith("LocMemCache")
    assert hall["DESK_BACKUP_ON_CHANGE"] is True
    assert hall["LOGIN_REDIRECT_URL"] == "desk:home"
    assert "SIMPLE_HISTORY_ENABLED" not in hall  # the hall keeps every change's history
    for setting in (
        "SECURE_PROXY_SSL_HEADER",
        "SESSION_COOKIE_SECURE",
        "CSRF_COOKIE_SECURE",
        "CSRF_TRUSTED_ORIGINS",
        "AXES_CLIENT_IP_CALLABLE",
    ):
        assert setting not in hall, setting


def test_hosted_mode_refuses_to_start_on_anything_but_postgresql(monkeypatch):
    """A sentence naming DATABASE_URL and what it should be; the password of a URL is never
    repeated (none here: an SQLite file's URL)."""
    unset = refusal(monkeypatch, DESK_HOSTED="1", DESK_CACHE_URL=REDIS)
    assert unset == (
        "DESK_HOSTED=1 (the federation server) needs PostgreSQL, but DATABASE_URL is not set: "
        "set it to postgres://USER:PASSWORD@HOST:PORT/NAME."
    )
    sqlite = refusal(
        monkeypatch, DESK_HOSTED="1", DESK_CACHE_URL=REDIS, DATABASE_URL="sqlite:////tmp/x.db"
    )
    assert "DATABASE_URL names 'sqlite'" in sqlite and "postgres://" in sqlite


def test_hosted_mode_refuses_to_start_without_a_shared_cache(monkeypatch):
    """Processes that each keep their own cache would not forget a changed page together."""
    message = refusal(monkeypatch, DESK_HOSTED="1", DATABASE_URL=POSTGRES)
    assert "DESK_CACHE_URL" in message and "redis://HOST:PORT/0" in message


def test_the_cache_url_gives_the_redis_cache_in_either_mode_and_nothing_else_is_taken(
    monkeypatch,
):
    for env in ({}, {"DESK_HOSTED": "1", "DATABASE_URL": POSTGRES}):
        cache = built(monkeypatch, DESK_CACHE_URL=REDIS, **env)["CACHES"]["default"]
        assert cache["BACKEND"] == "django_redis.cache.RedisCache"
        assert cache["LOCATION"] == REDIS
    message = refusal(monkeypatch, DESK_CACHE_URL="memcached://127.0.0.1:11211")
    assert message.startswith("DESK_CACHE_URL must be the address of a Redis or Valkey server")
    assert "'memcached://…'" in message


def test_hosted_mode_serves_the_hosted_urls_to_its_hosts_behind_the_hosts_tls(monkeypatch):
    hosted = built(
        monkeypatch,
        DESK_HOSTED="1",
        DATABASE_URL=POSTGRES,
        DESK_CACHE_URL=REDIS,
        DESK_HOSTS="results.example.org, .example.net,localhost:8100, [::1]:8100",
        DESK_HTTPS="1",
    )
    assert hosted["ROOT_URLCONF"] == "config.urls_hosted"
    assert hosted["DATABASES"]["default"]["ENGINE"] == "django.db.backends.postgresql"
    assert hosted["DATABASES"]["default"]["CONN_HEALTH_CHECKS"] is True
    assert hosted["ALLOWED_HOSTS"] == ["results.example.org", ".example.net", "localhost", "[::1]"]
    assert hosted["CSRF_TRUSTED_ORIGINS"] == [
        "https://results.example.org",
        "https://*.example.net",
        "https://localhost:8100",
        "https://[::1]:8100",
    ]
    assert hosted["SECURE_PROXY_SSL_HEADER"] == ("HTTP_X_FORWARDED_PROTO", "https")
    assert hosted["SESSION_COOKIE_SECURE"] and hosted["CSRF_COOKIE_SECURE"]
    assert hosted["LANGUAGE_COOKIE_SECURE"]
    assert hosted["DESK_BACKUP_ON_CHANGE"] is False  # the hall that sends keeps the backups
    assert hosted["LOGIN_REDIRECT_URL"] == "/federation/"
    assert hosted["SIMPLE_HISTORY_ENABLED"] is False  # a mirror's history is the hall's
    assert hosted["AXES_CLIENT_IP_CALLABLE"] == "core.addresses.client_address"


def test_hosted_mode_on_loopback_without_tls(monkeypatch):
    """scripts/federation's own: loopback names, plain HTTP, cookies not secure-only; the
    backups after every change can be turned back on."""
    hosted = built(
        monkeypatch,
        DESK_HOSTED="1",
        DATABASE_URL=POSTGRES,
        DESK_CACHE_URL=REDIS,
        DESK_BACKUP_ON_CHANGE="1",
    )
    assert hosted["ALLOWED_HOSTS"] == ["127.0.0.1", "localhost"]
    assert hosted["CSRF_TRUSTED_ORIGINS"] == ["http://127.0.0.1", "http://localhost"]
    assert "SESSION_COOKIE_SECURE" not in hosted and "CSRF_COOKIE_SECURE" not in hosted
    assert hosted["DESK_BACKUP_ON_CHANGE"] is True


def test_a_host_that_is_not_one_is_refused_naming_desk_hosts(monkeypatch):
    message = refusal(
        monkeypatch,
        DESK_HOSTED="1",
        DATABASE_URL=POSTGRES,
        DESK_CACHE_URL=REDIS,
        DESK_HOSTS="results.example.org, https://results.example.org/",
    )
    assert message == (
        "DESK_HOSTS: 'https://results.example.org/' is not a host name, NAME or NAME:PORT "
        "(comma separated)."
    )


def manage(*args, **env) -> subprocess.CompletedProcess:
    """`manage.py` with the server's settings (not the tests') from `env`."""
    given = {k: v for k, v in os.environ.items() if k not in OURS}
    given.update(DJANGO_SETTINGS_MODULE="config.settings", **env)
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=given,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_the_server_does_not_start_in_hosted_mode_on_sqlite():
    """What the host sees: `manage.py check` (as every start) stops with the sentence."""
    done = manage("check", DESK_HOSTED="1", DESK_CACHE_URL=REDIS)
    assert done.returncode != 0
    assert "ImproperlyConfigured: DESK_HOSTED=1 (the federation server) needs PostgreSQL" in (
        done.stderr
    )


def test_the_lockout_counts_the_address_the_hosts_proxy_appended():
    """The right-most X-Forwarded-For entry is the proxy's own (what the client put before it
    proves nothing); without the header, the socket's address."""
    factory = RequestFactory()
    forwarded = factory.get("/login/", HTTP_X_FORWARDED_FOR="10.9.9.9, 203.0.113.7")
    assert client_address(forwarded) == "203.0.113.7"
    assert client_address(factory.get("/login/", REMOTE_ADDR="127.0.0.5")) == "127.0.0.5"


def test_the_secret_key_is_made_once_whole_and_read_by_every_later_start(monkeypatch, tmp_path):
    """Made whole and linked into place (several app processes may start at once on a new data
    folder): every start after the first reads the same key, and no half-made file stays."""
    monkeypatch.delenv("DESK_SECRET_KEY")
    monkeypatch.setenv("DESK_DATA_DIR", str(tmp_path))
    first = built(monkeypatch)["SECRET_KEY"]
    assert len(first) >= 50 and built(monkeypatch)["SECRET_KEY"] == first
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith("secret")] == ["secret_key"]
    assert (tmp_path / "secret_key").stat().st_mode & 0o777 == 0o600


def test_behind_tls_the_deploy_check_leaves_only_what_the_hosts_proxy_does():
    """`check --deploy` of the federation server with DESK_HTTPS=1: the secure-only cookies are
    set; what is left, HSTS (W004) and the redirect to HTTPS (W008), the host's proxy does
    (deploy/: Caddy redirects and its site sends Strict-Transport-Security)."""
    done = manage(
        "check",
        "--deploy",
        DESK_HOSTED="1",
        DATABASE_URL=POSTGRES,  # not connected to: the checks read the settings only
        DESK_CACHE_URL=REDIS,
        DESK_HTTPS="1",
        DESK_HOSTS="results.example.org",
        DESK_SECRET_KEY=secrets.token_urlsafe(50),  # a host's own, not the tests' weak one
    )
    assert done.returncode == 0, done.stderr
    assert set(re.findall(r"\(security\.(W\d+)\)", done.stderr)) == {"W004", "W008"}
