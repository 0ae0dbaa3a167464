"""The visitors' page cache (public.cache): the same page as the view, new with
every change, never for a logged-in user or someone with messages waiting."""

from types import SimpleNamespace

import pytest
from django.contrib import messages
from django.contrib.messages.storage.cookie import CookieStorage
from django.core.cache import cache
from django.db import connection
from django.http import HttpRequest, HttpResponse
from django.test import Client
from django.test.utils import CaptureQueriesContext

from public.cache import keys
from public.cache import pages as public_views
from seating.manual import swap_players
from tests.support import factories as f
from tournament.changes import touch
from tournament.models import Tournament

pytestmark = pytest.mark.django_db

PAGES = ["", "standings.json", "statistics.json", "p/p01/", "find/", "find/?q=Player+0"]


def get(client, path):
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(path)
    return response, len(ctx.captured_queries)


@pytest.mark.parametrize("page", PAGES)
def test_a_kept_page_is_the_page_the_view_makes_with_its_headers(page):
    staff = f.staff()
    t = f.tournament(slug="kept")
    f.seat_session(t)
    f.play(t.sessions.get().tables.get(number=1), [40000, 35000, 25000, 20000], *staff_pair(staff))
    path = f"/t/{t.slug}/{page}"
    first, _ = get(Client(), path)
    again, count = get(Client(), path)
    assert count == 0  # the revision is kept for a second, and the page until it changes
    assert again.status_code == first.status_code == 200
    assert again.content == first.content
    for header in ("Content-Type", "X-Frame-Options", "Content-Language", "Vary"):
        assert again.headers.get(header) == first.headers.get(header), header
    assert again.headers["X-Content-Type-Options"] == "nosniff"
    assert not again.cookies


def staff_pair(staff):
    return staff["desk1"], staff["desk2"]


def test_a_confirmation_shows_at_once():
    staff = f.staff()
    t = f.tournament(slug="fresh")
    session = f.seat_session(t)
    visitor = Client()
    assert "40,000" not in visitor.get(f"/t/{t.slug}/p/p01/").content.decode()
    f.play(session.tables.get(number=1), [40000, 35000, 25000, 20000], *staff_pair(staff))
    assert "40,000" in visitor.get(f"/t/{t.slug}/p/p01/").content.decode()


def test_logged_in_staff_and_waiting_messages_are_never_served_from_the_store():
    staff = f.staff()
    t = f.tournament(slug="staff")
    f.seat_session(t)
    Client().get(f"/t/{t.slug}/")  # a visitor's copy is kept
    desk = f.login(staff["desk1"])
    page = desk.get(f"/t/{t.slug}/").content.decode()
    assert "Log out desk1" in page and "csrfmiddlewaretoken" in page
    visitor = Client()
    visitor.cookies["messages"] = message_cookie("You were logged out.")
    assert "You were logged out." in visitor.get(f"/t/{t.slug}/").content.decode()
    assert "You were logged out." not in Client().get(f"/t/{t.slug}/").content.decode()


def message_cookie(text):
    request, response = HttpRequest(), HttpResponse()
    storage = CookieStorage(request)
    storage.add(messages.INFO, text)
    storage.update(response)
    return response.cookies["messages"].value


def test_unknown_pages_and_players_are_not_kept():
    t = f.tournament(slug="gone")
    f.seat_session(t)
    from django.core.cache import cache

    from public.views import kept_version

    t.refresh_from_db()
    found = (t.pk, t.revision)
    for _ in range(2):
        response, _count = get(Client(), f"/t/{t.slug}/p/nobody/")
        assert response.status_code == 404
        assert kept_version("public:player", found, {"key": "nobody"}, "en") is None
        assert cache.get(f"public-page:{t.pk}:{t.revision}:en:/t/{t.slug}/p/nobody/") is None
        assert Client().get("/t/no-such-tournament/").status_code == 404
    Client().get(f"/t/{t.slug}/p/p01/")  # while a page that exists is kept, by its version
    version, _fill = kept_version("public:player", found, {"key": "p01"}, "en")
    assert cache.get(f"public-page:{t.pk}:{version}:en:/t/{t.slug}/p/p01/") is not None


def test_a_player_page_is_drawn_again_when_another_table_moves_the_player_in_the_standings():
    staff = f.staff()
    t = f.tournament(slug="ranks")
    session = f.seat_session(t)
    visitor = Client()

    def ranks():
        feed = visitor.get(f"/t/{t.slug}/standings.json").json()
        return {r["player"]["key"]: r["rank"] for r in feed["standings"]}

    def shown(key):
        return visitor.get(f"/t/{t.slug}/p/{key}/").content.decode()

    f.play(session.tables.get(number=2), [40000, 35000, 25000, 20000], *staff_pair(staff))
    before = ranks()
    for key in ("p05", "p08"):
        assert f"Rank {before[key]} " in shown(key)
    # Table 1 plays: p05 and p08 (table 2) did nothing new, but their places change.
    f.play(session.tables.get(number=1), [40000, 35000, 25000, 20000], *staff_pair(staff))
    after = ranks()
    assert after["p08"] != before["p08"]
    for key in ("p05", "p08"):
        assert f"Rank {after[key]} " in shown(key)


