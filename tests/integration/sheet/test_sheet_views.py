"""Issue 24: the table page through its real addresses — reached by the table's link or short
code and nothing else, one self-contained document, each change one JSON post that a resend
records once, two devices' different hands a conflict, every refusal a message and no change,
and the sheet closed once the desk confirmed the table."""

import json
import re
import uuid

import pytest
from django.test import Client

from mahjong.hands.messages import CODES
from scoring.models import Hand, HandConfirmation, Result
from scoring.services import confirm_result
from seating.keys import table_code, table_key, table_path
from sheet.views import without_comment_lines
from tests.support import factories as f
from tournament.sessions import start_clock
from tournament.timekeeping import adjust_clock

pytestmark = pytest.mark.django_db

RON = {"result": "ron", "from": "W", "wins": [{"seat": "S", "han": 2, "fu": 30}], "riichi": ["S"]}
TSUMO = {"result": "tsumo", "wins": [{"seat": "E", "han": 1, "fu": 30}], "riichi": []}


@pytest.fixture
def table():
    t = f.tournament(players=4)
    return f.seat_session(t).tables.get()


def post(client, table, body):
    response = client.post(
        table_path(table) + "act/", json.dumps(body), content_type="application/json"
    )
    return response.status_code, response.json()


def time_up(table):
    """The session's clock run out: a riichi game not over may be sent to the desk
    (docs/using/table-page.md "The table's own score sheet"; issue 34)."""
    desk = f.user("clock-desk")
    start_clock(table.session, desk)
    adjust_clock(table.session, desk, -90)


def record(client, table, data, number, client_id=None):
    body = {"action": "record", "data": data, "number": number, "device": "E"}
    body["client_id"] = str(client_id or uuid.uuid4())
    return post(client, table, body)


def test_the_link_opens_the_table_page_and_a_wrong_key_nothing(client, table):
    page = client.get(table_path(table))
    assert page.status_code == 200
    assert "Table 1 · session 1" in page.content.decode()
    wrong = table_path(table).replace(table_key(table), "x" * 22)
    assert client.get(wrong).status_code == 404
    assert client.get(wrong + "state.json").status_code == 404
    assert post(client, table, {"action": "undo"})[0] == 400  # the right key, a bad request
    assert client.post(wrong + "act/", "{}", content_type="application/json").status_code == 404


def test_the_page_is_one_self_contained_document_under_100_kb(client, table):
    """Issue 24: the page never needs the network while it is open — no script, style sheet
    or image it would fetch; and it is at most 100 KB."""
    page = client.get(table_path(table))
    html = page.content.decode()
    assert not re.search(r"<script[^>]+src=|<link[^>]+stylesheet|<img ", html)
    assert "window.SheetScore" in html and "Ron" in html
    assert len(page.content) <= 100_000


def test_the_short_code_leads_to_the_table_page(client, table):
    code = table_code(table)
    assert re.fullmatch(r"[2-9A-HJKMNP-Z]{4}-[2-9A-HJKMNP-Z]{4}", code)
    typed = code.lower().replace("-", " ")
    response = client.post("/h/", {"code": typed})
    assert response.status_code == 302 and response["Location"] == table_path(table)
    wrong = client.post("/h/", {"code": "AAAA-AAAA"})
    assert "No table has the code AAAA-AAAA" in wrong.content.decode()


def test_a_hand_is_recorded_once_however_often_the_phone_sends_it(client, table):
    sent = uuid.uuid4()
    status, body = record(client, table, RON, 1, sent)
    assert status == 200 and [h["number"] for h in body["state"]["hands"]] == [1]
    status, body = record(client, table, RON, 1, sent)
    assert status == 200 and len(body["state"]["hands"]) == 1
    hand = Hand.objects.get()
    assert (hand.via, hand.device, hand.recorded_by) == ("table", "E", None)


def test_two_devices_with_different_hands_are_a_conflict(client, table):
    record(client, table, RON, 1)
    status, body = record(client, table, TSUMO, 1)
    assert status == 409
    assert body["conflict"] == {"number": 1, "version": 1, "data": RON}
    assert "Hand 1 was recorded by another device" in body["error"]
    assert Hand.objects.count() == 1


