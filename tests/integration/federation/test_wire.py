"""The federation server's /api/publish/ (docs/features/federation.md "The wire"): each answer,
through
the real address and database."""

import datetime
import gzip
import json

import pytest

from archive.tournament_file import UNPACKED_LIMIT, export_tournament
from club.models import Club
from core.errors import ActionRefused
from federation.keys import key_text, make_key, revoke_key
from federation.models import Mirror, PublishingKey
from tests.support import factories as f
from tests.support.federation import answer, packed, send
from tournament.models import Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def hall():
    """The hall's tournament (slug "hall-open"), one session played and confirmed."""
    people = f.staff()
    t = f.tournament(slug="hall-open")
    f.grant(people["desk1"], t)
    f.grant(people["desk2"], t)
    session = f.seat_session(t)
    for table in session.tables.order_by("number"):
        f.play(table, [45000, 35000, 25000, 15000], people["desk1"], people["desk2"])
    return t


@pytest.fixture
def organiser():
    return f.user("org")


@pytest.fixture
def key(organiser):
    return make_key(organiser, "tournament", "world-open", "main hall")


def standings(client, slug):
    return json.loads(client.get(f"/t/{slug}/standings.json").content)


def test_a_file_is_stored_under_the_keys_slug_and_its_pages_equal_the_halls(client, hall, key):
    body = packed(export_tournament(hall))
    status, data = answer(send(key_text(key), "tournament", 3, body))
    assert (status, data) == (200, {"have": 3})
    mirrored = Tournament.objects.get(slug="world-open")  # the file said "hall-open"
    assert mirrored.pk != hall.pk
    mirror = Mirror.objects.get(kind="tournament", slug="world-open")
    assert (mirror.revision, mirror.key_id) == (3, key.pk)
    assert mirror.changed_at.isoformat() == "2026-11-28T13:05:09+00:00"
    assert mirror.heard_at and mirror.received_at
    key.refresh_from_db()
    assert key.last_used_at is not None
    hall_feed, mirror_feed = standings(client, "hall-open"), standings(client, "world-open")
    assert mirror_feed["standings"] == hall_feed["standings"]
    page = client.get("/t/world-open/").content.decode()
    assert "Live from the hall, updated 14:05:09" in page  # Europe/Warsaw, the tournament's
    assert "Last heard from the desk:" in page
    assert "Live from the hall" not in client.get("/t/hall-open/").content.decode()
    for address in ("/t/world-open/find/", "/t/world-open/p/p01/", "/t/world-open/clock/"):
        assert "Live from the hall, updated 14:05:09" in client.get(address).content.decode()


def test_the_same_revision_again_is_held_and_nothing_is_rewritten(hall, key):
    body = packed(export_tournament(hall))
    send(key_text(key), "tournament", 3, body)
    pk = Tournament.objects.get(slug="world-open").pk
    assert answer(send(key_text(key), "tournament", 3, body)) == (200, {"have": 3})
    assert Tournament.objects.get(slug="world-open").pk == pk


def test_a_newer_revision_replaces_the_mirror_and_an_older_one_is_refused(hall, key):
    body = packed(export_tournament(hall))
    send(key_text(key), "tournament", 3, body)
    first = Tournament.objects.get(slug="world-open").pk
    assert answer(send(key_text(key), "tournament", 5, body)) == (200, {"have": 5})
    assert Tournament.objects.get(slug="world-open").pk != first
    status, data = answer(send(key_text(key), "tournament", 4, body))
    assert status == 409 and data["have"] == 5 and "older" in data["error"]
    assert Mirror.objects.get(slug="world-open").revision == 5


def test_a_bad_signature_and_an_unknown_key_are_401(hall, key):
    body = packed(export_tournament(hall))
    status, data = answer(send(key_text(key), "tournament", 1, body, secret="not-it"))
    assert status == 401 and "have" not in data and data["error"]
    status, data = answer(send(f"{key.pk + 100}.abc", "tournament", 1, body))
    assert status == 401 and data["error"]
    assert not Tournament.objects.filter(slug="world-open").exists()


def test_a_revoked_key_and_the_other_kind_are_403_and_the_mirror_stays(hall, key):
    body = packed(export_tournament(hall))
    send(key_text(key), "tournament", 1, body)
    status, data = answer(send(key_text(key), "club", 2, body))
    assert status == 403 and data["have"] == 1 and data["error"]
    revoke_key(key)
    status, data = answer(send(key_text(key), "tournament", 2, body))
    assert status == 403 and data["have"] == 1 and "revoked" in data["error"]
    assert Mirror.objects.get(slug="world-open").revision == 1
    assert Tournament.objects.filter(slug="world-open").exists()


def test_not_gzip_is_400(key):
    status, data = answer(send(key_text(key), "tournament", 1, b"{}"))
    assert status == 400 and data["have"] == 0 and "gzip" in data["error"]
    truncated = gzip.compress(b'{"format": 1}' * 100)[:-20]
    status, data = answer(send(key_text(key), "tournament", 1, truncated))
    assert status == 400 and "gzip" in data["error"]
    assert not Mirror.objects.exists()


def test_a_file_that_unpacks_past_20_mb_is_400_and_is_not_unpacked_whole(key):
    bomb = gzip.compress(b" " * (UNPACKED_LIMIT + 1))
    assert len(bomb) < 100_000
    status, data = answer(send(key_text(key), "tournament", 1, bomb))
    assert status == 400 and "20 MB" in data["error"]
    assert not Mirror.objects.exists()


def test_not_json_is_400(key):
    status, data = answer(send(key_text(key), "tournament", 1, gzip.compress(b"{nope")))
    assert status == 400 and "not valid JSON" in data["error"]


