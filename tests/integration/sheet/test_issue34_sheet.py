"""Issue 34, findings 9 and 11, through the table page's real addresses and the desk's typed
hands: a device confirms for whom it is and the version its player saw; crafted requests are
refused with a 400 and a message naming what is wrong, never a 500, and change nothing."""

import json
import uuid

import pytest
from django.contrib.auth import get_user_model

from mahjong.hands.riichi import HAN_MAX
from scoring.models import Hand, HandConfirmation, Via
from seating.keys import table_path
from tests.support import factories as f

pytestmark = pytest.mark.django_db

RON = {"result": "ron", "from": "W", "wins": [{"seat": "S", "han": 2, "fu": 30}], "riichi": []}
HAN_MESSAGE = f"Han is a whole number from 1 to {HAN_MAX} (13 and more: a yakuman)."


@pytest.fixture
def table():
    t = f.tournament(players=4)
    return f.seat_session(t).tables.get()


def send(client, table, raw: str | bytes):
    response = client.post(table_path(table) + "act/", raw, content_type="application/json")
    assert response["Content-Type"] == "application/json"
    return response.status_code, response.json()


def post(client, table, body):
    return send(client, table, json.dumps(body))


def record(client, table, data, number, device="E"):
    body = {"action": "record", "data": data, "number": number, "device": device}
    return post(client, table, body | {"client_id": str(uuid.uuid4())})


def confirm(client, table, number, version, wind, device=""):
    body = {"action": "confirm", "number": number, "version": version, "wind": wind}
    return post(client, table, body | {"device": device})


# --- finding 11: a device confirms for whom it is --------------------------------------------


def test_a_players_phone_confirms_only_that_players_seat(client, table):
    """Issue 34 (11): "a device that says it is South confirmed East" — refused, naming both;
    the device's own seat is confirmed and the confirmation keeps which device it was."""
    record(client, table, RON, 1)
    status, body = confirm(client, table, 1, 1, "E", device="S")
    assert status == 400
    assert body["error"] == "This device is South's: it confirms only South, not East."
    assert body["field"] == "wind"
    assert not HandConfirmation.objects.exists()
    status, body = confirm(client, table, 1, 1, "S", device="S")
    assert status == 200 and body["state"]["hands"][0]["confirmed"] == ["S"]
    confirmation = HandConfirmation.objects.get()
    assert (confirmation.wind, confirmation.device, confirmation.via) == ("S", "S", Via.TABLE)


def test_a_shared_table_device_confirms_each_seat_with_that_players_tap(client, table):
    """A device that says it is nobody's (the table's shared phone) confirms each seat with one
    tap per seat, as before; each confirmation says no device."""
    record(client, table, RON, 1)
    for wind in "ESWN":
        assert confirm(client, table, 1, 1, wind)[0] == 200
    assert sorted(HandConfirmation.objects.values_list("wind", "device")) == [
        ("E", ""),
        ("N", ""),
        ("S", ""),
        ("W", ""),
    ]


def test_a_confirmation_carries_the_version_the_player_saw(client, table):
    """Issue 34 (11): "a queued confirmation takes the hand's version when it is sent, not when
    it was tapped". The page sends the version of the tap; a version the table no longer has
    current is refused, naming the hand and both versions, and nothing is confirmed."""
    record(client, table, RON, 1)
    fix = {**RON, "wins": [{"seat": "S", "han": 3, "fu": 30}]}
    corrected = {"action": "correct", "number": 1, "version": 1, "data": fix, "reason": "3 han"}
    assert post(client, table, corrected | {"client_id": str(uuid.uuid4())})[0] == 200
    status, body = confirm(client, table, 1, 1, "E", device="E")
    assert status == 400 and body["field"] == "version"
    assert body["error"] == (
        "Hand 1 has changed since version 1 was shown: look at version 2 and confirm it."
    )
    assert body["state"]["hands"][0]["confirmed"] == []
    assert confirm(client, table, 1, 2, "E", device="E")[0] == 200
    # a hand undone since: nothing to confirm
    record(client, table, RON, 2)
    undo = {"action": "undo", "number": 2, "version": 1, "reason": "not played"}
    assert post(client, table, undo)[0] == 200
    status, body = confirm(client, table, 2, 1, "S")
    assert status == 400
    assert body["error"] == "Hand 2 (version 1) has been undone since: there is nothing to confirm."
    # a version never recorded, and a confirmation without its version
    status, body = confirm(client, table, 1, 7, "S")
    assert status == 400 and body["error"] == "The table has no hand 1 in version 7."
    status, body = post(client, table, {"action": "confirm", "number": 1, "wind": "S"})
    assert status == 400 and body["error"] == "version: a whole number is needed."
    assert list(HandConfirmation.objects.values_list("hand__version", "wind")) == [(2, "E")]