def test_an_impossible_hand_is_refused_naming_where_and_nothing_is_saved(client, table):
    """docs/rules.md §5.1: EMA leaves 1 han 20 fu on a discard empty."""
    bad = {"result": "ron", "from": "W", "wins": [{"seat": "S", "han": 1, "fu": 20}], "riichi": []}
    status, body = record(client, table, bad, 1)
    assert status == 400
    assert body["error"].startswith("hands[0].wins[0].fu: No hand of 1 han 20 fu wins on a")
    assert not Hand.objects.exists()
    status, body = post(client, table, {"action": "record", "data": RON, "number": "one"})
    assert status == 400 and body["error"] == "number: a whole number is needed."


def test_confirm_undo_correct_and_send_through_the_page(client, table):
    record(client, table, RON, 1)
    record(client, table, TSUMO, 2)
    undo = {"action": "undo", "number": 2, "version": 1, "reason": "Undone at the table."}
    assert post(client, table, undo)[0] == 200
    assert post(client, table, undo)[0] == 200  # sent twice: undone once
    assert Hand.objects.filter(superseded_at__isnull=True).count() == 1
    fix = {**RON, "wins": [{"seat": "S", "han": 3, "fu": 30}]}
    correct = {
        "action": "correct",
        "number": 1,
        "version": 1,
        "data": fix,
        "reason": "3 han",
        "client_id": str(uuid.uuid4()),
    }
    status, body = post(client, table, correct)
    assert status == 200 and body["state"]["hands"][0]["version"] == 2
    assert [(h["number"], h["version"], h["reason"]) for h in body["state"]["history"]] == [
        (1, 1, "3 han"),
        (2, 1, "Undone at the table."),
    ]
    status, body = post(client, table, {"action": "send"})
    assert status == 400 and "hand 1 waits" in body["error"]
    for wind in "ESWN":
        post(client, table, {"action": "confirm", "number": 1, "version": 2, "wind": wind})
    assert HandConfirmation.objects.count() == 4
    status, body = post(client, table, {"action": "send"})
    assert status == 400 and "the session's clock has not ended it" in body["error"]
    time_up(table)
    status, body = post(client, table, {"action": "send"})
    assert status == 200 and body["state"]["result"] == {"status": "draft", "version": 1}
    result = Result.objects.get()
    # docs/rules.md §5.1: 3 han 30 fu on a discard by a non-dealer is 3,900; with the stick.
    assert {s.wind: s.score for s in result.scores.all()} == {
        "E": 30000,
        "S": 33900,
        "W": 26100,
        "N": 30000,
    }


def test_the_sheet_closes_once_the_desk_confirms_the_table(client, table):
    record(client, table, RON, 1)
    for wind in "ESWN":
        post(client, table, {"action": "confirm", "number": 1, "version": 1, "wind": wind})
    time_up(table)
    post(client, table, {"action": "send"})
    staff = f.staff()
    confirm_result(Result.objects.get(), staff["desk1"])
    status, body = record(client, table, TSUMO, 2)
    assert status == 400 and "result is confirmed" in body["error"]
    assert body["state"]["locked"] == (
        "The desk has confirmed the table's result: the sheet is closed."
    )
    assert Hand.objects.count() == 1


def test_a_table_that_draws_its_winds_records_the_draw_first(client):
    """002 §2.4.6, 000 §2.3: the players draw their winds at the table; the table page's first
    step records who drew which wind, and no hand before that."""
    t = f.tournament(players=4, winds="table")
    table = f.seat_session(t).tables.get()
    state = client.get(table_path(table) + "state.json").json()
    assert state["winds_pending"] is True
    status, body = record(client, table, RON, 1)
    assert status == 400 and body["error"] == "Record who drew each wind at this table first."
    players = {s["wind"]: s["player"] for s in state["seats"]}
    drew = {"E": players["N"], "S": players["E"], "W": players["S"], "N": players["W"]}
    status, body = post(client, table, {"action": "winds", "winds": drew})
    assert status == 200 and body["state"]["winds_pending"] is False
    assert {s["wind"]: s["player"] for s in body["state"]["seats"]} == drew
    assert record(client, table, RON, 1)[0] == 200


