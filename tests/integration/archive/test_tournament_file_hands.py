"""Hands in the tournament file (docs/formats.md, "Hands (optional)"; docs/rules.md §5): import
computes the seats' scores from the hands or refuses a file whose scores, chombo or hands do not
hold; export writes a table's current hands; the stored hands are versioned, never overwritten.

The expected scores are worked out by hand from docs/rules.md §5 (tests/support/hands.py)."""

import copy
import json
import uuid

import pytest
from django.db import IntegrityError, transaction
from django.utils import timezone, translation

from archive.tournament_file import TournamentFileError, export_tournament, import_tournament
from core.errors import ActionRefused
from mahjong.hands import play
from mahjong.presets import PRESETS
from scoring.models import Hand, HandConfirmation, Result, ResultScore
from scoring.selectors import current_hands, hands_outcome, table_hands
from scoring.services import change_rules
from seating.models import Table
from tests.support.hands import (
    EMA_SCORES,
    README_RIICHI,
    README_SICHUAN,
    RIICHI_HANDS,
    SICHUAN_HANDS,
    SICHUAN_POINTS,
    hands_file,
)
from tests.support.tournaments import make_user
from tournament.models import Tournament

pytestmark = pytest.mark.django_db


def seat_rows(t, number=1):
    """(wind, score, chombo) of the table's confirmed result."""
    scores = ResultScore.objects.filter(
        result__table__session__tournament=t,
        result__table__number=number,
        result__status=Result.Status.CONFIRMED,
    )
    return sorted(
        ((s.wind, s.score, s.chombo) for s in scores), key=lambda row: "ESWN".index(row[0])
    )


def refused(data) -> str:
    with pytest.raises(TournamentFileError) as caught:
        import_tournament(data)
    assert not Tournament.objects.filter(slug="hands").exists()
    assert not Hand.objects.exists()
    return str(caught.value)


# --- import computes ----------------------------------------------------------------------------


def test_riichi_hands_without_scores_give_the_seats_their_scores():
    importer = make_user("desk")
    t = import_tournament(hands_file(), user=importer)
    assert seat_rows(t) == [("E", 44800, 0), ("S", 36600, 0), ("W", 23200, 0), ("N", 15400, 1)]
    # Like a table without history: version 1, entered and confirmed by the importing user.
    result = Result.objects.get(table__session__tournament=t, table__number=1)
    assert (result.version, result.status) == (1, Result.Status.CONFIRMED)
    assert result.entered_by == importer and result.confirmed_by == importer
    table = Table.objects.get(session__tournament=t, number=1)
    hands = table_hands(table)
    assert [h.number for h in hands] == [1, 2, 3, 4]
    assert [h.data for h in hands] == RIICHI_HANDS
    assert all(h.version == 1 and h.recorded_by == importer for h in hands)
    assert all(h.history.get().history_user == importer for h in hands)
    assert hands_outcome(table).scores == dict(zip("ESWN", EMA_SCORES, strict=True))
    # The table without hands keeps its scores and has no hands.
    assert seat_rows(t, 2)[0] == ("E", 40000, 0)
    assert not Table.objects.get(session__tournament=t, number=2).hands.exists()


def test_riichi_hands_with_the_same_scores_and_chombo_import():
    data = hands_file(scores=EMA_SCORES, chombo=[0, 0, 0, 1])
    t = import_tournament(data)
    assert seat_rows(t)[3] == ("N", 15400, 1)


def test_a_seat_without_chombo_takes_it_from_the_hands():
    t = import_tournament(hands_file(scores=EMA_SCORES))
    assert seat_rows(t)[3] == ("N", 15400, 1)


def test_ema_gives_the_sticks_left_to_the_leader_and_furiten_leaves_them():
    """docs/rules.md §5.1: after hands 1 and 2, N's stick is still on the table. EMA (000 §3.6)
    gives it to the winner of the game, S: 34,700 + 1,000; Furiten (001 §3.11) leaves it, so
    the table sums to 119,000 and is accepted."""
    t = import_tournament(hands_file(hands=RIICHI_HANDS[:2]))
    assert [s for _w, s, _c in seat_rows(t)] == [31500, 35700, 23300, 29500]
    t.delete()
    furiten = [31500, 34700, 23300, 29500]
    t = import_tournament(hands_file("furiten-club", hands=RIICHI_HANDS[:2]))
    assert [s for _w, s, _c in seat_rows(t)] == furiten
    assert sum(furiten) == 119000
    t.delete()
    t = import_tournament(hands_file("furiten-club", hands=RIICHI_HANDS[:2], scores=furiten))
    assert [s for _w, s, _c in seat_rows(t)] == furiten