def test_a_find_page_follows_a_swap_made_after_results_came_in():
    staff = f.staff()
    t = f.tournament(slug="find-swap")
    session = f.seat_session(t)  # p01-p04 at table 1, p05-p08 at table 2
    visitor = Client()

    def table_of(name):
        page = visitor.get(f"/t/{t.slug}/find/", {"q": name}).content.decode()
        return [n for n in (1, 2) if f'<td class="big">{n}</td>' in page]

    assert table_of("Player 01") == [1]
    f.play(session.tables.get(number=2), [40000, 35000, 25000, 20000], *staff_pair(staff))
    assert table_of("Player 01") == [1]
    swap_players(session, "p01", "p05", staff["director"], reason="Wrong seats", override=True)
    assert table_of("Player 01") == [2]
    assert table_of("Player 05") == [1]


def test_find_pages_kept_for_visitors_stay_bounded_whatever_they_type(monkeypatch):
    monkeypatch.setattr(public_views, "PAGES_KEPT", 5)
    t = f.tournament(slug="find-many")
    f.seat_session(t)
    visitor = Client()
    for n in range(12):
        assert visitor.get(f"/t/{t.slug}/find/", {"q": f"nobody {n}"}).status_code == 200
        assert len(public_views._find_pages) <= 5
    page = visitor.get(f"/t/{t.slug}/find/", {"q": "Player 01"}).content.decode()
    assert '<td class="big">1</td>' in page


def standings_rows(client, slug):
    """(rank, name, total) of every row of the public standings table, as shown."""
    import re

    page = client.get(f"/t/{slug}/").content.decode()
    row = r'<td class="num rank">(\d+)</td>.*?>(Player \d+)</a>.*?total">([^<]*)<'
    rows = re.findall(row, page, re.S)
    return [(int(rank), name, total) for rank, name, total in rows]


def test_standings_rows_kept_from_before_show_their_new_rank_and_only_their_own_numbers():
    staff = f.staff()
    t = f.tournament(slug="rows", players=12)
    session = f.seat_session(t)  # tables of p01-p04, p05-p08, p09-p12
    visitor = Client()
    f.play(session.tables.get(number=2), [40000, 35000, 25000, 20000], *staff_pair(staff))
    before = standings_rows(visitor, t.slug)
    assert before[:2] == [(1, "Player 05", "40,000"), (2, "Player 06", "15,000")]
    assert before[2] == (3, "Player 01", "0") and len(before) == 12
    # Table 1 plays higher: the rows of table 2 are kept (their cells did not change), but
    # they move down the standings and show their new ranks.
    f.play(session.tables.get(number=1), [60000, 25000, 20000, 15000], *staff_pair(staff))
    after = standings_rows(visitor, t.slug)
    feed = visitor.get(f"/t/{t.slug}/standings.json").json()["standings"]
    assert after == [(r["rank"], r["player"]["name"], f"{r['total']:,}") for r in feed]
    assert after[0] == (1, "Player 01", "60,000")
    assert (2, "Player 05", "40,000") in after and (3, "Player 06", "15,000") in after
    assert (5, "Player 09", "0") in after


def test_kept_standings_rows_follow_the_language():
    staff = f.staff()
    t = f.tournament(slug="rows-lang")
    session = f.seat_session(t)
    f.play(session.tables.get(number=1), [40000, 35000, 25000, 20000], *staff_pair(staff))
    english = Client().get(f"/t/{t.slug}/").content.decode()
    russian = Client(HTTP_ACCEPT_LANGUAGE="ru").get(f"/t/{t.slug}/").content.decode()
    assert 'class="num total">40,000<' in english and "Игрок" not in english
    assert 'class="num total">40\xa0000<' in russian and "Игрок" in russian