def test_a_file_the_import_refuses_is_400_naming_its_path_and_nothing_changes(hall, key):
    good = export_tournament(hall)
    send(key_text(key), "tournament", 1, packed(good))
    bad = export_tournament(hall)
    bad["sessions"][0]["tables"][0]["seats"][0]["score"] = "lots"
    status, data = answer(send(key_text(key), "tournament", 2, packed(bad)))
    assert status == 400 and data["have"] == 1
    assert data["error"].startswith("sessions[0].tables[0].seats[0].score: ")
    assert Mirror.objects.get(slug="world-open").revision == 1


def test_a_missing_changed_at_is_400_naming_the_header(hall, key):
    body = packed(export_tournament(hall))
    status, data = answer(send(key_text(key), "tournament", 1, body, changed_at="14:05"))
    assert status == 400 and data["error"].startswith("X-Desk-Changed-At: ")


def test_a_heartbeat_updates_only_last_heard(client, hall, key):
    assert answer(send(key_text(key), "tournament", 7, b"")) == (200, {"have": 0})
    send(key_text(key), "tournament", 3, packed(export_tournament(hall)))
    mirror = Mirror.objects.get(slug="world-open")
    Mirror.objects.filter(pk=mirror.pk).update(heard_at=mirror.heard_at.replace(year=2020))
    revision = Tournament.objects.get(slug="world-open").revision
    assert answer(send(key_text(key), "tournament", 3, b"")) == (200, {"have": 3})
    again = Mirror.objects.get(pk=mirror.pk)
    assert again.heard_at.year != 2020 and again.revision == 3
    assert again.changed_at == mirror.changed_at and again.received_at == mirror.received_at
    # The public pages are kept by the tournament's revision: a heartbeat leaves it.
    assert Tournament.objects.get(slug="world-open").revision == revision
    heard = json.loads(client.get("/api/heard/tournament/world-open/").content)
    assert heard["heard"] and heard["changed"] == "14:05:09"
    assert client.get("/api/heard/tournament/hall-open/").status_code == 404


def test_a_revision_that_is_not_a_whole_number_is_400_naming_the_header(key):
    from django.test import Client

    from core import signed

    for revision in ("x", "-1", str(2**63)):
        response = Client().post(
            "/api/publish/",
            data=b"",
            content_type="application/json",
            headers={signed.KEY: str(key.pk), signed.KIND: "tournament", signed.REVISION: revision},
        )
        status, data = answer(response)
        assert status == 400 and data["error"].startswith("X-Desk-Revision: "), revision


def test_only_post_reaches_the_wire(client):
    assert client.get("/api/publish/").status_code == 405


def test_a_new_key_takes_over_a_revoked_keys_mirror_from_its_own_revision(hall, key, organiser):
    body = packed(export_tournament(hall))
    send(key_text(key), "tournament", 9, body)
    revoke_key(key)
    second = make_key(organiser, "tournament", "world-open")
    assert answer(send(key_text(second), "tournament", 1, b"")) == (200, {"have": 0})
    assert answer(send(key_text(second), "tournament", 1, body)) == (200, {"have": 1})
    assert Mirror.objects.get(slug="world-open").key_id == second.pk
    # Another organiser cannot take the address over, its key revoked or not.
    revoke_key(second)
    with pytest.raises(ActionRefused) as refused:
        make_key(f.user("intruder"), "tournament", "world-open")
    assert refused.value.field == "slug" and "another organiser" in refused.value.message


# --- a club rating -----------------------------------------------------------------------------


def rows(feed):
    return [(r["rank"], r["person"]["name"], r["rating"], r["games"]) for r in feed["rows"]]


@pytest.fixture
def club_hall():
    from club.services import add_member, confirm_game, record_game, save_club
    from people.models import Person

    one, two = f.user("officer1"), f.user("officer2")
    club = save_club(None, {"name": "Furiten", "slug": "furiten"}, one)
    members = [add_member(club, Person.objects.create(name=n), one) for n in "ABCD"]
    scores = [45000, 35000, 25000, 15000]
    seats = [(m, s, 0) for m, s in zip(members, scores, strict=True)]
    version = record_game(club, seats, one, played_on=datetime.date(2026, 11, 20))
    confirm_game(version, two)
    return Club.objects.get(pk=club.pk)


def test_a_club_file_is_stored_under_the_keys_slug_and_replaced_by_a_newer(
    client, club_hall, organiser
):
    from archive.club_file import export_club

    key = make_key(organiser, "club", "furiten-live")
    body = packed(export_club(club_hall))
    assert answer(send(key_text(key), "club", 1, body)) == (200, {"have": 1})
    assert answer(send(key_text(key), "club", 2, body)) == (200, {"have": 2})
    assert Club.objects.filter(slug="furiten-live").count() == 1
    hall = json.loads(client.get("/r/furiten/rating.json").content)
    mirror = json.loads(client.get("/r/furiten-live/rating.json").content)
    assert rows(mirror) == rows(hall) and len(rows(hall)) == 4
    for address in ("/r/furiten-live/", "/r/furiten-live/games/"):
        page = client.get(address).content.decode()
        assert "Live from the hall, updated 14:05:09" in page, address
    bad = export_club(club_hall)
    bad["games"][0]["versions"][0]["scores"][0]["wind"] = "X"
    status, data = answer(send(key_text(key), "club", 3, packed(bad)))
    assert status == 400 and data["have"] == 2
    assert data["error"].startswith("games[0].versions[0].scores[0].wind: ")
    assert Club.objects.filter(slug="furiten-live").count() == 1
    status, _data = answer(send(key_text(key), "tournament", 3, body))
    assert status == 403
    assert PublishingKey.objects.get(pk=key.pk).last_used_at is not None
