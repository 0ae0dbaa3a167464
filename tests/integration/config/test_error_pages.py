"""Issue 23: the error pages are the site's own, in the visitor's language, with a way back; a
refusal logs one line and no traceback; /favicon.ico answers; the language menu names each
language in its own language."""

import logging
import re

import pytest
from django.conf import settings
from django.test import Client, RequestFactory
from django.urls import get_resolver
from django.utils import translation

from core.roles import REFEREE
from tests.support import factories as f

pytestmark = [pytest.mark.django_db, pytest.mark.any_engine]


def in_language(code, client=None):
    """A client whose browser picked `code` from the language menu (its cookie)."""
    client = client or Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = code
    return client


def said(code, text):
    """`text` as the page says it in `code`; it must not still be the English one."""
    with translation.override(code):
        translated = translation.gettext(text)
    assert translated != text, f"{text!r} has no {code} translation"
    return translated


def test_a_missing_page_is_the_sites_own_in_ukrainian():
    response = in_language("uk").get("/t/no-such-tournament/")
    assert response.status_code == 404
    page = response.content.decode()
    assert '<html lang="uk">' in page
    assert '<header class="top">' in page  # the site's top bar and language menu
    assert f"<h1>{said('uk', 'Page not found')}</h1>" in page
    assert f'<a href="/">{said("uk", "Back to the tournaments")}</a>' in page
    assert "Page not found" not in page


def test_a_refused_page_is_the_sites_own_in_ukrainian():
    f.tournament(slug="lviv-open")
    referee = f.login(f.user("marta", REFEREE))
    response = in_language("uk", referee).get("/desk/lviv-open/players/")
    assert response.status_code == 403
    page = response.content.decode()
    assert '<html lang="uk">' in page
    assert f"<h1>{said('uk', 'Forbidden')}</h1>" in page
    assert "marta" in page  # who is logged in, and may not
    assert f'<a href="/">{said("uk", "Back to the tournaments")}</a>' in page


def test_a_refused_form_is_the_sites_own_page():
    client = in_language("pl", Client(enforce_csrf_checks=True))
    response = client.post("/login/", {"username": "x", "password": "y"})  # no form token
    assert response.status_code == 403
    page = response.content.decode()
    assert '<html lang="pl">' in page
    assert f"<h1>{said('pl', 'Forbidden')}</h1>" in page
    assert "CSRF" not in page  # not Django's bare English page


def test_a_refusal_logs_one_line_and_no_traceback(caplog):
    f.tournament(slug="lviv-open")
    referee = f.login(f.user("marta", REFEREE))
    with caplog.at_level(logging.WARNING, logger="django.request"):
        assert referee.get("/desk/lviv-open/players/").status_code == 403
        assert Client().get("/t/no-such-tournament/").status_code == 404
    records = [r for r in caplog.records if r.name == "django.request"]
    assert [(r.levelname, r.getMessage()) for r in records] == [
        ("WARNING", "Forbidden (Permission denied): /desk/lviv-open/players/"),
        ("WARNING", "Not Found: /t/no-such-tournament/"),
    ]
    assert all(r.exc_info is None and r.exc_text is None for r in records)
    assert "Traceback" not in caplog.text


def test_a_server_error_still_logs_its_traceback(caplog):
    """Only refusals lose the traceback: a 500 is the desk's fault and keeps it."""
    logger = logging.getLogger("django.request")
    with caplog.at_level(logging.ERROR, logger="django.request"):
        try:
            raise ValueError("broken")
        except ValueError:
            logger.error("Internal Server Error: /x/", exc_info=True, extra={"status_code": 500})
    assert caplog.records[-1].exc_info is not None
    assert "Traceback" in caplog.text


@pytest.mark.parametrize("status", [400, 500])
def test_the_other_error_pages_render_in_the_language(status):
    request = RequestFactory().get("/somewhere/")
    handler = get_resolver().resolve_error_handler(status)
    with translation.override("uk"):
        response = handler(request, ValueError()) if status == 400 else handler(request)
    assert response.status_code == status
    page = response.content.decode()
    assert '<html lang="uk">' in page
    assert re.search(r"<h1>[^<]+</h1>", page)
    assert f'<a href="/">{said("uk", "Back to the tournaments")}</a>' in page
    heading = {400: "Bad request", 500: "Server error"}[status]
    with translation.override("uk"):
        assert f"<h1>{translation.gettext(heading)}</h1>" in page


def test_the_favicon_is_the_sites_own(caplog):
    client = Client()
    page = client.get("/").content.decode()
    icon = re.search(r'<link rel="icon" href="([^"]+)" type="image/svg\+xml">', page)
    assert icon
    with caplog.at_level(logging.WARNING, logger="django.request"):
        response = client.get("/favicon.ico")
        assert response.status_code == 301
        assert response["Location"] == icon.group(1)
        svg = client.get(icon.group(1))
    assert svg.status_code == 200
    assert svg["Content-Type"].startswith("image/svg+xml")
    assert b"<svg" in b"".join(svg.streaming_content)
    assert "Not Found" not in caplog.text


@pytest.mark.parametrize("code", ["en", "uk", "ru", "pl"])
def test_the_language_menu_names_each_language_in_its_own(code):
    page = in_language(code).get("/").content.decode()
    menu = re.search(r'<select name="language"[^>]*>(.*?)</select>', page, re.S).group(1)
    options = re.findall(r'<option value="(\w+)" lang="\1"(?: selected)?>([^<]+)</option>', menu)
    assert options == [("en", "English"), ("ru", "Русский"), ("uk", "Українська"), ("pl", "Polski")]
    assert f'<option value="{code}" lang="{code}" selected>' in menu
