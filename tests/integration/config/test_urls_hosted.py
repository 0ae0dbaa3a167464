"""The federation server's addresses (config/urls_hosted.py, issue 38), through the real URLs:
the public pages, the login, the language and the admin answer; the desk, the referee's pages,
the table pages, the archive and the printouts are not there at all (404)."""

import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from core.roles import DIRECTOR
from seating.keys import table_path
from seating.models import Table
from tests.support import factories as f
from tests.support import tournaments

pytestmark = [pytest.mark.django_db, pytest.mark.any_engine]

HOSTED = "config.urls_hosted"
# The modules whose views a federation server may serve: the visitors' pages, its own room,
# the language switch, Django's login and admin (with the history pages in it), and the
# favicon's redirect.
SERVED = (
    "public.",
    "federation.",
    "core.language",
    "django.contrib.",
    "simple_history.admin",
    "django.views.generic.",
)


def callbacks(patterns):
    for p in patterns:
        if isinstance(p, URLResolver):
            yield from callbacks(p.url_patterns)
        elif isinstance(p, URLPattern):
            yield p.callback


def test_every_view_of_the_hosted_urls_is_a_public_one_or_the_servers_own():
    modules = {c.__module__ for c in callbacks(get_resolver(HOSTED).url_patterns)}
    assert {m for m in modules if not m.startswith(SERVED)} == set()
    assert any(m.startswith("public.") for m in modules)


@pytest.fixture
def played_tournament(settings):
    """A tournament with a confirmed table, its table page's address taken from the hall's
    URLs; then the federation server's URLs."""
    staff = f.staff()
    t = tournaments.played(staff, confirmed=True, slug="mirror-open")
    table = Table.objects.filter(session__tournament=t, number=1).get()
    hall = {"table": table_path(table), "desk": reverse("desk:tournament", args=[t.slug])}
    settings.ROOT_URLCONF = HOSTED
    settings.LOGIN_REDIRECT_URL = "/federation/"  # as DESK_HOSTED=1 sets it
    return staff, t, hall


def test_the_public_pages_answer_on_the_federation_server(played_tournament):
    _staff, t, _hall = played_tournament
    visitor = Client()
    for path in (
        "/",
        f"/t/{t.slug}/",
        f"/t/{t.slug}/standings.json",
        f"/t/{t.slug}/find/",
        f"/t/{t.slug}/clock/",
        f"/t/{t.slug}/p/p01/",
        "/login/",
        "/favicon.ico",
    ):
        response = visitor.get(path)
        assert response.status_code in (200, 301), (path, response.status_code)
    assert "p01" in visitor.get(f"/t/{t.slug}/standings.json").content.decode()


def test_the_desk_the_referee_the_table_pages_the_archive_and_printouts_are_not_there(
    played_tournament,
):
    """Not refused: absent. Even the director of the hall (who has no business here) gets a
    404, as a visitor does."""
    staff, t, hall = played_tournament
    director = f.login(staff["director"])
    for path in (
        "/desk/",
        hall["desk"],
        f"/desk/{t.slug}/players/",
        "/desk/import/",
        f"/desk/{t.slug}/backups/",
        f"/desk/{t.slug}/standings.pdf",
        f"/referee/{t.slug}/",
        "/h/",
        hall["table"],
    ):
        for client in (Client(), director):
            response = client.get(path)
            assert response.status_code == 404, (path, response.status_code)


def test_a_logged_in_page_has_no_desk_link_and_the_login_leads_to_the_organisers_page(
    played_tournament,
):
    """The top bar's Desk link names a page the federation server does not serve: left out,
    the page still answers. An organiser who logs in is sent to /federation/."""
    staff, t, _hall = played_tournament
    director = f.login(staff["director"])
    assert staff["director"].groups.filter(name=DIRECTOR).exists()
    page = director.get(f"/t/{t.slug}/")
    assert page.status_code == 200
    assert 'href="/desk/"' not in page.content.decode()
    f.user("organiser")
    login = Client().post("/login/", {"username": "organiser", "password": "pw-organiser"})
    assert login.status_code == 302 and login["Location"] == "/federation/"


def test_the_hall_still_links_its_desk(settings):
    staff = f.staff()
    t = tournaments.played(staff, slug="hall-open")
    page = f.login(staff["director"]).get(f"/t/{t.slug}/")
    assert 'href="/desk/"' in page.content.decode()