def test_sichuan_hands_give_the_game_points():
    t = import_tournament(hands_file("sbr-2025", hands=SICHUAN_HANDS))
    assert seat_rows(t) == [("E", 10, 0), ("S", 15, 0), ("W", -39, 0), ("N", 14, 0)]
    t.delete()
    t = import_tournament(hands_file("sbr-2025", hands=SICHUAN_HANDS, scores=SICHUAN_POINTS))
    assert [s for _w, s, _c in seat_rows(t)] == SICHUAN_POINTS


def test_a_three_player_sichuan_table_plays_its_three_winds():
    """Three hu end a hand at four players, two at three (002 §2.6.2): S wins 1 fan on E's
    discard (2 from E), W self-draws 0 fans (1 + 1 from E, the only one not yet hu)."""
    hand = {
        "events": [
            {"hu": [{"seat": "S", "fans": 1}], "from": "E"},
            {"hu": [{"seat": "W", "fans": 0}], "self_draw": True},
        ]
    }
    t = import_tournament(hands_file("sbr-2025", hands=[hand], players=3))
    assert seat_rows(t) == [("E", -4, 0), ("S", 2, 0), ("W", 2, 0)]


def test_the_readme_riichi_hands_import_with_their_scores():
    """The seven riichi hands of docs/formats.md, played in order under EMA: S's dealer
    yakuman on N's discard (48,000) sends N below zero, which EMA plays on."""
    hands = [json.loads(line) for line in README_RIICHI.strip().splitlines()]
    t = import_tournament(hands_file(hands=hands))
    assert seat_rows(t) == [
        ("E", 43600, 0),
        ("S", 80400, 0),
        ("W", 34800, 0),
        ("N", -38800, 1),
    ]
    table = Table.objects.get(session__tournament=t, number=1)
    assert [h.data for h in table_hands(table)] == hands


def test_the_readme_sichuan_example_is_refused_as_one_hand():
    """The README's Sichuan object shows every event, not one hand: three hu end a hand, so
    its seventh event comes after the end (the unit tests split it into real hands)."""
    message = refused(hands_file("sbr-2025", hands=[json.loads(README_SICHUAN)]))
    assert message == (
        "sessions[0].tables[0].hands[0].events[6]: The hand ended when 3 players had declared hu."
    )


# --- import refuses ------------------------------------------------------------------------------


def test_scores_that_differ_from_the_hands_are_refused_naming_the_table_and_seat():
    scores = [44800, 36600, 23200, 15400]
    scores[1], scores[2] = 37600, 22200  # still 120,000 in all
    data = hands_file(scores=scores, chombo=[0, 0, 0, 1])
    # Put the table second in the session, so the message names tables[1].
    data["sessions"][0]["tables"].reverse()
    data["sessions"][0]["tables"][0]["number"], data["sessions"][0]["tables"][1]["number"] = 2, 1
    assert refused(data) == (
        "sessions[0].tables[1].seats[1].score: 37,600, but the hands give 36,600"
    )


def test_sichuan_points_that_differ_from_the_hands_are_refused():
    points = [10, 14, -39, 15]
    assert refused(hands_file("sbr-2025", hands=SICHUAN_HANDS, scores=points)) == (
        "sessions[0].tables[0].seats[1].score: 14, but the hands give 15"
    )


def test_a_chombo_count_that_differs_from_the_hands_is_refused():
    assert refused(hands_file(scores=EMA_SCORES, chombo=[1, 0, 0, 0])) == (
        "sessions[0].tables[0].seats[0].chombo: 1, but the hands have 0 chombo by this seat"
    )
    assert refused(hands_file(chombo=[0, 0, 0, 0])) == (
        "sessions[0].tables[0].seats[3].chombo: 0, but the hands have 1 chombo by this seat"
    )