def test_player_and_find_pages_kept_across_a_confirmation_that_does_not_change_them():
    """A player's page shows the top 10 too (issue 39): here the top 10 stays as it was."""
    staff = f.staff()
    t = f.tournament(slug="versions", players=52)
    session = f.seat_session(t)  # p01-p04 at table 1, p05-p08 at table 2, ... 13 plays on
    for number in range(3, 13):  # the top 10: each table's East, 50,000
        f.play(session.tables.get(number=number), [50000, 35000, 20000, 15000], *staff_pair(staff))
    f.play(session.tables.get(number=2), [40000, 35000, 25000, 20000], *staff_pair(staff))
    english, russian = Client(), Client(HTTP_ACCEPT_LANGUAGE="ru")
    pages = [f"/t/{t.slug}/p/p05/", f"/t/{t.slug}/p/p01/", f"/t/{t.slug}/find/?q=Player+05"]
    for visitor in (english, russian):
        for path in pages:
            assert visitor.get(path).templates  # drawn once
    f.play(session.tables.get(number=1), [45000, 30000, 25000, 20000], *staff_pair(staff))
    assert english.get(f"/t/{t.slug}/").status_code == 200  # the new revision is read
    ranks = {
        r["player"]["key"]: r["rank"]
        for r in english.get(f"/t/{t.slug}/standings.json").json()["standings"]
    }
    assert ranks["p05"] == 12  # p01's 45,000 passed p05's 40,000, both below the top 10

    # p05 did not play: their page and the find page come from the kept pages, with the new
    # rank and the total in each visitor's language put in.
    kept = english.get(pages[0])
    assert not kept.templates
    assert "Rank 12 · " in kept.content.decode() and "Total 40,000" in kept.content.decode()
    kept = russian.get(pages[0])
    assert not kept.templates
    assert "Место 12 · " in kept.content.decode() and "Итого 40\xa0000" in kept.content.decode()
    for visitor in (english, russian):
        found = visitor.get(pages[2])
        assert not found.templates and '<td class="big">2</td>' in found.content.decode()
    # p01 played: their page is drawn again and shows the game.
    drawn = english.get(pages[1])
    assert drawn.templates
    assert "Rank 11 · " in drawn.content.decode() and "45,000" in drawn.content.decode()


def test_a_revision_read_before_a_change_never_replaces_the_new_one_once_answered():
    """Issue 38 (several processes, one cache): request A misses the kept revision and reads
    the tournament; before it keeps what it read, the change commits (and forgets the kept
    revision), and request B reads the new revision and answers by it. A's old revision must
    not then be what A or the next request (of any process) answers by: the new page is never
    followed by the old one."""
    t = f.tournament(slug="race")
    answered = {}

    def meanwhile():
        touch(t.pk)  # the change: committed, its revision forgotten
        answered["B"] = keys.revision(keys.TOURNAMENT, t.slug)

    new = (t.pk, t.revision + 1)
    assert keys.revision(read_before_the_change(t, meanwhile), t.slug) == new  # A
    assert answered["B"] == new
    assert keys.revision(keys.TOURNAMENT, t.slug) == new  # the next one


def test_a_revision_read_before_a_change_and_kept_first_is_everyones_until_it_goes():
    """The other order: A keeps its old revision before anybody has read the new one; then
    every request answers by it (B too, though it read the new one: nobody has seen the new
    page yet), until it goes after its second and the new one is read."""
    t = f.tournament(slug="race")
    old, new = (t.pk, t.revision), (t.pk, t.revision + 1)
    assert keys.revision(read_before_the_change(t, lambda: touch(t.pk)), t.slug) == old  # A
    assert Tournament.objects.get(pk=t.pk).revision == new[1]
    assert keys.revision(keys.TOURNAMENT, t.slug) == old  # B, in step with A
    cache.delete(keys.revision_key(t.slug))  # its second is over
    assert keys.revision(keys.TOURNAMENT, t.slug) == new


def read_before_the_change(t, meanwhile) -> keys.Owner:
    """The tournaments as request A reads them: its row as it was, with `meanwhile()` happening
    between A's read and A's keeping it."""
    read = (t.pk, t.revision)

    def first():
        meanwhile()
        return read

    query = SimpleNamespace(values_list=lambda *fields: SimpleNamespace(first=first))
    return keys.Owner(SimpleNamespace(objects=SimpleNamespace(filter=lambda **k: query)), "")


def test_a_refresh_holding_the_page_is_answered_without_fetching_the_kept_page():
    """Issue 38: behind a shared cache each 304 fetched the whole kept page (a 200-player
    standings page, 74 KB and its gzip) only to compare its ETag. The process remembers each
    kept page's ETag by the page's key, which names the revision: a visitor who holds it gets
    a 304 even when the page itself is no longer in the cache, and a change never meets an old
    tag."""
    staff = f.staff()
    t = f.tournament(slug="tags")
    session = f.seat_session(t)
    path = f"/t/{t.slug}/"
    first = Client().get(path)
    tag = first["ETag"]
    t.refresh_from_db()
    cache.delete(keys.page_key(t.pk, t.revision, "en", path))  # the kept page is gone
    with CaptureQueriesContext(connection) as ctx:
        held = Client().get(path, HTTP_IF_NONE_MATCH=tag)
    assert held.status_code == 304 and held["ETag"] == tag
    assert not ctx.captured_queries  # neither the view nor the revision: the tag was enough
    assert held["Vary"] == first["Vary"] and held["Cache-Control"] == "no-cache"
    assert Client().get(path).content == first.content  # drawn again for a visitor without it
    # a confirmation: the old tag is not the page any more
    f.play(session.tables.get(number=1), [40000, 35000, 25000, 20000], *staff_pair(staff))
    after = Client().get(path, HTTP_IF_NONE_MATCH=tag)
    assert after.status_code == 200 and after["ETag"] != tag
    assert after.content != first.content
