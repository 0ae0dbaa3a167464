"""Issue 34, "One truth between a table's hands and its result" (findings 1, 2 and 5), through
the real addresses: the table page's act/ endpoint, the desk's result, confirmation and
typed-hands pages, the tournament file's export and a restore.

- An undo or a correction of the hands withdraws the draft made from them (superseded, kept in
  the history) or makes it again; confirming checks the draft against the hands; every backup
  written after the change restores (finding 1).
- A hand recorded again after an undo takes the next version (finding 2: it answered 500).
- A confirmed table that records hands is corrected by the director as a new version of the
  hands and of the result together, with the reason, who and when (finding 5).
- A riichi table sends its result to the desk only when the game is over or the clock ended it
  (finding 5; docs/using/table-page.md "The table's own score sheet")."""

import html
import json
import re
import uuid

import pytest
from django.test import Client
from django.utils import timezone

from archive import backups
from scoring.models import Hand, Result
from scoring.selectors import table_hands
from seating.keys import table_path
from seating.models import Table
from tests.support import factories as f
from tests.support.hands import RIICHI_HANDS, SICHUAN_HANDS
from tournament.models import Tournament

pytestmark = pytest.mark.django_db

W = "ESWN"
# An EMA game to the end of South (docs/rules.md §5.1): in hands 1–7 the seat after the dealer wins
# 1 han 30 fu (1,000) on the discard of the seat after it, so the dealership passes every hand;
# in hand 8 (North deals, South 4) East wins 3 han 30 fu on South's discard (3,900): the eighth
# dealership ends without a repeat, and the game is over.
GAME = [
    {"result": "ron", "from": W[(k + 2) % 4], "wins": [{"seat": W[(k + 1) % 4], "han": 1,
     "fu": 30}], "riichi": []}
    for k in range(7)
] + [
    {"result": "ron", "from": "S", "wins": [{"seat": "E", "han": 3, "fu": 30}], "riichi": []}
]  # fmt: skip
OVER = {"E": 32900, "S": 27100, "W": 30000, "N": 30000}  # after the eight hands
SEVEN = {"E": 29000, "S": 31000, "W": 30000, "N": 30000}  # after the first seven
# Hand 8 corrected to 2 han 30 fu (2,000): the game is still over.
TWO_HAN = {**GAME[7], "wins": [{"seat": "E", "han": 2, "fu": 30}]}
CORRECTED = {"E": 31000, "S": 29000, "W": 30000, "N": 30000}
RIICHI_TEXT = "ron S<W 3/40 r:SN\ndraw t:EN r:N\ntsumo E mangan r:E\nchombo N\n"


@pytest.fixture
def staff():
    return f.staff()


@pytest.fixture
def table():
    t = f.tournament(players=4)
    return f.seat_session(t).tables.get()


def act(table, body):
    response = Client().post(
        table_path(table) + "act/", json.dumps(body), content_type="application/json"
    )
    assert response.status_code != 500
    return response.status_code, response.json()


def record(table, data, number):
    body = {"action": "record", "data": data, "number": number, "client_id": str(uuid.uuid4())}
    return act(table, body)


def confirm(table, number, version=1):
    for wind in W:
        status, body = act(
            table, {"action": "confirm", "number": number, "version": version, "wind": wind}
        )
        assert status == 200, body
    return body


def play_game(table, hands=GAME):
    for number, hand in enumerate(hands, 1):
        assert record(table, hand, number)[0] == 200
        confirm(table, number)


def scores(result) -> dict:
    return {s.wind: s.score for s in result.scores.all()}


def text_of(response) -> str:
    return html.unescape(re.sub(r"<[^>]+>", " ", response.content.decode()))


def restore_newest_file(t, director):
    """The tournament file as the director downloads it, restored over the tournament (what a
    backup's restore does): refused, it raises."""
    exported = f.login(director).get(f"/desk/{t.slug}/export/")
    assert exported.status_code == 200
    restored, _record = backups.restore(exported.content, director)
    return restored


# --- finding 1: an undo or a correction withdraws or remakes the draft ------------------------