IMPOSSIBLE = [
    (lambda h: h[0]["wins"][0].update(han=1, fu=20),
     "hands[0].wins[0].fu: No hand of 1 han 20 fu wins on a discard (the scoring table is "
     "empty)."),
    (lambda h: h[2]["wins"][0].update(seat="X"),
     "hands[2].wins[0].seat: 'X' is not a seat at this table (E, S, W, N)."),
    (lambda h: h[1].update(tenpai=["E"]),
     "hands[1].tenpai: N declared riichi but is not tenpai at the draw: that is a chombo."),
    (lambda h: h[3].update(result="pass"),
     "hands[3].result: 'pass' is not a hand result (ron, tsumo, draw, abortive, chombo, "
     "nagashi)."),
]  # fmt: skip


@pytest.mark.parametrize(("change", "message"), IMPOSSIBLE, ids=[m for _c, m in IMPOSSIBLE])
def test_an_impossible_hand_is_refused_with_its_path(change, message):
    hands = copy.deepcopy(RIICHI_HANDS)
    change(hands)
    assert refused(hands_file(hands=hands)) == f"sessions[0].tables[0].{message}"


def test_an_impossible_sichuan_hand_is_refused_with_its_path():
    hands = copy.deepcopy(SICHUAN_HANDS)
    hands[1]["exhausted"]["S"] = "asleep"
    message = refused(hands_file("sbr-2025", hands=hands))
    assert message.startswith("sessions[0].tables[0].hands[1].exhausted.S: ")


def test_a_refusal_is_in_the_readers_language():
    with translation.override("uk"):
        message = refused(hands_file(hands=[{"result": "ron", "riichi": []}]))
    assert message == "sessions[0].tables[0].hands[0].wins: Для перемоги потрібен переможець."


def test_hands_on_an_awarded_sichuan_table_are_refused():
    assert refused(hands_file("sbr-2025", hands=SICHUAN_HANDS, players=2)) == (
        "sessions[0].tables[0].hands: an awarded table (one or two players) has no hands"
    )


def test_too_many_hands_a_huge_hand_and_a_hand_not_an_object_are_refused():
    draws = [{"result": "abortive", "riichi": []}] * 201
    assert refused(hands_file(hands=draws)) == (
        "sessions[0].tables[0].hands: has 201 items, at most 200"
    )
    huge = {"result": "abortive", "riichi": [], "note": "x" * 5000}
    assert refused(hands_file(hands=[huge])) == (
        "sessions[0].tables[0].hands[0]: A hand is at most 4000 characters as JSON, not 5043."
    )
    assert refused(hands_file(hands=[*RIICHI_HANDS, "ron"])) == (
        "sessions[0].tables[0].hands[4]: A hand is a JSON object."
    )


# --- export and round trip -----------------------------------------------------------------------


def test_round_trip_keeps_the_hands_identical():
    data = hands_file()
    data["sessions"][0]["tables"].append(
        {
            "number": 3,
            "seats": [{"player": f"p{n}"} for n in (9, 10, 11, 12)],
        }
    )
    data["players"] += [{"key": f"p{n}", "name": f"Player p{n}"} for n in (9, 10, 11, 12)]
    t = import_tournament(data)
    exported = export_tournament(t)
    tables = exported["sessions"][0]["tables"]
    assert tables[0]["hands"] == RIICHI_HANDS
    # The format's key order, `result` first, whatever the database kept.
    assert [list(h) for h in tables[0]["hands"]] == [list(h) for h in RIICHI_HANDS]
    assert "hands" not in tables[1] and "hands" not in tables[2]
    assert [s["score"] for s in tables[0]["seats"]] == EMA_SCORES
    t.delete()
    again = import_tournament(exported)
    assert export_tournament(again) == exported


def test_sichuan_round_trip_keeps_the_hands():
    t = import_tournament(hands_file("sbr-2025", hands=SICHUAN_HANDS))
    exported = export_tournament(t)
    assert exported["sessions"][0]["tables"][0]["hands"] == SICHUAN_HANDS
    t.delete()
    assert export_tournament(import_tournament(exported)) == exported


# --- the stored hands ----------------------------------------------------------------------------


