"""The visitors' page cache on the wire (issue 26): each kept page gzipped once and sent so to
clients that accept it, an ETag per page and body, a 304 and no body for a refresh that finds
nothing new; staff and everyone else the normal way."""

import datetime
import gzip

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from club.services import add_member, confirm_game, record_game, save_club
from core.roles import CLUB_OFFICER
from people.models import Person
from public.cache import accepts_gzip
from tests.support import factories as f

pytestmark = [pytest.mark.django_db, pytest.mark.any_engine]

PAGES = ["", "standings.json", "statistics.json", "p/p01/", "find/?q=Player+01"]
BIG_PAGES = ["", "standings.json", "p/p01/", "find/?q=Player+01"]  # 1 KB and more


def get(client, path, **headers):
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(path, headers=headers)
    return response, len(ctx.captured_queries)


def played(slug="wire", players=8):
    staff = f.staff()
    t = f.tournament(slug=slug, players=players)
    session = f.seat_session(t)
    f.play(session.tables.get(number=1), [40000, 35000, 25000, 20000], *pair(staff))
    return t, session, staff


def pair(staff):
    return staff["desk1"], staff["desk2"]


def vary(response):
    return {name.strip() for name in response["Vary"].split(",")}


@pytest.mark.parametrize("page", BIG_PAGES)
def test_the_gzip_body_is_the_plain_body_for_the_first_request_and_the_kept_ones(page):
    t, _session, _staff = played()
    path = f"/t/{t.slug}/{page}"
    first = Client(HTTP_ACCEPT_ENCODING="gzip, deflate, br").get(path)  # through the view
    kept, count = get(Client(), path, accept_encoding="gzip")
    plain, _count = get(Client(), path)
    assert count == 0
    assert first.status_code == kept.status_code == plain.status_code == 200
    assert "Content-Encoding" not in plain
    assert int(plain["Content-Length"]) == len(plain.content) >= 1024
    for zipped in (first, kept):
        assert zipped["Content-Encoding"] == "gzip"
        assert int(zipped["Content-Length"]) == len(zipped.content) < len(plain.content)
        assert gzip.decompress(zipped.content) == plain.content
        assert zipped["ETag"] == plain["ETag"][:-1] + '-gz"'
    for response in (first, kept, plain):
        assert {"Accept-Encoding", "Accept-Language"} <= vary(response)
        assert response["Cache-Control"] == "no-cache"
    assert first["ETag"] == kept["ETag"]
    if page != "standings.json":  # the pages read the session and say so; the feed does not
        assert "Cookie" in vary(plain)


@pytest.mark.parametrize(
    "header, takes",
    [
        ("gzip", True),
        ("GZIP;Q=0.5", True),
        ("deflate, gzip;q=0.1", True),
        ("x-gzip", True),
        ("*", True),
        ("br;q=1, *;q=0.2", True),
        ("gzip;q=0", False),
        ("gzip;q=0.000, *", False),
        ("*;q=0", False),
        ("identity", False),
        ("deflate, br", False),
        ("", False),
        ("gzip;q=nonsense", False),
    ],
)
def test_accept_encoding_is_read_as_rfc_9110_says(header, takes):
    assert accepts_gzip(header) is takes


def test_a_small_page_goes_plain_to_everyone_with_one_etag():
    t, _session, _staff = played()
    path = f"/t/{t.slug}/statistics.json"
    for _ in range(2):  # through the view, then kept
        zipped = Client().get(path, headers={"accept-encoding": "gzip"})
        plain = Client().get(path)
        assert len(plain.content) < 1024 and zipped.content == plain.content
        assert "Content-Encoding" not in zipped and zipped["ETag"] == plain["ETag"]
        assert "Accept-Encoding" in vary(zipped)


def test_a_client_that_refuses_gzip_gets_the_plain_page_with_its_own_etag():
    t, _session, _staff = played()
    path = f"/t/{t.slug}/"
    zipped = Client().get(path, headers={"accept-encoding": "gzip"})
    refused = Client().get(path, headers={"accept-encoding": "gzip;q=0, identity"})
    assert "Content-Encoding" not in refused and refused.content.startswith(b"<!")
    assert "Accept-Encoding" in vary(refused)
    assert refused["ETag"] != zipped["ETag"]


@pytest.mark.parametrize("page", PAGES)
def test_a_refresh_that_finds_nothing_new_gets_304_without_a_query_or_a_body(page):
    t, _session, _staff = played()
    path = f"/t/{t.slug}/{page}"
    for encoding in ("gzip", "identity"):
        first = Client().get(path, headers={"accept-encoding": encoding})
        again, count = get(Client(), path, accept_encoding=encoding, if_none_match=first["ETag"])
        assert again.status_code == 304 and count == 0
        assert again.content == b"" and not again.templates
        assert again["ETag"] == first["ETag"] and vary(again) == vary(first)
        assert again["Cache-Control"] == "no-cache"
        assert "Content-Encoding" not in again
    # Either variant's ETag names this page, weak or strong, among others.
    plain = Client().get(path)["ETag"]
    held = f'"other", W/{plain}'
    again, _count = get(Client(), path, accept_encoding="gzip", if_none_match=held)
    assert again.status_code == 304 and again["ETag"] == plain


