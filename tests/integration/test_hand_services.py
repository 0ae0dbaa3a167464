"""Issue 24: the services that keep a table's hands — recorded one after another, a phone's
resend recorded once, an impossible hand refused with nothing saved, the last hand undone and an
earlier one corrected with the old versions kept, each hand confirmed once per wind, and nothing
changing once the table's result is confirmed or the tournament finished."""

import uuid

import pytest
from django.utils import timezone

from core.errors import ActionRefused
from scoring.models import Hand, HandConfirmation
from scoring.selectors import hands_outcome, table_hands
from scoring.services import confirm_hand, correct_hand, record_hand, undo_last_hand
from tests.support import factories as f

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
    """RULES.md §5.1: S declares riichi (−1,000) and wins 2 han 30 fu on W's discard, 2,000 and
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
    """RULES.md §5.1: no 20 fu hand wins on a discard under EMA."""
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
    f.play(table, [29500, 32000, 28000, 30500], staff["desk1"], staff["desk2"])
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