def test_an_undo_after_the_games_end_withdraws_the_draft_and_every_backup_restores(table, staff):
    """Finding 1: the game recorded to its end became a draft by itself; an undo of the last
    hand left it with the old scores, and every backup after was refused on restore ("seats[1]
    .score: …, but the hands give …"). The undo withdraws it now: superseded, kept."""
    play_game(table)
    draft = Result.objects.get()
    assert (draft.status, draft.entered_by, scores(draft)) == ("draft", None, OVER)

    status, body = act(table, {"action": "undo", "number": 8, "version": 1, "reason": "wrong"})
    assert status == 200
    assert body["state"]["result"] is None  # the page shows no result waiting at the desk
    draft.refresh_from_db()
    assert draft.status == "superseded" and draft.superseded_at is not None
    assert Result.objects.count() == 1  # kept in the history, nothing deleted

    # The desk has nothing to confirm: the version is no longer a draft.
    desk = f.login(staff["desk1"])
    r = desk.post(f"/desk/{table.session.tournament.slug}/s/1/t/1/confirm/", {"version": 1})
    assert r.status_code == 302
    assert Result.objects.get().status == "superseded"

    # The backup written now restores: the table comes back with its seven hands, no result.
    t = restore_newest_file(table.session.tournament, staff["director"])
    again = Table.objects.get(session__tournament=t, number=1)
    assert [h.data for h in table_hands(again)] == GAME[:7]
    assert not again.results.exclude(status=Result.Status.SUPERSEDED).exists()

    # The game goes on at the restored table: hand 8 again, and every hand confirmed (the file
    # keeps no player's confirmation), is the draft again.
    assert record(again, GAME[7], 8)[0] == 200
    for hand in table_hands(again):
        confirm(again, hand.number, hand.version)
    latest = again.results.order_by("-version").first()
    assert (latest.status, scores(latest)) == ("draft", OVER)
    restore_newest_file(t, staff["director"])


def test_a_correction_withdraws_the_draft_and_the_confirmed_hand_makes_it_again(table, staff):
    """A correction of a hand after the game's end: the draft is withdrawn at once (the new
    version waits for the players' confirmation), and made again from the hands once every
    player confirmed it; the desk confirms that one."""
    play_game(table)
    fix = {
        "action": "correct",
        "number": 8,
        "version": 1,
        "data": TWO_HAN,
        "reason": "2 han",
        "client_id": str(uuid.uuid4()),
    }
    status, body = act(table, fix)
    assert status == 200 and body["state"]["result"] is None
    assert Result.objects.get(version=1).status == "superseded"
    restore_newest_file(table.session.tournament, staff["director"])  # refused before

    # The restored table: every hand confirmed again (the file keeps no confirmation).
    table = Table.objects.get(number=1)
    assert table_hands(table)[7].data == TWO_HAN
    for hand in table_hands(table):
        confirm(table, hand.number, hand.version)
    remade = Result.objects.get(table=table, status="draft")
    assert scores(remade) == CORRECTED
    slug = table.session.tournament.slug
    f.login(staff["desk1"]).post(f"/desk/{slug}/s/1/t/1/confirm/", {"version": remade.version})
    assert Result.objects.get(table=table, status="confirmed").pk == remade.pk
    restore_newest_file(table.session.tournament, staff["director"])


def test_a_draft_the_hands_contradict_is_never_confirmed(table, staff):
    """A draft left behind by an undo in a database written before this fix: the confirm
    button and the result form's confirmation refuse it, naming the seat and what the hands
    give, and nothing changes; the hands' scores saved as a new version are confirmed."""
    play_game(table)
    # What the undo did before issue 34: the hand superseded, the draft left as it was.
    Hand.objects.filter(number=8).update(superseded_at=timezone.now(), reason="wrong")
    slug = table.session.tournament.slug
    desk2 = f.login(staff["desk2"])
    r = desk2.post(f"/desk/{slug}/s/1/t/1/confirm/", {"version": 1}, follow=True)
    shown = text_of(r)
    assert "East: version 1 has 32,900 and 0 chombo, but the table's hands give 29,000" in shown
    assert "Nothing is confirmed" in shown
    assert Result.objects.get().status == "draft"

    # The result form sent back unchanged would confirm it (save_result): refused too.
    form = {"base_version": 1, "note": Result.objects.get().note}
    for wind, score in OVER.items():
        form[f"score_{wind}"], form[f"chombo_{wind}"] = score, 0
    r = desk2.post(f"/desk/{slug}/s/1/t/1/", form)
    assert r.status_code == 409
    assert "but the table's hands give 29,000" in text_of(r)
    assert Result.objects.get().status == "draft"

    # The hands' scores as a new version: a second desk user confirms them.
    for wind, score in SEVEN.items():
        form[f"score_{wind}"] = score
    assert desk2.post(f"/desk/{slug}/s/1/t/1/", form).status_code == 302
    f.login(staff["desk1"]).post(f"/desk/{slug}/s/1/t/1/confirm/", {"version": 2})
    assert scores(Result.objects.get(status="confirmed")) == SEVEN


# --- finding 2: recording after an undo takes the next version --------------------------------


