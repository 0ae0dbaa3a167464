"""Issue 24: the services that keep a table's hands — recorded one after another, a phone's
resend recorded once, an impossible hand refused with nothing saved, the last hand undone and an
earlier one corrected with the old versions kept, each hand confirmed once per wind, and nothing
changing once the table's result is confirmed or the tournament finished."""

import re
import uuid

import pytest
from django.utils import timezone

from core.errors import ActionRefused
from scoring.models import Hand, HandConfirmation, Result
from scoring.selectors import hands_outcome, table_hands
from scoring.services import (
    HandConflict,
    confirm_hand,
    correct_hand,
    enter_result,
    record_hand,
    send_hands_result,
    undo_last_hand,
)
from tests.support import factories as f
from tournament.sessions import start_clock
from tournament.timekeeping import adjust_clock

pytestmark = pytest.mark.django_db

RON = {"result": "ron", "from": "W", "wins": [{"seat": "S", "han": 2, "fu": 30}], "riichi": ["S"]}
TSUMO = {"result": "tsumo", "wins": [{"seat": "E", "han": 1, "fu": 30}], "riichi": []}


@pytest.fixture
def table():
    staff = f.staff()
    t = f.tournament(players=4)
    session = f.seat_session(t)
    return session.tables.get(), staff


def test_hands_are_recorded_in_order_and_give_the_scores(table):
    """docs/rules.md §5.1: S declares riichi (−1,000) and wins 2 han 30 fu on W's discard, 2,000 and
    the stick; the dealership passes to S, so E's self-drawn 1 han 30 fu is a non-dealer's:
    500 from the dealer S, 300 from W and N."""
    table, staff = table
    record_hand(table, RON, staff["desk1"])
    record_hand(table, TSUMO, staff["desk1"])
    assert [h.number for h in table_hands(table)] == [1, 2]
    assert hands_outcome(table).scores == {"E": 31100, "S": 31500, "W": 27700, "N": 29700}


def test_a_resent_hand_is_recorded_once(table):
    table, staff = table
    sent = uuid.uuid4()
    first = record_hand(table, RON, staff["desk1"], client_id=sent)
    again = record_hand(table, RON, staff["desk1"], client_id=sent)
    assert first.pk == again.pk and Hand.objects.count() == 1


def test_an_impossible_hand_is_refused_and_nothing_is_saved(table):
    """docs/rules.md §5.1: no 20 fu hand wins on a discard under EMA."""
    table, staff = table
    bad = {"result": "ron", "from": "W", "wins": [{"seat": "S", "han": 1, "fu": 20}]}
    with pytest.raises(ActionRefused) as refused:
        record_hand(table, bad, staff["desk1"])
    assert refused.value.message == (
        "hands[0].wins[0].fu: No hand of 1 han 20 fu wins on a discard (the scoring table is "
        "empty)."
    )
    assert not Hand.objects.exists()


def test_undo_and_correct_keep_every_version_with_who_and_why(table):
    table, staff = table
    first = record_hand(table, RON, staff["desk1"])
    record_hand(table, TSUMO, staff["desk1"])
    undone = undo_last_hand(table, staff["referee"], "wrong winner")
    assert (undone.superseded_by, undone.reason) == (staff["referee"], "wrong winner")
    with pytest.raises(ActionRefused, match="reason"):
        correct_hand(first, RON, staff["referee"], " ")
    fixed = correct_hand(
        first, {**RON, "wins": [{"seat": "S", "han": 3, "fu": 30}]}, staff["referee"], "3 han"
    )
    first.refresh_from_db()
    assert (fixed.number, fixed.version, first.superseded_by, first.reason) == (
        1,
        2,
        staff["referee"],
        "3 han",
    )
    assert Hand.objects.count() == 3  # nothing is deleted
    assert [h.pk for h in table_hands(table)] == [fixed.pk]
    assert hands_outcome(table).scores["S"] == 30000 - 1000 + 3900 + 1000
    with pytest.raises(ActionRefused, match="corrected or undone"):
        correct_hand(first, RON, staff["referee"], "again")


def test_each_wind_confirms_once(table):
    """002 §2.5.8 (4): a hand is final once every player has confirmed it."""
    table, staff = table
    hand = record_hand(table, RON, staff["desk1"])
    confirm_hand(hand, "E", staff["desk1"])
    confirm_hand(hand, "E", staff["desk2"])  # a second tap changes nothing
    confirm_hand(hand, "S", None)
    assert sorted(HandConfirmation.objects.values_list("wind", flat=True)) == ["E", "S"]
    with pytest.raises(ActionRefused, match="Nobody sits at X"):
        confirm_hand(hand, "X", None)