def test_the_admin_shows_which_device_confirmed(client, table):
    record(client, table, RON, 1)
    confirm(client, table, 1, 1, "W", device="W")
    """The admin's read-only hand shows each confirmation's seat, where and by which device."""
    admin = get_user_model().objects.create_superuser("root34", password="x")
    page = f.login(admin).get(f"/admin/scoring/hand/{Hand.objects.get().pk}/change/")
    assert page.status_code == 200
    text = page.content.decode()
    assert "Device of" in text and "the table page" in text
    assert text.count("West") >= 2  # the seat, and the device it was confirmed on


# --- finding 9: crafted requests are refused with a message, never a 500 ----------------------


def test_json_nested_5000_deep_is_refused_before_it_is_parsed(client, table):
    """Issue 34 (9): "JSON nested 5,000 deep on the table page" answered 500 (RecursionError)."""
    deep = '{"action": "record", "number": 1, "data": ' + "[" * 5000 + "]" * 5000 + "}"
    status, body = send(client, table, deep)
    assert status == 400 and body["field"] == "body"
    assert body["error"] == "The request is nested 5001 levels deep: at most 8."
    assert send(client, table, "[" * 5000 + "]" * 5000)[0] == 400
    assert send(client, table, "{" * 3000)[0] == 400  # nor a broken one
    status, body = send(client, table, '{"a":' * 9 + "1" + "}" * 9)
    assert status == 400 and body["error"] == "The request is nested 9 levels deep: at most 8."
    # brackets inside a string are words, not depth
    record(client, table, RON, 1)
    fix = {**RON, "wins": [{"seat": "S", "han": 3, "fu": 30}]}
    reason = '[{"' * 2000
    correct = {"action": "correct", "number": 1, "version": 1, "data": fix, "reason": reason}
    assert post(client, table, correct | {"client_id": str(uuid.uuid4())})[0] == 200
    assert Hand.objects.count() == 2


def test_a_request_past_the_size_limit_or_not_json_is_refused(client, table):
    status, body = send(client, table, '{"action": "send", "x": "' + "a" * 20_000 + '"}')
    assert status == 400 and body["error"] == "The request is too large: at most 20000 bytes."
    for raw in (b"\xff\xfe", "not json", "[]", '"record"'):
        status, body = send(client, table, raw)
        assert status == 400 and body["error"] == "The request is not a JSON object."
    status, body = send(client, table, '{"action": "send", "n": ' + "9" * 5000 + "}")
    assert status == 400
    assert body["error"] == "The request has a number of 5000 digits: at most 1000."
    assert not Hand.objects.exists()


def test_a_correction_or_confirmation_carrying_another_tables_hand_is_refused(client):
    """Issue 34 (9): "a correction carrying another table's hand id" answered 500 (the id is
    unique in the database). Ids and numbers are this table's only."""
    t = f.tournament(players=8)
    one, two = f.seat_session(t).tables.order_by("number")
    theirs = uuid.uuid4()
    body = {"action": "record", "data": RON, "number": 1, "client_id": str(theirs)}
    assert post(client, one, body)[0] == 200
    record(client, two, RON, 1)
    fix = {**RON, "wins": [{"seat": "S", "han": 3, "fu": 30}]}
    correct = {"action": "correct", "number": 1, "version": 1, "data": fix, "reason": "3 han"}
    status, answer = post(client, two, correct | {"client_id": str(theirs)})
    assert status == 400 and answer["field"] == "client_id"
    assert answer["error"] == "This hand was recorded at another table."
    # the same id recorded at another table, as before
    status, answer = post(client, two, body | {"number": 2})
    assert status == 400 and answer["error"] == "This hand was recorded at another table."
    assert Hand.objects.count() == 2
    # table one has a hand 2 version 1; table two does not: a confirmation is this table's
    record(client, one, RON, 2)
    status, answer = confirm(client, two, 2, 1, "E")
    assert status == 400 and answer["error"] == "The table has no hand 2 in version 1."
    assert not HandConfirmation.objects.exists()


@pytest.mark.parametrize(
    "raw, message",
    [
        ('{"E": Infinity}', "The request has Infinity, which is not a number JSON allows."),
        ('{"E": -Infinity}', "The request has -Infinity, which is not a number JSON allows."),
        ('{"E": NaN}', "The request has NaN, which is not a number JSON allows."),
        ('{"E": 1e400}', "The request has the number 1e400, too large to be one."),
        ('{"E": 32.9}', "winds.E: a player's id (a whole number) is needed."),
        ('{"E": 32.0}', "winds.E: a player's id (a whole number) is needed."),
        ('{"E": true}', "winds.E: a player's id (a whole number) is needed."),
        ('{"E": [1]}', "winds.E: a player's id (a whole number) is needed."),
    ],
)
def test_the_winds_draw_takes_whole_player_ids_only(client, raw, message):
    """Issue 34 (9): "Infinity in the winds action (and 32.9 read as player 32)"."""
    t = f.tournament(players=4, winds="table")
    table = f.seat_session(t).tables.get()
    status, body = send(client, table, '{"action": "winds", "winds": ' + raw + "}")
    assert status == 400 and body["error"] == message
    table.refresh_from_db()
    assert client.get(table_path(table) + "state.json").json()["winds_pending"] is True