def test_a_correction_is_a_new_version_and_export_writes_the_current_hands():
    """An earlier hand corrected with a reason: the old version is kept, superseded with who,
    when and why, and the file, the selectors and the arithmetic read the new one."""
    referee = make_user("referee")
    t = import_tournament(hands_file())
    table = Table.objects.get(session__tournament=t, number=1)
    old = Hand.objects.get(table=table, number=1)
    now = timezone.now()
    old.superseded_by, old.superseded_at, old.reason = referee, now, "40 fu, not 30"
    old.save()
    corrected = copy.deepcopy(RIICHI_HANDS[0])
    corrected["wins"][0]["fu"] = 30  # 3,900 instead of 5,200: S 1,300 less, W 1,300 more
    Hand.objects.create(
        table=table, number=1, version=2, data=corrected, recorded_by=referee, recorded_at=now
    )
    assert [(h.number, h.version) for h in table_hands(table)] == [(1, 2), (2, 1), (3, 1), (4, 1)]
    assert hands_outcome(table).scores == {"E": 44800, "S": 35300, "W": 24500, "N": 15400}
    assert current_hands(t)[table.pk][0] == corrected
    assert export_tournament(t)["sessions"][0]["tables"][0]["hands"][0] == corrected
    # Both versions are kept, the old one with who, when and why.
    kept = Hand.objects.filter(table=table, number=1).order_by("version")
    assert [(h.version, h.superseded_by, h.reason) for h in kept] == [
        (1, referee, "40 fu, not 30"),
        (2, None, ""),
    ]
    assert old.history.count() == 2  # recorded, then superseded


def test_the_database_keeps_one_current_hand_per_number_and_a_phone_id_once():
    t = import_tournament(hands_file())
    table = Table.objects.get(session__tournament=t, number=1)
    now = timezone.now()
    with pytest.raises(IntegrityError), transaction.atomic():
        Hand.objects.create(table=table, number=2, version=2, data={}, recorded_at=now)
    phone = uuid.uuid4()
    Hand.objects.create(
        table=table, number=5, data=RIICHI_HANDS[3], client_id=phone, recorded_at=now
    )
    with pytest.raises(IntegrityError), transaction.atomic():
        Hand.objects.create(
            table=table, number=6, data=RIICHI_HANDS[3], client_id=phone, recorded_at=now
        )
    # Each wind confirms a hand once; the confirmations are kept with the hand.
    hand = table_hands(table)[0]
    HandConfirmation.objects.create(hand=hand, wind="E", confirmed_at=now)
    with pytest.raises(IntegrityError), transaction.atomic():
        HandConfirmation.objects.create(hand=hand, wind="E", confirmed_at=now)
    HandConfirmation.objects.create(hand=hand, wind="S", confirmed_at=now)
    assert sorted(hand.confirmations.values_list("wind", flat=True)) == ["E", "S"]


def test_play_is_the_one_door_for_both_games():
    riichi = play(PRESETS["ema-2012"], RIICHI_HANDS)
    sichuan = play(PRESETS["sbr-2025"], SICHUAN_HANDS, ("E", "S", "W", "N"))
    assert list(riichi.scores.values()) == EMA_SCORES and riichi.chombo["N"] == 1
    assert list(sichuan.scores.values()) == SICHUAN_POINTS and sichuan.chombo is None


def test_a_rule_change_the_stored_hands_would_not_give_is_refused():
    """Issue 22's promise for hands: a rule change that would make a table's hands give other
    scores than the ones stored would leave a file that no longer restores. After hands 1 and 2
    one stick is left; EMA gives it to S (35,700), but with `sticks_at_end` "table" the hands
    give S 34,700 — refused, naming the table (docs/rules.md §5.1)."""
    t = import_tournament(hands_file(hands=RIICHI_HANDS[:2]))
    with pytest.raises(ActionRefused) as refused:
        change_rules(t, "ema-2012", {"sticks_at_end": "table"}, None, reason="try")
    assert "Session 1, table 1 does not hold under these rules" in refused.value.message
    assert "Its hands would give other scores." in refused.value.message
    t.refresh_from_db()
    assert t.rules == {}
    change_rules(t, "ema-2012", {"misconduct_amounts": [-4000]}, None, reason="fine")