def test_nothing_changes_once_the_result_is_confirmed_or_the_tournament_finished(table):
    table, staff = table
    hand = record_hand(table, RON, staff["desk1"])
    f.play(table, [30000, 32000, 28000, 30000], staff["desk1"], staff["desk2"])
    for action in (
        lambda: record_hand(table, TSUMO, staff["desk1"]),
        lambda: undo_last_hand(table, staff["desk1"]),
        lambda: correct_hand(hand, TSUMO, staff["desk1"], "x"),
        lambda: confirm_hand(hand, "N", None),
    ):
        with pytest.raises(ActionRefused, match="result is confirmed"):
            action()
    t = table.session.tournament
    t.finished_at = timezone.now()
    t.save()
    with pytest.raises(ActionRefused, match="finished"):
        record_hand(table, TSUMO, staff["desk1"])


def test_two_devices_recording_the_same_hand_are_a_conflict_and_nothing_is_dropped(table):
    """The second device meant its hand for number 1 too: the same hand counts as recorded
    once; a different one is a conflict naming the hand the table has."""
    table, staff = table
    first = record_hand(table, RON, None, client_id=uuid.uuid4(), number=1, via="table")
    same = record_hand(table, RON, None, client_id=uuid.uuid4(), number=1, via="table")
    assert same.pk == first.pk
    with pytest.raises(HandConflict) as conflict:
        record_hand(table, TSUMO, None, client_id=uuid.uuid4(), number=1, via="table")
    assert conflict.value.hand.pk == first.pk
    with pytest.raises(ActionRefused, match="the table has 1 hands"):
        record_hand(table, TSUMO, None, number=3)
    second = record_hand(table, TSUMO, None, number=2, via="table", device="W")
    assert (second.number, second.via, second.device) == (2, "table", "W")


def test_the_hands_become_the_draft_result_once_every_player_confirmed(table):
    """002 §2.5.8 (4): the sheet's result is final hand by hand once every player confirmed;
    the desk then confirms the table as it does any result (a second person)."""
    table, staff = table
    hand = record_hand(table, RON, None, via="table")
    with pytest.raises(ActionRefused, match="hand 1 waits"):
        send_hands_result(table)
    for wind in "ESWN":
        confirm_hand(hand, wind, None, via="table")
    # docs/using/table-page.md "The table's own score sheet": a riichi game not over is sent once
    # the clock ended it (issue 34), here with time up.
    with pytest.raises(ActionRefused, match="the session's clock has not ended it"):
        send_hands_result(table)
    start_clock(table.session, staff["desk1"])
    adjust_clock(table.session, staff["desk1"], -90)
    result = send_hands_result(table)
    assert result.status == Result.Status.DRAFT and result.entered_by is None
    assert {s.wind: s.score for s in result.scores.all()} == {
        "E": 30000,
        "S": 32000,
        "W": 28000,
        "N": 30000,
    }
    assert send_hands_result(table).pk == result.pk  # sent again: the same draft
    # The desk's history names the table page as its author (issue 37: "?").
    t = table.session.tournament
    page = f.login(staff["desk1"]).get(f"/desk/{t.slug}/s/1/t/{table.number}/").content.decode()
    history = re.sub(r"\s+", " ", page.split(">History<", 1)[1])
    assert re.search(r"<td[^>]*> ?the table page, \d", history), history[:3000]
    assert "?, " not in history


def test_a_result_that_disagrees_with_the_hands_is_refused(table):
    table, staff = table
    record_hand(table, RON, staff["desk1"])
    entries = {"E": (29000, 0), "S": (33000, 0), "W": (28000, 0), "N": (30000, 0)}
    with pytest.raises(ActionRefused, match="East: the table's hands give 30,000"):
        enter_result(table, entries, staff["desk1"], 0)
    assert not Result.objects.exists()


def test_a_riichi_game_over_and_confirmed_becomes_a_draft_by_itself(table):
    """docs/rules.md §5.1 (Furiten, 001 §6.1): the game ends when a score goes below zero. S's
    yakuman on W's discard costs W 32,000 of 30,000: the game is over, and once every player
    confirmed the hand the table's draft result is the hands' scores."""
    table, staff = table
    t = table.session.tournament
    t.ruleset = "furiten-club"
    t.save()
    big = {"result": "ron", "from": "W", "wins": [{"seat": "S", "yakuman": 1}], "riichi": []}
    hand = record_hand(table, big, None, via="table")
    for wind in "ESW":
        confirm_hand(hand, wind, None, via="table")
    assert not Result.objects.exists()  # N has not confirmed yet
    confirm_hand(hand, "N", None, via="table")
    result = Result.objects.get()
    assert {s.wind: s.score for s in result.scores.all()} == {
        "E": 30000,
        "S": 62000,
        "W": -2000,
        "N": 30000,
    }
