"""Security on the LAN: CSRF on every write, the login lockout, the cookies, and `check --deploy`
clean but for the HTTPS items a hall's plain-HTTP network cannot have."""

import io
import re
import secrets
from datetime import timedelta

import pytest
from axes.models import AccessAttempt
from django.conf import settings as django_settings
from django.contrib.auth import SESSION_KEY
from django.core.checks import run_checks
from django.core.management import call_command
from django.db import connection
from django.db.models import F
from django.test import Client
from django.urls import URLResolver, get_resolver, reverse

from tests.integration.config.test_permissions import (
    RULES,
    body,
    kwargs_for,
    url_patterns,
)
from tests.support import factories as f
from tests.support import tournaments
from tests.support.rows import snapshot

pytestmark = [pytest.mark.django_db, pytest.mark.any_engine]

# What `check --deploy` may still say on the LAN: HSTS, the HTTPS redirect and the two
# secure-only cookies all need HTTPS, which a laptop serving a closed hall network does not have.
HTTPS_ONLY = {"security.W004", "security.W008", "security.W012", "security.W016"}

DESK_WRITES = sorted(name for name, (method, _) in RULES.items() if method == "post")


def token_of(page) -> str:
    return re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.content.decode())[1]


def played():
    staff = f.staff()
    return staff, tournaments.played(staff)  # table 1 a draft by desk1


# --- CSRF -----------------------------------------------------------------------------------


def views(patterns=None):
    for p in get_resolver().url_patterns if patterns is None else patterns:
        if isinstance(p, URLResolver):
            yield from views(p.url_patterns)
        else:
            yield p


def test_no_view_is_csrf_exempt_but_the_signed_publishing_apis():
    """CSRF protects what a browser's cookies could do unbidden. The two exempt addresses are
    the federation server's /api/publish/ and a standby desk's /api/standby/, which no cookie
    reaches: the main desk signs each request with its key (core.signed), and an unsigned one
    is refused (tests/integration/federation/test_wire.py,
    tests/integration/publishing/test_standby.py)."""
    assert "django.middleware.csrf.CsrfViewMiddleware" in django_settings.MIDDLEWARE
    patterns = list(views())
    assert len(patterns) == len(url_patterns())  # every pattern of the project
    exempt = [str(p.pattern) for p in patterns if getattr(p.callback, "csrf_exempt", False)]
    assert exempt == ["api/publish/", "api/standby/"]


@pytest.mark.parametrize("name", DESK_WRITES)
def test_every_desk_write_needs_the_csrf_token(name):
    """Without the form's token: 403 and nothing changes. With it: the write goes through."""
    staff, t = played()
    player = t.players.first()
    c = Client(enforce_csrf_checks=True)
    c.force_login(staff["director"])  # the director may do every one of them
    target = reverse(name, kwargs=kwargs_for(name, t, player))
    before = snapshot()
    response = c.post(target, body(name, t, player))
    assert response.status_code == 403, (name, response.status_code)
    assert snapshot() == before, f"{name} changed data without a CSRF token"

    data = {**body(name, t, player), "csrfmiddlewaretoken": token_of(c.get(reverse("desk:home")))}
    response = c.post(target, data)
    assert response.status_code in (200, 302, 400, 409), (name, response.status_code)


def test_login_and_logout_need_the_csrf_token():
    staff = f.staff()
    c = Client(enforce_csrf_checks=True)
    credentials = {"username": "desk1", "password": "pw-desk1"}
    assert c.post("/login/", credentials).status_code == 403
    assert SESSION_KEY not in c.session
    token = token_of(c.get("/login/"))
    response = c.post("/login/", {**credentials, "csrfmiddlewaretoken": token})
    assert response.status_code == 302 and response["Location"] == reverse("desk:home")
    assert c.session[SESSION_KEY] == str(staff["desk1"].pk)
    # A page elsewhere cannot log a desk user out either.
    assert c.post("/logout/").status_code == 403
    assert SESSION_KEY in c.session