def test_the_board_and_the_projector_show_the_tables_hands(client):
    """The clock page's table board: each table's scores from its hands, its hand count and
    how many wait for a confirmation; the projector's leading tables (clock.json?leading=N)."""
    staff = f.staff()
    t = f.tournament(players=8)
    tables = list(f.seat_session(t).tables.order_by("number"))
    record(client, tables[1], RON, 1)
    client.force_login(staff["desk1"])
    page = client.get(f"/desk/{t.slug}/s/1/clock/").content.decode()
    assert "1 hand · 1 unconfirmed" in page
    assert "South: <bdi>32,000</bdi>" in page and "West: <bdi>28,000</bdi>" in page
    client.logout()
    data = client.get(f"/t/{t.slug}/clock.json?leading=2&session=1").json()
    # before any result, the leading tables are the first tables
    assert [row["table"] for row in data["leading"]] == [1, 2]
    assert data["leading"][0]["hands"] == 0
    assert [s["score"] for s in data["leading"][1]["seats"]] == [30000, 32000, 28000, 30000]
    assert "leading" not in client.get(f"/t/{t.slug}/clock.json?session=1").json()
    assert "data-clock-leading" in client.get(f"/t/{t.slug}/clock/?leading=2").content.decode()


def test_a_change_needs_the_pages_form_token(table):
    """The table page's changes carry the form token like every write of the desk: without it
    403 and nothing changes; the page hands it to its script."""
    client = Client(enforce_csrf_checks=True)
    body = json.dumps({"action": "record", "data": RON, "number": 1})
    act = table_path(table) + "act/"
    assert client.post(act, body, content_type="application/json").status_code == 403
    assert not Hand.objects.exists()
    page = client.get(table_path(table)).content.decode()
    token = json.loads(
        re.search(r'<script id="boot" type="application/json">(.*?)</script>', page)[1]
    )["csrf"]
    response = client.post(act, body, content_type="application/json", HTTP_X_CSRFTOKEN=token)
    assert response.status_code == 200 and Hand.objects.count() == 1


def boot(page) -> dict:
    """The page's start-up data (its json_script)."""
    found = re.search(r'<script id="boot" type="application/json">(.*?)</script>', page, re.S)
    return json.loads(found.group(1))


def test_the_page_carries_the_refusals_by_code_in_the_readers_language(table):
    """Issue 35: the arithmetic's messages come with the page by code, translated; its script
    holds none of them."""
    english = boot(Client().get(table_path(table)).content.decode())["messages"]
    assert english == {code: text for text, code in CODES.items()}
    russian = boot(Client(HTTP_ACCEPT_LANGUAGE="ru").get(table_path(table)).content.decode())[
        "messages"
    ]
    assert set(russian) == set(english)
    assert russian["NOT_A_DISCARDER"] == "{value} — не сбросивший за этим столом ({seats})."
    assert russian["ON_A_DISCARD"] == "по рон"


def test_the_state_carries_the_desks_send_rule(client, table):
    """Issue 35: the page shows "Send the result to the desk" from the server's own send rule
    (scoring.services.may_send), in the page, in state.json and in every answer to a change:
    a riichi game neither over nor ended by the clock may not be sent; once the clock ended
    it, it may (the confirmations aside: the desk names a hand that waits)."""

    def state():
        return client.get(table_path(table) + "state.json").json()

    assert state()["sendable"] is False  # no hand yet
    assert boot(client.get(table_path(table)).content.decode())["state"]["sendable"] is False
    status, body = record(client, table, RON, 1)
    assert status == 200 and body["state"]["sendable"] is False
    assert state()["sendable"] is False
    time_up(table)
    assert state()["sendable"] is True
    status, body = record(client, table, TSUMO, 2)
    assert status == 200 and body["state"]["sendable"] is True


def test_a_sichuan_table_may_send_once_it_has_hands(client):
    t = f.tournament(players=4, ruleset="sbr-2025")
    table = f.seat_session(t).tables.get()
    assert client.get(table_path(table) + "state.json").json()["sendable"] is False
    hand = {"events": [{"hu": [{"seat": "S", "fans": 1}], "from": "E"},
                       {"hu": [{"seat": "W", "fans": 1}], "from": "E"},
                       {"hu": [{"seat": "N", "fans": 1}], "from": "E"}]}  # fmt: skip
    status, body = record(client, table, hand, 1)
    assert status == 200, body
    assert body["state"]["sendable"] is True