def test_a_hand_recorded_again_after_an_undo_takes_the_next_version(table):
    """Finding 2: the undone hand's version slot was reused (unique constraint): 500 for ever,
    and every later hand queued behind it on the phone."""
    assert record(table, GAME[0], 1)[0] == 200
    assert record(table, GAME[1], 2)[0] == 200
    for version in (1, 2):
        undo = {"action": "undo", "number": 2, "version": version, "reason": "not played"}
        assert act(table, undo)[0] == 200
        status, body = record(table, GAME[1], 2)
        assert status == 200
        assert [(h["number"], h["version"]) for h in body["state"]["hands"]] == [
            (1, 1),
            (2, version + 1),
        ]
    assert record(table, GAME[2], 3)[0] == 200  # the next hands follow
    assert [h.version for h in Hand.objects.filter(number=2).order_by("version")] == [1, 2, 3]


def test_the_typed_hands_page_and_the_phone_after_an_undo(table, staff):
    """The desk's typed hands after a phone's undo, and a phone's hand after the desk took a
    line away: each takes the next version at that place."""
    record(table, GAME[0], 1)
    record(table, GAME[1], 2)
    act(table, {"action": "undo", "number": 2, "version": 1, "reason": "x"})
    desk = f.login(staff["desk1"])
    url = f"/desk/{table.session.tournament.slug}/s/1/t/1/hands/"
    seen = ",".join(str(h.pk) for h in table_hands(table))
    text = "ron S<W 1/30\nron W<N 1/30\n"  # GAME[0], GAME[1] in the notation
    assert desk.post(url, {"text": text, "seen": seen, "save": "1"}).status_code == 302
    assert [(h.number, h.version) for h in table_hands(table)] == [(1, 1), (2, 2)]
    seen = ",".join(str(h.pk) for h in table_hands(table))
    r = desk.post(url, {"text": "ron S<W 1/30\n", "seen": seen, "save": "1", "reason": "no"})
    assert r.status_code == 302
    assert record(table, GAME[1], 2)[0] == 200
    assert [(h.number, h.version) for h in table_hands(table)] == [(1, 1), (2, 3)]


# --- finding 5: a confirmed table with hands is corrected by the director ---------------------


def test_the_director_corrects_a_confirmed_tables_hands_and_result_together(staff):
    t = f.tournament(players=4)
    f.seat_session(t)
    table = Table.objects.get()
    url = f"/desk/{t.slug}/s/1/t/1/hands/"
    desk1, desk2 = f.login(staff["desk1"]), f.login(staff["desk2"])
    assert desk1.post(url, {"text": RIICHI_TEXT, "seen": "", "save": "1"}).status_code == 302
    desk2.post(f"/desk/{t.slug}/s/1/t/1/confirm/", {"version": 1})
    first = Result.objects.get(status="confirmed")
    before = Client().get(f"/t/{t.slug}/standings.json").json()["standings"]
    before = {row["player"]["key"]: row["total"] for row in before}
    seen = ",".join(str(h.pk) for h in table_hands(table))
    changed = RIICHI_TEXT.replace("3/40", "4/30")  # hand 1: S wins 4 han 30 fu, 7,700
    post = {"text": changed, "seen": seen, "save": "1", "reason": "protocol misread"}

    # The result page points there; a desk user sees the table closed and is refused.
    assert 'id="correct-hands"' in desk1.get(f"/desk/{t.slug}/s/1/t/1/").content.decode()
    page = desk1.get(url)
    assert 'id="save"' not in page.content.decode()
    assert "only the director corrects its hands now" in text_of(page)
    r = desk1.post(url, post)
    assert r.status_code == 403
    assert "Only the director corrects the hands of a table whose result is confirmed." in (
        text_of(r)
    )
    assert Result.objects.count() == 1 and Hand.objects.count() == 4

    director = f.login(staff["director"])
    page = director.get(url)
    assert 'id="save"' in page.content.decode() and 'id="correct-confirmed"' in (
        page.content.decode()
    )
    r = director.post(url, {**post, "reason": " "})
    assert r.status_code == 400 and "Give the reason for the correction." in text_of(r)
    r = director.post(url, {**post, "seen": ""})  # a page older than the table's hands
    assert r.status_code == 409 and "hands changed since this page was loaded" in text_of(r)
    r = director.post(url, {**post, "text": RIICHI_TEXT})
    assert r.status_code == 400 and "nothing to correct" in text_of(r)
    assert Result.objects.count() == 1 and Hand.objects.count() == 4

    r = director.post(url, post)
    assert r.status_code == 302 and r.url == f"/desk/{t.slug}/s/1/t/1/"
    assert "Table 1 corrected: its hands and its result, version 2, confirmed by you." in (
        text_of(director.get(r.url))
    )
    first.refresh_from_db()
    assert first.status == "superseded" and first.superseded_at is not None
    new = Result.objects.get(status="confirmed")
    assert (new.version, new.entered_by, new.confirmed_by) == (
        2,
        staff["director"],
        staff["director"],
    )
    assert new.note == "Correction of the confirmed version 1: protocol misread"
    # docs/rules.md §5.1: 4 han 30 fu on a discard by a non-dealer is 7,700 (S +8,700 with both
    # sticks, W −7,700): 2,500 more for S and 2,500 less for W than 3 han 40 fu (5,200).
    assert scores(new) == {"E": 44800, "S": 39100, "W": 20700, "N": 15400}
    old = Hand.objects.get(number=1, version=1)
    assert (old.is_current, old.reason, old.superseded_by) == (
        False,
        "protocol misread",
        staff["director"],
    )
    assert Hand.objects.get(number=1, version=2).recorded_by == staff["director"]
    after = Client().get(f"/t/{t.slug}/standings.json").json()["standings"]
    after = {row["player"]["key"]: row["total"] for row in after}
    # The places stay (E, S, W, N): the standings move by the scores, S +2,500 and W −2,500.
    assert (after["p02"] - before["p02"], after["p03"] - before["p03"]) == (2500, -2500)
    assert (after["p01"], after["p04"]) == (before["p01"], before["p04"])

    # The sheet stays closed to the phones; every backup restores.
    assert record(table, GAME[0], 5)[0] == 400
    restored = restore_newest_file(t, staff["director"])
    restored_result = Result.objects.get(table__session__tournament=restored, status="confirmed")
    assert scores(restored_result) == {"E": 44800, "S": 39100, "W": 20700, "N": 15400}
    assert Tournament.objects.count() == 1