def test_the_admin_needs_the_csrf_token():
    staff = f.staff()
    staff["director"].is_staff = staff["director"].is_superuser = True
    staff["director"].save()
    c = Client(enforce_csrf_checks=True)
    c.force_login(staff["director"])
    target = reverse("admin:auth_user_delete", args=[staff["desk1"].pk])
    assert c.post(target, {"post": "yes"}).status_code == 403
    token = token_of(c.get(target))
    assert c.post(target, {"post": "yes", "csrfmiddlewaretoken": token}).status_code == 302
    assert not type(staff["desk1"]).objects.filter(username="desk1").exists()


# --- Login lockout --------------------------------------------------------------------------


def log_in(client, username, password):
    return client.post("/login/", {"username": username, "password": password})


def lock_out(client, username):
    """Four wrong passwords show the form again; the fifth shows the lockout page."""
    for _ in range(django_settings.AXES_FAILURE_LIMIT - 1):
        assert log_in(client, username, "wrong").status_code == 200
    return log_in(client, username, "wrong")


def test_five_wrong_passwords_lock_even_the_right_one_out():
    f.staff()
    c = Client(REMOTE_ADDR="10.0.0.5")
    locked = lock_out(c, "desk1")
    assert locked.status_code == 429
    page = locked.content.decode()
    assert "Too many failed logins" in page and "15 minutes" in page
    assert 'class="brand"' in page  # the desk's own page, not a bare message
    response = log_in(c, "desk1", "pw-desk1")
    assert response.status_code == 429
    assert SESSION_KEY not in c.session


def test_the_lockout_is_for_one_user_on_one_device():
    f.staff()
    lock_out(Client(REMOTE_ADDR="10.0.0.5"), "dir")
    # Someone typing "dir" on their phone does not lock the director out of the desk laptop...
    laptop = Client(REMOTE_ADDR="10.0.0.2")
    assert log_in(laptop, "dir", "pw-dir").status_code == 302
    # ...and other users on the same phone can still log in.
    assert log_in(Client(REMOTE_ADDR="10.0.0.5"), "desk1", "pw-desk1").status_code == 302
    assert log_in(Client(REMOTE_ADDR="10.0.0.5"), "dir", "pw-dir").status_code == 429


def test_the_admin_login_is_locked_too():
    staff = f.staff()
    staff["director"].is_staff = True
    staff["director"].save()
    c = Client(REMOTE_ADDR="10.0.0.5")
    for _ in range(django_settings.AXES_FAILURE_LIMIT):
        response = c.post("/admin/login/", {"username": "dir", "password": "wrong"})
    assert response.status_code == 429
    assert c.post("/admin/login/", {"username": "dir", "password": "pw-dir"}).status_code == 429


def test_the_lockout_ends_after_the_cooloff():
    f.staff()
    c = Client(REMOTE_ADDR="10.0.0.5")
    lock_out(c, "desk1")
    # Trying during the lockout does not make the wait longer.
    assert log_in(c, "desk1", "pw-desk1").status_code == 429
    assert AccessAttempt.objects.get().failures_since_start == 5
    AccessAttempt.objects.update(attempt_time=F("attempt_time") - timedelta(minutes=14))
    assert log_in(c, "desk1", "pw-desk1").status_code == 429
    AccessAttempt.objects.update(attempt_time=F("attempt_time") - timedelta(minutes=1, seconds=1))
    assert log_in(c, "desk1", "pw-desk1").status_code == 302


def test_a_successful_login_forgets_the_failures():
    f.staff()
    c = Client(REMOTE_ADDR="10.0.0.5")
    for _ in range(4):
        log_in(c, "desk1", "wrong")
    assert log_in(c, "desk1", "pw-desk1").status_code == 302
    c.post("/logout/")
    for _ in range(4):
        assert log_in(c, "desk1", "wrong").status_code == 200
    assert log_in(c, "desk1", "pw-desk1").status_code == 302