def test_a_riichi_game_over_may_be_sent(client, table):
    """South played out: the game is over without a clock (docs/rules.md §5.1)."""
    for number in range(1, 9):  # the dealer's neighbour wins every hand: the deal passes
        dealer = "ESWN"[(number - 1) % 4]
        winner = "ESWN"[number % 4]
        loser = "ESWN"[(number + 1) % 4]
        hand = {"result": "ron", "from": loser, "wins": [{"seat": winner, "han": 1, "fu": 30}]}
        hand["riichi"] = []
        status, body = record(client, table, hand, number)
        assert status == 200, (dealer, body)
        assert body["state"]["sendable"] is (number == 8)


def test_a_hand_the_desk_refuses_comes_with_its_code_and_params(client, table):
    """Issue 36: the desk plays every hand again; a hand its arithmetic refuses comes back with
    the refusal's code and params as well as its words, so the page says it in its reader's
    language from its start-up `messages`, as it says its own preview's (static/sheet/wire.js).
    EMA pays a win on an open kan's replacement tile as a self-draw (000 names no other payer):
    a `kan_from` is refused, and nothing is recorded (001 §2.18 is Furiten's)."""
    kan = {"result": "tsumo", "wins": [{"seat": "E", "han": 3, "fu": 30}], "riichi": []}
    status, body = record(client, table, kan | {"kan_from": "W"}, 1)
    assert status == 400
    assert body["refusal"] == {
        "path": "hands[0].kan_from",
        "code": "NO_KAN_FROM",
        "params": {},
        "kinds": {},
    }
    assert body["error"] == "hands[0].kan_from: " + next(
        text for text, code in CODES.items() if code == "NO_KAN_FROM"
    )
    assert not Hand.objects.exists()
    # a seat that is none: the refused value is written as the desk writes it ("repr")
    pao = {"result": "tsumo", "wins": [{"seat": "E", "yakuman": 1, "pao": "X"}], "riichi": []}
    status, body = record(client, table, pao, 1)
    assert status == 400
    assert body["refusal"] == {
        "path": "hands[0].wins[0].pao",
        "code": "NOT_A_SEAT",
        "params": {"value": "X", "seats": "E, S, W, N"},
        "kinds": {"value": "repr"},
    }
    # refusals that are no hand's keep their words only
    status, body = post(client, table, {"action": "record", "data": kan, "number": "one"})
    assert status == 400 and "refusal" not in body


@pytest.mark.parametrize(
    ("ruleset", "pao_hands", "open_kan_rinshan"),
    [
        ("ema-2012", "dragons_winds", "self_draw"),  # 000 §3.3.6; a self-draw
        ("furiten-club", "dragons_winds_kongs", "kan_giver"),  # 001 §8.2; 001 §2.18
    ],
)
def test_the_page_offers_pao_and_the_kan_giver_from_its_rules(
    client, ruleset, pao_hands, open_kan_rinshan
):
    """Issue 36: the form offers a responsible seat (pao) on a yakuman and a kan giver on a
    tsumo from the start-up data's rules (static/sheet/riichi.js), and names the hands the rule
    set lists for pao in the reader's language."""
    t = f.tournament(ruleset, players=4, slug=f"offers-{ruleset}")
    table = f.seat_session(t).tables.get()
    data = boot(client.get(table_path(table)).content.decode())
    assert data["rules"]["pao_hands"] == pao_hands
    assert data["rules"]["open_kan_rinshan"] == open_kan_rinshan
    assert data["labels"]["pao_hands"] == {
        "dragons_winds": "Big Three Dragons, Big Four Winds (EMA 000 §3.3.6)",
        "dragons_winds_kongs": "Big Three Dragons, Big Four Winds, Four Kongs (Furiten 001 §8.2)",
    }
    assert data["labels"]["kan_from"] == (
        "Won on the replacement tile after an open kan: who gave the kan tile"
    )


def test_the_page_ships_its_scripts_without_their_comment_lines():
    """Issue 24's 100 KB: the comments standing on lines of their own stay in the files, not
    in the page; a line where code follows a comment keeps the whole text as it is."""
    script = "/* the file's head\n   more of it */\nvar a = 1; // kept\n  // gone\nvar b = '//';\n"
    assert without_comment_lines(script) == "var a = 1; // kept\nvar b = '//';\n"
    assert without_comment_lines("/* one line */\n.x{}\n") == ".x{}\n"
    risky = "/* a */ var c = 2;\n// gone?\n"
    assert without_comment_lines(risky) == risky