def test_the_send_rule_riichi_waits_for_the_clock(table, staff):
    """docs/using/table-page.md "The table's own score sheet": "send to the desk" is for Sichuan, or
    for a riichi game the clock ended before the end of South. One hand, the clock not started:
    refused; the clock running: refused; time up: the draft."""
    record(table, RIICHI_HANDS[0], 1)
    confirm(table, 1)
    status, body = act(table, {"action": "send"})
    assert status == 400
    assert body["error"] == (
        "The game is not over: South is not finished and the session's clock has not ended it. "
        "At the end of South the result goes to the desk by itself."
    )
    assert not Result.objects.exists()
    desk = f.login(staff["desk1"])
    control = f"/desk/{table.session.tournament.slug}/s/1/clock/control/"
    desk.post(control, {"action": "start"})
    assert act(table, {"action": "send"})[0] == 400
    desk.post(control, {"action": "adjust", "minutes": "-90"})  # EMA: 90 minutes, all gone
    status, body = act(table, {"action": "send"})
    assert status == 200 and body["state"]["result"] == {"status": "draft", "version": 1}
    # A hand recorded after the send makes the draft stale: it is withdrawn.
    assert record(table, RIICHI_HANDS[1], 2)[0] == 200
    assert Result.objects.get().status == "superseded"


def test_after_the_warning_a_riichi_table_sends_after_its_last_hand(table, staff):
    """EMA 000 §5.8: after the warning the hand in progress and one more are played. The
    warning came with no hand recorded before it, so the table's second hand is its last (the
    table page's "last hand", scoring.selectors.last_hand): the send is taken from there."""
    desk = f.login(staff["desk1"])
    control = f"/desk/{table.session.tournament.slug}/s/1/clock/control/"
    desk.post(control, {"action": "start"})
    desk.post(control, {"action": "adjust", "minutes": "-80"})  # 10 minutes left: warning
    assert record(table, RIICHI_HANDS[0], 1)[0] == 200
    confirm(table, 1)
    assert act(table, {"action": "send"})[0] == 400
    assert record(table, RIICHI_HANDS[1], 2)[0] == 200
    confirm(table, 2)
    assert act(table, {"action": "send"})[0] == 200


def test_a_sichuan_table_sends_whenever_every_hand_is_confirmed(staff):
    t = f.tournament(ruleset="sbr-2025", players=4, slug="sichuan-open")
    table = f.seat_session(t).tables.get()
    assert record(table, SICHUAN_HANDS[0], 1)[0] == 200
    confirm(table, 1)
    status, body = act(table, {"action": "send"})
    assert status == 200 and body["state"]["result"]["status"] == "draft"


def test_a_confirmed_table_without_hands_is_corrected_on_the_result_page(staff):
    """The director's correction is for tables that record hands; a table confirmed from its
    final scores alone is corrected as a new version on the result page, as before."""
    t = f.tournament(players=4)
    table = f.seat_session(t).tables.get()
    f.play(table, [40000, 35000, 25000, 20000], staff["desk1"], staff["desk2"])
    r = f.login(staff["director"]).post(
        f"/desk/{t.slug}/s/1/t/1/hands/", {"text": "draw\n", "seen": "", "save": "1", "reason": "x"}
    )
    assert r.status_code == 400
    assert "The table recorded no hands: correct its result on the result page." in text_of(r)
    assert not Hand.objects.exists() and Result.objects.get().status == "confirmed"