# --- issue 36: Sichuan dead hand ------------------------------------------------------------------


DEAD_HAND = {
    "events": [
        {"kong": "concealed", "seat": "N"},
        {"dead": "N"},
        {"hu": [{"seat": "S", "fans": 1}], "from": "E"},
    ],
    "exhausted": {"E": {"waiting": 1}, "W": "not_waiting", "N": "not_waiting"},
}


def test_a_dead_hand_imports_exports_and_gives_its_points():
    """formats README: `{"dead": "N"}` — N returns every kong point of the hand (002 §2.8.3).
    N's concealed kong (2 from E, S, W) goes back; S wins 1 fan on E's discard (E pays 2); at
    the wall W and dead N pay waiting E 2 each (§2.7.4 (4)). E +2, S +2, W −2, N −2."""
    t = import_tournament(hands_file("sbr-2025", hands=[DEAD_HAND]))
    assert seat_rows(t) == [("E", 2, 0), ("S", 2, 0), ("W", -2, 0), ("N", -2, 0)]
    exported = export_tournament(t)
    assert exported["sessions"][0]["tables"][0]["hands"] == [DEAD_HAND]
    t.delete()
    assert export_tournament(import_tournament(exported)) == exported


def test_a_hu_of_a_dead_hand_is_refused_naming_the_hand():
    """002 §2.8.3: "Объявление игроком маджонга при «мёртвой руке» обернётся штрафом за ложный
    маджонг": the file records a false_hu, never a hu of the dead seat."""
    hand = copy.deepcopy(DEAD_HAND)
    hand["events"][2]["hu"][0]["seat"] = "N"
    message = refused(hands_file("sbr-2025", hands=[hand]))
    assert "hands[0].events[2].hu[0].seat" in message
    assert "N's hand is dead" in message


# --- issue 36: a false hu on a kong --------------------------------------------------------------


def test_a_false_hu_after_a_kong_imports_exports_and_costs_the_kong():
    """formats README: a `false_hu` with `from` and `after_kong` — "the kong's points are lost as
    with a real hu" (002 §2.8.4 (3)). W's concealed kong (2 from E, S, N) goes back; S's false
    hu with a waiting hand pays 8 to each of E, W, N (§2.8.4 (2)); all wait at the wall.
    E +8, S −24, W +8, N +8."""
    hand = {
        "events": [
            {"kong": "concealed", "seat": "W"},
            {"false_hu": "S", "from": "W", "after_kong": True, "waiting": True},
        ],
        "exhausted": {w: {"waiting": 0} for w in "ESWN"},
    }
    t = import_tournament(hands_file("sbr-2025", hands=[hand]))
    assert seat_rows(t) == [("E", 8, 0), ("S", -24, 0), ("W", 8, 0), ("N", 8, 0)]
    exported = export_tournament(t)
    assert exported["sessions"][0]["tables"][0]["hands"] == [hand]
    assert list(exported["sessions"][0]["tables"][0]["hands"][0]["events"][1]) == [
        "false_hu",
        "from",
        "after_kong",
        "waiting",
    ]
    t.delete()
    assert export_tournament(import_tournament(exported)) == exported


def test_a_pig_on_a_winning_hand_imports_and_exports():
    """formats README `hu[].pig: true` (002 §2.5.8 (3)): S wins 2 fans on E's discard (4) and
    pays the pig's 48, 16 to each other player (§2.8.4 (1)); W and N win 0 fans on E's
    discards (1 each). E +10, S −44, W +17, N +17."""
    hand = {
        "events": [
            {"hu": [{"seat": "S", "fans": 2, "pig": True}], "from": "E"},
            {"hu": [{"seat": "W", "fans": 0}], "from": "E"},
            {"hu": [{"seat": "N", "fans": 0}], "from": "E"},
        ]
    }
    t = import_tournament(hands_file("sbr-2025", hands=[hand]))
    assert seat_rows(t) == [("E", 10, 0), ("S", -44, 0), ("W", 17, 0), ("N", 17, 0)]
    exported = export_tournament(t)
    assert exported["sessions"][0]["tables"][0]["hands"] == [hand]
    t.delete()
    assert export_tournament(import_tournament(exported)) == exported
