"""The standby desk (publishing.standby; docs/features/standby.md) in one process: the main
desk's standby sender (publishing.sender) posts through Django's test client to this same desk's
/api/standby/, whose standby keeps what it gets on disk only, so one database plays both
laptops until the take-over. The real two-laptop test, with kill -9, is
tests/e2e/test_standby_kill.py."""

import json

import pytest
from django.test import Client

from archive.tournament_file import dumps, export_tournament, unpacked
from club.models import Club, Member
from club.services.clubs import save_club
from club.services.members import add_member
from core import signed
from people.models import Person
from publishing import sender, spool, standby
from publishing.models import Publication, Standby
from publishing.services import set_standby
from scoring.selectors.ranking import standings
from seating.keys import table_code, table_key
from tests.support import factories as f
from tests.support.standby_client import ClientSender
from tournament.models import Tournament
from tournament.services import save_tournament

pytestmark = pytest.mark.django_db
LATER = 10_000  # seconds: every wait of the sender is over
HALL = "http://192.168.1.12:8000"


@pytest.fixture
def stream(settings, tmp_path, monkeypatch):
    settings.DATA_DIR = tmp_path
    one = ClientSender()
    monkeypatch.setitem(sender.SENDERS, sender.STANDBY, one)
    return one


@pytest.fixture
def t(t, people):
    """The seated tournament (conftest.py) with table 1's result confirmed."""
    f.play(
        t.sessions.get(number=1).tables.get(number=1), [40000, 35000, 25000, 20000], *desk(people)
    )
    return t


def desk(people):
    return people["desk1"], people["desk2"]


@pytest.fixture
def paired(t, people, stream, committed, monkeypatch):
    """This desk made a standby, and paired with it (the standby's address is not reached: the
    client posts to this desk's own /api/standby/)."""
    with committed():
        save_club(None, {"name": "Furiten", "slug": "furiten"}, people["director"])
    with committed():
        made = standby.make_standby(people["director"])
    # One database plays both laptops: set_standby, which refuses to send from a laptop that
    # is a standby, is told this one is not while it pairs.
    with monkeypatch.context() as patch, committed():
        patch.setattr(standby, "waiting", lambda: None)
        set_standby(HALL, made.key, True, people["director"])
    return Standby.objects.get(pk=made.pk)


def ranked(t):
    return [(row.player.key, row.total) for row in standings(t).rows]


def held(made, kind, slug):
    return spool.read(kind, slug, standby.folder(made))


def held_data(made, kind, slug):
    return json.loads(unpacked(held(made, kind, slug).body))


def test_pairing_sends_every_tournament_and_club_and_the_accounts(paired):
    """set_standby: one publication per tournament and club and one of the accounts; the
    standby holds revision 1 of each, acknowledged."""
    got = {(r.kind, r.slug): r.revision for r in standby.received(paired)}
    assert got == {("desk", "desk"): 1, ("tournament", "open"): 1, ("club", "furiten"): 1}
    rows = Publication.objects.filter(target="standby")
    assert sorted(rows.values_list("kind", "slug", "revision", "sent_revision")) == [
        ("club", "furiten", 1, 1),
        ("desk", "desk", 1, 1),
        ("tournament", "open", 1, 1),
    ]


def test_a_confirmation_reaches_the_standby_as_the_full_file(paired, t, people, committed):
    """Each committed change: the tournament file of the newest state (archive), all of it."""
    with committed():
        f.play(
            t.sessions.get(number=1).tables.get(number=2),
            [20000, 25000, 35000, 40000],
            *desk(people),
        )
    assert held(paired, "tournament", "open").revision == 2
    assert held_data(paired, "tournament", "open") == json.loads(dumps(export_tournament(t)))


def test_a_new_tournament_joins_the_stream(paired, people, committed):
    with committed():
        save_tournament(Tournament(name="Later Cup", slug="later", ruleset="ema-2012"))
    assert held(paired, "tournament", "later").revision == 1


def test_an_account_change_reaches_the_standby(paired, people, committed):
    with committed():
        f.user("newdesk", "desk")
    accounts = held_data(paired, "desk", "desk")
    assert "newdesk" in [u["username"] for u in accounts["users"]]
    assert held(paired, "desk", "desk").revision >= 2


def test_the_stream_is_sealed(paired, stream, people, settings):
    """Nothing of a file is readable on the hall's network: no player's name, no password hash,
    not the desk's secret."""
    bodies = b"".join(content for _headers, content in stream.sent)
    assert len(bodies) > 1000
    assert b"Player 01" not in bodies
    assert settings.SECRET_KEY.encode() not in bodies
    assert people["desk1"].password.encode() not in bodies