def test_the_winds_draw_takes_ids_as_the_page_sends_them(client):
    """The page's select sends each id as its digits: those are whole numbers too."""
    t = f.tournament(players=4, winds="table")
    table = f.seat_session(t).tables.get()
    seats = client.get(table_path(table) + "state.json").json()["seats"]
    drew = {s["wind"]: str(s["player"]) for s in seats}
    status, body = post(client, table, {"action": "winds", "winds": drew})
    assert status == 200 and body["state"]["winds_pending"] is False


@pytest.mark.parametrize(
    "value, message",
    [
        (2.0, "number: a whole number is needed."),
        (True, "number: a whole number is needed."),
        (10**30, "number: a whole number from 1 to 2147483647 is needed."),
        (0, "number: a whole number from 1 to 2147483647 is needed."),
        (-1, "number: a whole number from 1 to 2147483647 is needed."),
    ],
)
def test_a_hands_number_is_a_whole_number_in_range(client, table, value, message):
    """A number past the database's integer answered 500 on both databases."""
    status, body = post(client, table, {"action": "confirm", "number": value, "version": 1})
    assert status == 400 and body["error"] == message and body["field"] == "number"
    status, body = record(client, table, RON, value)
    assert status == 400 and body["error"] == message
    assert not Hand.objects.exists()


@pytest.mark.parametrize("han", [10**20, 10**400, HAN_MAX + 1, 0, 2.5])
def test_han_past_the_rule_sets_bound_is_refused(client, table, han):
    """Issue 34 (9): "Han 10^20 and 10^400 are accepted as yakuman and stored digit for digit".
    docs/rules.md §5.1: "13 and more yakuman" — any han above 13 pays as 13; a sheet takes up to
    HAN_MAX (99) and refuses more, naming the win's han."""
    hand = {"result": "tsumo", "wins": [{"seat": "E", "han": han}], "riichi": []}
    status, body = record(client, table, hand, 1)
    assert status == 400
    assert body["error"] == f"hands[0].wins[0].han: {HAN_MESSAGE}"
    assert not Hand.objects.exists()


@pytest.mark.parametrize("han", [13, 15, HAN_MAX])
def test_han_of_13_and_more_is_a_counted_yakuman(client, table, han):
    """docs/rules.md §5.1: "13 and more yakuman (8,000)": the dealer's self-draw, 16,000 each."""
    hand = {"result": "tsumo", "wins": [{"seat": "E", "han": han}], "riichi": []}
    status, body = record(client, table, hand, 1)
    assert status == 200 and Hand.objects.get().data["wins"][0]["han"] == han


# --- finding 9 at the desk: typed han and fu ---------------------------------------------------


@pytest.fixture
def desk():
    staff = f.staff()
    return f.login(staff["desk1"])


def typed(desk, t, text, seen=""):
    return desk.post(f"/desk/{t.slug}/s/1/t/1/hands/", {"text": text, "seen": seen, "save": "1"})


@pytest.mark.parametrize(
    "text, message",
    [
        ("tsumo E " + "9" * 5000, "Line 1, column 9: “999999…” is too large a number of han."),
        ("ron S<W 3/" + "4" * 4400, "Line 1, column 11: “444444…” is too large a number of fu."),
        ("tsumo E 1000", "Line 1, column 9: “1000” is too large a number of han."),
        ("tsumo E 100", f"Line 1: {HAN_MESSAGE}"),
        ("ron S<W 3/120", "Line 1: Fu are 20, 25, or 30 to 110 in tens, not 120."),
    ],
)
def test_typed_han_or_fu_past_their_bounds_is_named(desk, text, message):
    """Issue 34 (9): "a typed han or fu over 4,300 digits" answered 500 (Python's int()
    refuses more); the line, the column and the field are named, and nothing is saved."""
    t = f.tournament(players=4)
    f.seat_session(t)
    response = typed(desk, t, text)
    assert response.status_code == 400
    assert message in response.content.decode()
    assert not Hand.objects.exists()


def test_typed_sichuan_fans_past_their_bound_are_named(desk):
    t = f.tournament(ruleset="sbr-2025", players=4, slug="sichuan-34")
    f.seat_session(t)
    response = typed(desk, t, "hu S " + "2" * 5000 + "<E")
    assert response.status_code == 400
    assert "Line 1, column 6: “222222…” is too large a number of fans." in (
        response.content.decode()
    )
    response = typed(desk, t, "hu S 1<E; end E:w" + "1" * 5000)
    assert response.status_code == 400 and "too large a number of fans" in (
        response.content.decode()
    )


def test_the_typed_pages_list_of_hands_is_checked(desk):
    """The hidden list of the hands the page showed: 5,000 digits were one id for int()."""
    t = f.tournament(players=4)
    f.seat_session(t)
    response = typed(desk, t, "tsumo E 5", seen="1" * 5000)
    assert response.status_code == 400
    assert "seen: the page&#x27;s list of hands is damaged; reload the page." in (
        response.content.decode()
    )
    assert not Hand.objects.exists()
    assert typed(desk, t, "tsumo E 5").status_code == 302