def test_a_confirmation_changes_the_etag_and_the_old_one_gets_the_new_page():
    t, session, staff = played(players=12)
    path = f"/t/{t.slug}/"
    old = Client().get(path, headers={"accept-encoding": "gzip"})
    assert Client().get(path, headers={"if-none-match": old["ETag"]}).status_code == 304
    f.play(session.tables.get(number=2), [60000, 25000, 20000, 15000], *pair(staff))
    new = Client().get(path, headers={"accept-encoding": "gzip", "if-none-match": old["ETag"]})
    assert new.status_code == 200 and new["ETag"] != old["ETag"]
    assert "60,000" in gzip.decompress(new.content).decode()
    again, count = get(Client(), path, accept_encoding="gzip", if_none_match=new["ETag"])
    assert again.status_code == 304 and count == 0


def test_a_player_page_kept_across_a_confirmation_has_the_etag_of_its_new_rank():
    t, session, staff = played(slug="wire-ranks", players=12)  # p01-p04 played at table 1
    path = f"/t/{t.slug}/p/p03/"
    old = Client().get(path, headers={"accept-encoding": "gzip"})
    assert "Rank 11 · " in gzip.decompress(old.content).decode()  # third at table 1, -15,000
    # Table 2 plays: p03 played nothing new, their page is kept, two players drop below them.
    f.play(session.tables.get(number=2), [60000, 30000, 25000, 5000], *pair(staff))
    assert Client().get(f"/t/{t.slug}/").status_code == 200  # the new revision is read
    new = Client().get(path, headers={"accept-encoding": "gzip", "if-none-match": old["ETag"]})
    # Drawn again: with 12 players the top 10 the page shows changed too (issue 39); kept with
    # stand-ins across a confirmation that leaves the top 10: test_public_cache.py.
    assert new.status_code == 200
    assert new["ETag"] != old["ETag"]
    assert "Rank 9 · " in gzip.decompress(new.content).decode()
    again, count = get(Client(), path, accept_encoding="gzip", if_none_match=new["ETag"])
    assert again.status_code == 304 and count == 0
    plain = Client().get(path)
    assert gzip.decompress(new.content) == plain.content
    assert new["ETag"] == plain["ETag"][:-1] + '-gz"'


def test_an_unchanged_page_keeps_its_etag_when_the_store_starts_over():
    """The ETag is a digest of the body: after a restart (an empty store) a phone's copy of a
    page that did not change is still good."""
    t, _session, _staff = played(slug="wire-restart")
    path = f"/t/{t.slug}/"
    old = Client().get(path)
    cache.clear()
    again = Client().get(path, headers={"if-none-match": old["ETag"]})
    assert again.status_code == 304 and again.content == b""


def test_club_pages_are_gzipped_and_answer_304_until_a_confirmation():
    officer, second = f.user("officer", CLUB_OFFICER), f.user("second", CLUB_OFFICER)
    club = save_club(None, {"name": "Furiten", "slug": "wire-club", "min_games": 1}, officer)
    members = [
        add_member(club, Person.objects.create(name=name), officer)
        for name in ("Anna", "Bartek", "Celina", "Dawid")
    ]

    def game(scores):
        seats = [(m, score, 0) for m, score in zip(members, scores, strict=True)]
        draft = record_game(club, seats, officer, played_on=datetime.date(2024, 3, 5))
        confirm_game(draft, second)

    game([45300, 30100, 25000, 19600])
    for page in ("", "?season=all", "rating.json", "games/"):
        path = f"/r/{club.slug}/{page}"
        first = Client().get(path, headers={"accept-encoding": "gzip"})
        plain = Client().get(path)
        assert first["Cache-Control"] == "no-cache" and "Accept-Encoding" in vary(first)
        if len(plain.content) >= 1024:
            assert gzip.decompress(first.content) == plain.content
            assert first["ETag"] == plain["ETag"][:-1] + '-gz"'
        else:  # a small feed goes plain to everyone
            assert "Content-Encoding" not in first and first["ETag"] == plain["ETag"]
        again, count = get(Client(), path, accept_encoding="gzip", if_none_match=first["ETag"])
        assert again.status_code == 304 and count == 0 and again.content == b""
    path = f"/r/{club.slug}/"
    old = Client().get(path)["ETag"]
    game([20000, 30000, 25000, 45000])
    new = Client().get(path, headers={"if-none-match": old})
    assert new.status_code == 200 and new["ETag"] != old


def test_staff_and_visitors_with_messages_get_the_normal_page():
    t, _session, staff = played(slug="wire-staff")
    path = f"/t/{t.slug}/"
    visitor = Client().get(path, headers={"accept-encoding": "gzip"})
    desk, waiting = f.login(staff["desk1"]), Client()
    waiting.cookies["messages"] = "x"
    for client in (desk, waiting):
        response = client.get(path, headers={"accept-encoding": "gzip", "if-none-match": "*"})
        assert response.status_code == 200 and response.content.startswith(b"<!")
        assert "ETag" not in response and "Content-Encoding" not in response
        response = client.get(path, headers={"if-none-match": visitor["ETag"]})
        assert response.status_code == 200 and "ETag" not in response
    assert "Log out desk1" in desk.get(path).content.decode()