def request(client, made, kind, slug, revision, content, secret=None, signs=None):
    secret = secret or made.secret
    return client.generic(
        "POST",
        "/api/standby/",
        content,
        content_type="application/octet-stream",
        headers={
            signed.KEY: made.key_id,
            signed.KIND: kind,
            signed.SLUG: slug,
            signed.REVISION: str(revision),
            signed.CHANGED_AT: "2026-11-28T12:00:00+00:00",
            signed.SIGNATURE: signed.signature(
                secret, signs or signed.standby_kind(kind, slug), revision, content
            ),
        },
    )


def sealed_file(made, t):
    return signed.seal(made.secret, spool.pack(dumps(export_tournament(t))))


def test_the_answers_of_api_standby(paired, t):
    """Idempotent by revision as the federation server: the same revision 200 (nothing written
    again), an older one 409, a request signed by another key or for another slug 401, a body
    not sealed with the key 400, a file of another slug than it is sent as 400."""
    client = Client()
    have = held(paired, "tournament", "open").revision
    body = sealed_file(paired, t)
    meta = standby.folder(paired) / "tournament-open.meta.json"
    before = meta.stat().st_mtime_ns
    same = request(client, paired, "tournament", "open", have, body)
    assert (same.status_code, same.json()) == (200, {"have": have})
    assert meta.stat().st_mtime_ns == before
    newer = request(client, paired, "tournament", "open", have + 5, body)
    assert (newer.status_code, newer.json()) == (200, {"have": have + 5})
    older = request(client, paired, "tournament", "open", have + 1, body)
    assert older.status_code == 409 and older.json()["have"] == have + 5
    forged = request(client, paired, "tournament", "open", have + 9, body, secret="x" * 40)
    assert forged.status_code == 401
    moved = request(client, paired, "tournament", "other", have + 9, body, signs="tournament:open")
    assert moved.status_code == 401
    plain = spool.pack(dumps(export_tournament(t)))
    unsealed = request(client, paired, "tournament", "open", have + 9, plain)
    assert unsealed.status_code == 400 and "not sealed" in unsealed.json()["error"]
    other = request(client, paired, "tournament", "spring", 1, body)
    assert other.status_code == 400 and "tournament.slug" in other.json()["error"]
    assert held(paired, "tournament", "open").revision == have + 5


def test_heartbeat_answers_what_the_standby_holds(paired):
    client = Client()
    have = held(paired, "desk", "desk").revision
    answer = request(client, paired, "desk", "desk", have + 3, b"")
    assert (answer.status_code, answer.json()) == (200, {"have": have})


def test_take_over_makes_this_laptop_the_desk(paired, t, people, settings, committed):
    """The newest files in the place of what this desk had: the tournament with its results,
    the accounts with their passwords, and the main desk's secret, so a table's link and code
    are those the main desk printed."""
    main_secret = settings.SECRET_KEY
    table = t.sessions.get(number=1).tables.get(number=1)
    link, code = table_key(table), table_code(table)
    main_standings = ranked(t)
    # The standby laptop's own state: the tournament differs, a password differs, another
    # secret.
    Tournament.objects.filter(pk=t.pk).update(name="Something else")
    desk1 = people["desk1"]
    desk1.set_password("standby's own")
    desk1.save()
    settings.SECRET_KEY = "another laptop's secret " + "x" * 40
    assert table_key(table) != link
    with committed():
        done = standby.take_over(people["director"])
    assert done.tournaments == ["Test Open"] and done.clubs == ["Furiten"] and done.secret
    assert settings.SECRET_KEY == main_secret
    assert (settings.DATA_DIR / "taken_secret_key").read_text() == main_secret
    taken = Tournament.objects.get(slug="open")
    assert taken.name == "Test Open"
    assert ranked(taken) == main_standings
    table = taken.sessions.get(number=1).tables.get(number=1)
    assert (table_key(table), table_code(table)) == (link, code)
    desk1.refresh_from_db()
    assert desk1.check_password("pw-desk1")
    assert taken.grants.filter(user=desk1, role="desk").exists()
    made = Standby.objects.get(pk=paired.pk)
    assert made.took_over and made.ended_by == people["director"]
    # The old main desk is refused from now on.
    answer = request(Client(), made, "tournament", "open", 99, sealed_file(made, taken))
    assert answer.status_code == 403


def test_take_over_refused_before_anything_arrived(people, stream):
    standby.make_standby(people["director"])
    with pytest.raises(standby.ActionRefused, match="Nothing has been received"):
        standby.take_over(people["director"])


