"""Issue 36 in the tournament file (docs/formats.md, "Hands"): `wins[].pao` is read, played
as 000 §3.3.6 pays it, kept, and written back exactly as the format names it; a hand the rule
set forbids is refused naming where and why; the rule-set fields of issue 36 travel in
`tournament.rules` like every other override."""

import pytest

from archive.tournament_file import TournamentFileError, export_tournament, import_tournament
from scoring.hand_text import hand_text
from scoring.models import Hand, Result, ResultScore
from tests.support.hands import hands_file
from tournament.models import Tournament

pytestmark = pytest.mark.django_db

# The short game of tests/unit/mahjong/test_hands_riichi.py: S's ron, then N's self-drawn Big
# Three Dragons that E is responsible for (000 §3.3.6: E pays all 32,000).
PAO_GAME = [
    {"result": "ron", "from": "W", "wins": [{"seat": "S", "han": 3, "fu": 40}],
     "riichi": ["S", "N"]},
    {"result": "tsumo", "wins": [{"seat": "N", "yakuman": 1, "pao": "E"}], "riichi": []},
]  # fmt: skip
PAO_SCORES = [-2000, 36200, 24800, 61000]
DOUBLE_RON = {
    "result": "ron",
    "from": "N",
    "wins": [{"seat": "S", "han": 3, "fu": 40}, {"seat": "E", "han": 2, "fu": 30}],
    "riichi": [],
}


def seat_scores(t, number=1):
    scores = ResultScore.objects.filter(
        result__table__session__tournament=t,
        result__table__number=number,
        result__status=Result.Status.CONFIRMED,
    )
    return [s.score for s in sorted(scores, key=lambda s: "ESWN".index(s.wind))]


def refused(data) -> str:
    with pytest.raises(TournamentFileError) as caught:
        import_tournament(data)
    assert not Tournament.objects.filter(slug="hands").exists()
    assert not Hand.objects.exists()
    return str(caught.value)


def test_a_pao_game_imports_with_its_scores_and_round_trips():
    """Issue 36: "a whole game with a pao hand replays exactly as 000 §3.3.6 pays it": E, who
    gave the third dragon pung, pays the whole 32,000 of N's self-drawn yakuman."""
    t = import_tournament(hands_file(hands=PAO_GAME))
    assert seat_scores(t) == PAO_SCORES
    exported = export_tournament(t)
    table = exported["sessions"][0]["tables"][0]
    assert table["hands"] == PAO_GAME
    assert table["hands"][1]["wins"][0] == {"seat": "N", "yakuman": 1, "pao": "E"}
    assert [s["score"] for s in table["seats"]] == PAO_SCORES
    t.delete()
    again = import_tournament(exported)
    assert seat_scores(again) == PAO_SCORES
    assert export_tournament(again) == exported
    again.delete()
    # scores that say otherwise (the desk's old arithmetic: E paid 8,000, S 16,000, W 8,000)
    old = [22000, 20200, 16800, 61000]
    assert refused(hands_file(hands=PAO_GAME, scores=old)) == (
        "sessions[0].tables[0].seats[0].score: 22,000, but the hands give -2,000"
    )


@pytest.mark.parametrize(
    ("ruleset", "hand", "message"),
    [
        ("furiten-club", DOUBLE_RON,
         "sessions[0].tables[0].hands[0].wins: Only one player wins on a discard under these "
         "rules: the first in turn after the discarder, E, takes it."),
        ("furiten-club", {"result": "nagashi", "seat": "W", "tenpai": [], "riichi": []},
         "sessions[0].tables[0].hands[0].result: These rules have no nagashi mangan: record the "
         "exhaustive draw."),
        ("ema-2012", {"result": "tsumo", "wins": [{"seat": "S", "han": 13, "pao": "W"}],
                      "riichi": []},
         "sessions[0].tables[0].hands[0].wins[0].pao: Responsibility (pao) is only for a "
         "yakuman."),
    ],
)  # fmt: skip
def test_a_hand_the_rules_forbid_is_refused(ruleset, hand, message):
    assert refused(hands_file(ruleset, hands=[hand])) == message


def test_the_rule_fields_travel_in_the_file():
    """A Furiten tournament whose rules allow several winners on a discard (`ron_winners`
    several) and have no pao takes the double ron (N pays 5,200 to S and 2,900 to the
    dealer E) and refuses a pao; export writes the overrides back."""
    data = hands_file("furiten-club", hands=[DOUBLE_RON])
    data["tournament"]["rules"] = {"ron_winners": "several", "pao_hands": "none"}
    t = import_tournament(data)
    assert seat_scores(t) == [32900, 35200, 30000, 21900]
    exported = export_tournament(t)
    assert exported["tournament"]["rules"] == {"ron_winners": "several", "pao_hands": "none"}
    t.delete()
    data["sessions"][0]["tables"][0]["hands"] = PAO_GAME
    message = refused(data)
    assert message == (
        "sessions[0].tables[0].hands[1].wins[0].pao: These rules have no responsibility (pao)."
    )
    data["tournament"]["rules"] = {"ron_winners": "some"}
    assert refused(data) == "tournament.rules.ron_winners: Must be one of: several, one."


def test_kan_from_imports_under_furiten_round_trips_and_is_refused_under_ema():
    """001 §2.18: the dealer E wins 3 han 40 fu on the replacement tile of an open kan whose
    tile W gave: W pays 7,700 as for a ron. Furiten leaves no stick, so the table sums to
    120,000: E 37,700, W 22,300. EMA has no such payer: the file is refused, naming it."""
    kan = {
        "result": "tsumo",
        "wins": [{"seat": "E", "han": 3, "fu": 40}],
        "riichi": [],
        "kan_from": "W",
    }
    t = import_tournament(hands_file("furiten-club", hands=[kan]))
    assert seat_scores(t) == [37700, 30000, 22300, 30000]
    exported = export_tournament(t)
    assert exported["sessions"][0]["tables"][0]["hands"] == [
        {"result": "tsumo", "wins": [{"seat": "E", "han": 3, "fu": 40}], "kan_from": "W",
         "riichi": []}
    ]  # fmt: skip
    t.delete()
    assert export_tournament(import_tournament(exported)) == exported
    Tournament.objects.all().delete()
    assert refused(hands_file(hands=[kan])) == (
        "sessions[0].tables[0].hands[0].kan_from: Under these rules a win on the replacement "
        "tile after an open kan is a self-draw that every other player pays: leave out kan_from."
    )


def test_the_hand_in_words_names_the_responsible_seat_and_the_kan_giver():
    """The filled protocol and the workbook say who paid (scoring.hand_text)."""
    assert hand_text(PAO_GAME[1]) == "Tsumo: N yakuman, pao: E"
    kan = {"result": "tsumo", "wins": [{"seat": "E", "han": 3, "fu": 40}], "kan_from": "W"}
    assert hand_text(kan) == "Tsumo: E 3 han 40 fu; paid by W, who gave the kan tile"