def test_the_director_unlocks_a_user_with_a_command():
    f.staff()
    c = Client(REMOTE_ADDR="10.0.0.5")
    lock_out(c, "desk1")
    out = io.StringIO()
    call_command("axes_reset_username", "desk1", stdout=out)
    assert "1 attempts removed" in out.getvalue()
    assert log_in(c, "desk1", "pw-desk1").status_code == 302


def test_the_director_unlocks_a_user_in_the_admin():
    staff = f.staff()
    staff["director"].is_staff = staff["director"].is_superuser = True
    staff["director"].save()
    c = Client(REMOTE_ADDR="10.0.0.5")
    lock_out(c, "desk1")
    attempt = AccessAttempt.objects.get(username="desk1")
    director = f.login(staff["director"])
    assert (
        "Locked Out"
        in director.get(reverse("admin:axes_accessattempt_changelist")).content.decode()
    )
    url = reverse("admin:axes_accessattempt_delete", args=[attempt.pk])
    assert director.post(url, {"post": "yes"}).status_code == 302
    assert log_in(c, "desk1", "pw-desk1").status_code == 302


def test_the_lockout_records_no_password():
    f.staff()
    lock_out(Client(REMOTE_ADDR="10.0.0.5"), "desk1")
    assert "wrong" not in AccessAttempt.objects.get().post_data


# --- Cookies and headers --------------------------------------------------------------------


def test_cookies_and_headers():
    f.staff()
    c = Client()
    login_page = c.get("/login/")
    csrf = login_page.cookies["csrftoken"]
    assert csrf["httponly"] and csrf["samesite"] == "Lax"
    response = c.post(
        "/login/",
        {"username": "desk1", "password": "pw-desk1", "csrfmiddlewaretoken": token_of(login_page)},
    )
    session = response.cookies["sessionid"]
    assert session["httponly"] and session["samesite"] == "Lax"
    assert session["max-age"] == 14 * 60 * 60  # one tournament day, not two weeks
    assert not session["secure"]  # plain HTTP on the LAN: a secure cookie would never come back
    public = Client().get("/")
    assert public["X-Frame-Options"] == "DENY"
    assert public["X-Content-Type-Options"] == "nosniff"
    assert public["Referrer-Policy"] == "same-origin"
    assert public["Cross-Origin-Opener-Policy"] == "same-origin"


def test_the_pages_scripts_never_read_the_csrf_cookie():
    """CSRF_COOKIE_HTTPONLY hides the cookie from scripts; they post the form's hidden token."""
    for script in (django_settings.BASE_DIR / "static").rglob("*.js"):
        assert "cookie" not in script.read_text().lower(), script


# --- check --deploy -------------------------------------------------------------------------


def test_deploy_checks_leave_only_the_https_items(settings):
    # The tests' fixed key is short on purpose; the hall's key is generated like this one.
    settings.SECRET_KEY = secrets.token_urlsafe(50)
    settings.DEBUG = False
    assert not django_settings.SILENCED_SYSTEM_CHECKS  # nothing is hidden, only explained
    found = {m.id for m in run_checks(include_deployment_checks=True)}
    assert found == HTTPS_ONLY


@pytest.mark.django_db
def test_a_committed_save_survives_a_power_cut():
    """Issue 22, durability: in WAL mode SQLite's synchronous=NORMAL may roll back the last
    commits at a power cut; the desk runs FULL (2), which syncs the log at every commit.
    PostgreSQL's default, synchronous_commit on, does the same."""
    with connection.cursor() as cursor:
        if connection.vendor == "sqlite":
            cursor.execute("PRAGMA synchronous")
            assert cursor.fetchone()[0] == 2
        else:
            cursor.execute("SHOW synchronous_commit")
            assert cursor.fetchone()[0] == "on"