def test_a_laptop_is_a_main_desk_or_a_standby_not_both(people, stream, committed):
    made = standby.make_standby(people["director"])
    with pytest.raises(standby.ActionRefused, match="is a standby"):
        set_standby(HALL, made.key, True, people["director"])
    standby.stop_standby(people["director"])
    with committed():
        set_standby(HALL, made.key, True, people["director"])
    with pytest.raises(standby.ActionRefused, match="sends its changes to a standby"):
        standby.make_standby(people["director"])


def test_bad_address_or_key_is_named_and_changes_nothing(people, stream):
    with pytest.raises(standby.ActionRefused) as refused:
        set_standby("ftp://x", "abc.def", True, people["director"])
    assert refused.value.field == "url"
    assert str(refused.value).startswith("Standby's address: must start with https://")
    with pytest.raises(standby.ActionRefused) as refused:
        set_standby(HALL, "no-dot", True, people["director"])
    assert refused.value.field == "key"
    assert str(refused.value).startswith("Pairing key: is not a publishing key")
    assert not Publication.objects.filter(target="standby").exists()


def test_the_page_shows_the_key_and_takes_over(paired, people, client, settings):
    """/desk/standby/ through its real address: the pairing key and what was received; take
    over only with the box ticked (400 naming it), then the page that sends everyone to log
    in."""
    client.force_login(people["director"])
    page = client.get("/desk/standby/")
    assert page.status_code == 200
    text = page.content.decode()
    assert paired.key in text and "Take over" in text
    refused = client.post("/desk/standby/", {"action": "take"})
    assert refused.status_code == 400
    assert "This field is required" in refused.content.decode()
    assert not Standby.objects.get(pk=paired.pk).took_over
    done = client.post("/desk/standby/", {"action": "take", "sure": "on"})
    assert done.status_code == 200
    assert "This laptop is the desk" in done.content.decode()
    assert Standby.objects.get(pk=paired.pk).took_over


def test_take_over_keeps_the_people_registry_and_who_each_player_and_member_is(
    paired, t, people, committed
):
    """The people registry (issue 25) is not in the tournament file: the accounts file carries
    it, with each player's and member's person, and the take-over links them again; the people
    the club file's restore made for its members are not left behind."""
    club = Club.objects.get(slug="furiten")
    with committed():
        anna = Person.objects.create(name="Anna Example", ema_id="12345678")
        boris = Person.objects.create(name="Boris Example")
        player = t.players.get(key="p01")
        player.person = anna
        player.save()
        add_member(club, boris, people["director"])
    assert len(held_data(paired, "desk", "desk")["people"]) == 2
    with committed():
        standby.take_over(people["director"])
    taken = Tournament.objects.get(slug="open")
    linked = taken.players.get(key="p01").person
    assert linked is not None and linked.name == "Anna Example" and linked.pk != anna.pk
    member = Member.objects.get(club__slug="furiten")
    assert member.person.name == "Boris Example" and member.person.pk != boris.pk
    # The original two, and the two the take-over made; none the club restore left behind.
    assert Person.objects.filter(name="Boris Example").count() == 2
    assert Person.objects.filter(name="Anna Example").count() == 2


def test_a_tournament_renamed_on_the_main_desk_is_not_brought_back(paired, t, people, committed):
    """The standby still holds the file of the old address; the accounts file names what the
    main desk has now, and only that is taken over."""
    with committed():
        t.slug = "renamed"
        save_tournament(t)
    assert held(paired, "tournament", "open") is not None
    assert held(paired, "tournament", "renamed") is not None
    with committed():
        done = standby.take_over(people["director"])
    assert done.tournaments == ["Test Open"]
    assert list(Tournament.objects.values_list("slug", flat=True)) == ["renamed"]


def test_what_is_kept_on_disk_is_the_desk_users_alone(paired, settings):
    """The accounts file holds the desk's secret and the password hashes: on both laptops it
    is kept like the secret key, readable by the desk's user alone."""
    sent = sender.STANDBY_SENDER.folder() / "desk-desk.json.gz"
    kept = standby.folder(paired) / "desk-desk.json.gz"
    assert sent.stat().st_mode & 0o777 == 0o600
    assert kept.stat().st_mode & 0o777 == 0o600


def test_a_standby_that_stopped_is_named_as_the_standby(paired, t, people, committed):
    """The main desk's page says what the standby answered, in the standby's words."""
    standby.stop_standby(people["director"])
    with committed():
        f.play(
            t.sessions.get(number=1).tables.get(number=2),
            [20000, 25000, 35000, 40000],
            *desk(people),
        )
    row = Publication.objects.get(target="standby", kind="tournament", slug="open")
    assert row.error_text().startswith("The standby refused the key: This standby has stopped")
