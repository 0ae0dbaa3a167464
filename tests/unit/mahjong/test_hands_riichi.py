"""Riichi hand by hand (docs/rules.md §5.1): every cell of the seeds' scoring tables, the payments
of each kind of hand, the sticks, the counters, the dealer and the end of the game.

Tables: EMA 2012 (seed 000, after §5.8: "Схід Цумо", "Інші Цумо", "Схід Рон", "Інші Рон" and the
limit hands) and Furiten (seed 001, tables 1–3). Copied here cell by cell; an empty cell is a hand
that does not exist and is refused.
"""

import pytest

from mahjong.hands.riichi import HandError, play_game
from mahjong.presets import PRESETS, ruleset_from
from mahjong.table import validate_scores

EMA = PRESETS["ema-2012"]
FURITEN = PRESETS["furiten-club"]
HANS = (1, 2, 3, 4)

# 000, "Схід Рон" (the dealer wins on a discard): fu → the four han columns; None is empty.
EMA_DEALER_RON = {
    25: (None, 2400, 4800, 9600),
    30: (1500, 2900, 5800, 11600),
    40: (2000, 3900, 7700, 12000),
    50: (2400, 4800, 9600, 12000),
    60: (2900, 5800, 11600, 12000),
    70: (3400, 6800, 12000, 12000),
    80: (3900, 7700, 12000, 12000),
    90: (4400, 8700, 12000, 12000),
    100: (4800, 9600, 12000, 12000),
}
# 000, "Інші Рон" (a non-dealer wins on a discard).
EMA_RON = {
    25: (None, 1600, 3200, 6400),
    30: (1000, 2000, 3900, 7700),
    40: (1300, 2600, 5200, 8000),
    50: (1600, 3200, 6400, 8000),
    60: (2000, 3900, 7700, 8000),
    70: (2300, 4500, 8000, 8000),
    80: (2600, 5200, 8000, 8000),
    90: (2900, 5800, 8000, 8000),
    100: (3200, 6400, 8000, 8000),
}
# 000, "Схід Цумо": the dealer wins by self-draw; each other player pays this.
EMA_DEALER_TSUMO = {
    20: (None, 700, 1300, 2600),
    25: (None, None, 1600, 3200),
    30: (500, 1000, 2000, 3900),
    40: (700, 1300, 2600, 4000),
    50: (800, 1600, 3200, 4000),
    60: (1000, 2000, 3900, 4000),
    70: (1200, 2300, 4000, 4000),
    80: (1300, 2600, 4000, 4000),
    90: (1500, 2900, 4000, 4000),
    100: (1600, 3200, 4000, 4000),
}
# 000, "Інші Цумо": a non-dealer wins by self-draw; (each non-dealer pays, the dealer pays).
EMA_TSUMO = {
    20: (None, (400, 700), (700, 1300), (1300, 2600)),
    25: (None, None, (800, 1600), (1600, 3200)),
    30: ((300, 500), (500, 1000), (1000, 2000), (2000, 3900)),
    40: ((400, 700), (700, 1300), (1300, 2600), (2000, 4000)),
    50: ((400, 800), (800, 1600), (1600, 3200), (2000, 4000)),
    60: ((500, 1000), (1000, 2000), (2000, 3900), (2000, 4000)),
    70: ((600, 1200), (1200, 2300), (2000, 4000), (2000, 4000)),
    80: ((700, 1300), (1300, 2600), (2000, 4000), (2000, 4000)),
    90: ((800, 1500), (1500, 2900), (2000, 4000), (2000, 4000)),
    100: ((800, 1600), (1600, 3200), (2000, 4000), (2000, 4000)),
}
# 000, limit hands: han → (the dealer's tsumo: each pays; a non-dealer's tsumo: (others, dealer)).
EMA_LIMITS = {
    5: (4000, (2000, 4000)),
    6: (6000, (3000, 6000)),
    7: (6000, (3000, 6000)),
    8: (8000, (4000, 8000)),
    10: (8000, (4000, 8000)),
    11: (12000, (6000, 12000)),
    12: (12000, (6000, 12000)),
    13: (16000, (8000, 16000)),
    20: (16000, (8000, 16000)),
}
# 001 table 1 (a non-dealer): fu → per han (ron, (tsumo: each non-dealer, the dealer)).
FURITEN_1 = {
    20: ((800, None), (1300, (400, 700)), (2600, (700, 1300)), (5200, (1300, 2600))),
    25: (None, (1600, None), (3200, (800, 1600)), (6400, (1600, 3200))),
    30: ((1000, (300, 500)), (2000, (500, 1000)), (3900, (1000, 2000)), (7700, (2000, 3900))),
    40: ((1300, (400, 700)), (2600, (700, 1300)), (5200, (1300, 2600)), (8000, (2000, 4000))),
    50: ((1600, (400, 800)), (3200, (800, 1600)), (6400, (1600, 3200)), (8000, (2000, 4000))),
    60: ((2000, (500, 1000)), (3900, (1000, 2000)), (7700, (2000, 3900)), (8000, (2000, 4000))),
    70: ((2300, (600, 1200)), (4500, (1200, 2300)), (8000, (2000, 4000)), (8000, (2000, 4000))),
    80: ((2600, (700, 1300)), (5200, (1300, 2600)), (8000, (2000, 4000)), (8000, (2000, 4000))),
    90: ((2900, (800, 1500)), (5800, (1500, 2900)), (8000, (2000, 4000)), (8000, (2000, 4000))),
    100: ((3200, (800, 1600)), (6400, (1600, 3200)), (8000, (2000, 4000)), (8000, (2000, 4000))),
    110: ((3600, (900, 1800)), (7100, (1800, 3600)), (8000, (2000, 4000)), (8000, (2000, 4000))),
}
# 001 table 2 (the dealer): fu → per han (ron, tsumo: each pays).
FURITEN_2 = {
    20: ((1200, None), (2000, 700), (3900, 1300), (7700, 2600)),
    25: (None, (2400, None), (4800, 1600), (9600, 3200)),
    30: ((1500, 500), (2900, 1000), (5800, 2000), (11600, 3900)),
    40: ((2000, 700), (3900, 1300), (7700, 2600), (12000, 4000)),
    50: ((2400, 800), (4800, 1600), (9600, 3200), (12000, 4000)),
    60: ((2900, 1000), (5800, 2000), (11600, 3900), (12000, 4000)),
    70: ((3400, 1200), (6800, 2300), (12000, 4000), (12000, 4000)),
    80: ((3900, 1300), (7700, 2600), (12000, 4000), (12000, 4000)),
    90: ((4400, 1500), (8700, 2900), (12000, 4000), (12000, 4000)),
    100: ((4800, 1600), (9600, 3200), (12000, 4000), (12000, 4000)),
    110: ((5300, 1800), (10600, 3600), (12000, 4000), (12000, 4000)),
}
# 001 table 3: han → (non-dealer: ron, (tsumo non-dealer, dealer); dealer: ron, tsumo each).
FURITEN_3 = {
    5: ((8000, (2000, 4000)), (12000, 4000)),
    6: ((12000, (3000, 6000)), (18000, 6000)),
    7: ((12000, (3000, 6000)), (18000, 6000)),
    8: ((16000, (4000, 8000)), (24000, 8000)),
    10: ((16000, (4000, 8000)), (24000, 8000)),
    11: ((24000, (6000, 12000)), (36000, 12000)),
    12: ((24000, (6000, 12000)), (36000, 12000)),
    13: ((32000, (8000, 16000)), (48000, 16000)),
}


def ron(rules, winner, han, fu=None, discarder="W"):
    win = {"seat": winner, "han": han} | ({"fu": fu} if fu else {})
    game = play_game(rules, [{"result": "ron", "from": discarder, "wins": [win], "riichi": []}])
    return game.hands[0].deltas


def tsumo(rules, winner, han, fu=None):
    win = {"seat": winner, "han": han} | ({"fu": fu} if fu else {})
    return play_game(rules, [{"result": "tsumo", "wins": [win], "riichi": []}]).hands[0].deltas


def refused(call, *args):
    with pytest.raises(HandError) as caught:
        call(*args)
    return caught.value


@pytest.mark.parametrize("fu", sorted(EMA_RON))
@pytest.mark.parametrize("han", HANS)
def test_every_cell_of_the_ema_ron_tables(fu, han):
    """docs/rules.md §5.1 "Ron: the discarder pays the winner 4 × base (6 × base if the winner is
    the dealer), rounded up to 100"; seed 000's "Схід Рон" and "Інші Рон" tables, cell by cell."""
    for winner, table in (("E", EMA_DEALER_RON), ("S", EMA_RON)):
        expected = table[fu][han - 1]
        if expected is None:
            assert "empty" in refused(ron, EMA, winner, han, fu).message
            continue
        deltas = ron(EMA, winner, han, fu)
        assert deltas[winner] == expected and deltas["W"] == -expected
        assert sum(deltas.values()) == 0


def test_no_hand_of_20_fu_wins_on_a_discard_under_ema():
    """docs/rules.md §5.1: "no 20 fu on a ron" (000's ron tables have no 20 fu row)."""
    for han in HANS:
        error = refused(ron, EMA, "S", han, 20)
        assert error.path == "hands[0].wins[0].fu"
        assert error.message == (
            f"No hand of {han} han 20 fu wins on a discard (the scoring table is empty)."
        )


@pytest.mark.parametrize("fu", sorted(EMA_TSUMO))
@pytest.mark.parametrize("han", HANS)
def test_every_cell_of_the_ema_tsumo_tables(fu, han):
    """docs/rules.md §5.1 "Tsumo: a non-dealer winner gets 2 × base from the dealer and 1 × base
    from each of the other two; a dealer winner gets 2 × base from each"; 000's "Схід Цумо" and
    "Інші Цумо" tables, cell by cell."""
    each = EMA_DEALER_TSUMO[fu][han - 1]
    if each is None:
        refused(tsumo, EMA, "E", han, fu)
    else:
        deltas = tsumo(EMA, "E", han, fu)
        assert deltas == {"E": 3 * each, "S": -each, "W": -each, "N": -each}
    pair = EMA_TSUMO[fu][han - 1]
    if pair is None:
        refused(tsumo, EMA, "S", han, fu)
    else:
        other, dealer = pair
        deltas = tsumo(EMA, "S", han, fu)
        assert deltas == {"E": -dealer, "S": 2 * other + dealer, "W": -other, "N": -other}


@pytest.mark.parametrize("han", sorted(EMA_LIMITS))
def test_the_ema_limit_hands(han):
    """docs/rules.md §5.1: "5 mangan (2,000), 6–7 haneman (3,000), 8–10 baiman (4,000), 11–12
    sanbaiman (6,000), 13 and more yakuman (8,000)"; 000's limit table (no fu needed)."""
    each, (other, dealer) = EMA_LIMITS[han]
    assert tsumo(EMA, "E", han)["S"] == -each
    deltas = tsumo(EMA, "S", han)
    assert (deltas["W"], deltas["E"]) == (-other, -dealer)
    assert ron(EMA, "S", han)["S"] == 2 * other + dealer
    assert ron(EMA, "E", han)["E"] == 3 * each


@pytest.mark.parametrize("fu", sorted(FURITEN_1))
@pytest.mark.parametrize("han", HANS)
def test_every_cell_of_furiten_tables_1_and_2(fu, han):
    """001 tables 1 (a non-dealer: ron, tsumo from a non-dealer / the dealer) and 2 (the dealer:
    ron, tsumo from each), 20 to 110 fu. §12.1: "points are counted by the table" — so the 20 fu
    row wins on a discard too, and 1 han 20 fu is the table's 800 / 1,200 (rule field
    `hand_cells`), not the 700 / 1,000 of fu × 2^(han+2)."""
    cell = FURITEN_1[fu][han - 1]
    if cell is None:
        refused(ron, FURITEN, "S", han, fu)
        refused(tsumo, FURITEN, "S", han, fu)
    else:
        ron_points, pair = cell
        assert ron(FURITEN, "S", han, fu)["S"] == ron_points
        if pair is None:
            refused(tsumo, FURITEN, "S", han, fu)
        else:
            deltas = tsumo(FURITEN, "S", han, fu)
            assert (deltas["W"], deltas["E"]) == (-pair[0], -pair[1])
    cell = FURITEN_2[fu][han - 1]
    if cell is None:
        refused(ron, FURITEN, "E", han, fu)
    else:
        ron_points, each = cell
        assert ron(FURITEN, "E", han, fu)["E"] == ron_points
        if each is None:
            refused(tsumo, FURITEN, "E", han, fu)
        else:
            assert tsumo(FURITEN, "E", han, fu) == {
                "E": 3 * each,
                "S": -each,
                "W": -each,
                "N": -each,
            }


@pytest.mark.parametrize("han", sorted(FURITEN_3))
def test_furiten_table_3_the_limit_hands(han):
    """001 table 3: mangan 8,000 (2,000/4,000), dealer 12,000 (4,000) … yakuman 32,000 / 48,000."""
    (ron_other, (other, dealer)), (ron_dealer, each) = FURITEN_3[han]
    assert ron(FURITEN, "S", han)["S"] == ron_other
    deltas = tsumo(FURITEN, "S", han)
    assert (deltas["W"], deltas["E"]) == (-other, -dealer)
    assert ron(FURITEN, "E", han)["E"] == ron_dealer
    assert tsumo(FURITEN, "E", han)["N"] == -each


def test_the_seeds_worked_example_four_han_thirty_fu():
    """000 §4.1 example (and 003's): riichi, pinfu, pure straight — 4 han 30 fu: "the winner
    gets 11,600 from the discarder if the winner is East … if not East, 7,700"; and docs/rules.md
    §5.1: "no rounding up to mangan below the cap (4 han 30 fu is 7,700, not 8,000)"."""
    assert ron(EMA, "E", 4, 30)["E"] == 11600
    assert ron(EMA, "S", 4, 30)["S"] == 7700


def test_yakuman_and_the_double_yakuman_where_the_rule_set_pays_it():
    """docs/rules.md §5.1: "Yakuman hands are not cumulative; EMA 2012 pays a double yakuman
    (16,000) only for Big Four Winds"; 001 §12.2: yakuman hands do not add up."""
    hand = {"result": "ron", "from": "N", "wins": [{"seat": "S", "yakuman": 2}], "riichi": []}
    assert play_game(EMA, [hand]).hands[0].deltas["S"] == 64000
    error = refused(play_game, FURITEN, [hand])
    assert error.message == "The yakuman count is 1 to 1 under these rules."
    hand["wins"][0]["yakuman"] = 1
    assert play_game(FURITEN, [hand]).hands[0].deltas["S"] == 32000


def test_several_winners_on_one_discard_with_sticks_and_counters():
    """docs/rules.md §5.1 (000 §3.4.4, §4.1): "the discarder pays each winner separately, counters
    included"; "a winner who declared riichi takes back their own stick, and all other sticks go
    to the winner nearest to the discarder's right". Hand 1 is drawn with E tenpai in riichi (a
    stick stays, one counter, E stays dealer); in hand 2 N and S declare riichi and E and S win on
    W's discard. After W the turn goes N, E, S: N did not win, so E is the first winner."""
    hands = [
        {"result": "draw", "tenpai": ["E"], "riichi": ["E"]},
        {
            "result": "ron",
            "from": "W",
            "wins": [{"seat": "S", "han": 2, "fu": 30}, {"seat": "E", "han": 1, "fu": 30}],
            "riichi": ["S", "N"],
        },
    ]
    game = play_game(EMA, hands)
    first, second = game.hands
    # The draw: E tenpai alone gets 1,000 from each; E's stick stays on the table.
    assert first.deltas == {"E": 3000 - 1000, "S": -1000, "W": -1000, "N": -1000}
    assert (second.dealer, second.counters, second.sticks) == ("E", 1, 1)
    # S: 2 han 30 fu = 2,000 + 300; E (dealer): 1 han 30 fu = 1,500 + 300. S takes back S's
    # stick; E (after W: N, E, S — N did not win) takes the rest: E's old one and N's.
    assert second.deltas == {
        "E": 1500 + 300 + 2000,
        "S": -1000 + 2000 + 300 + 1000,
        "W": -(2000 + 300) - (1500 + 300),
        "N": -1000,
    }
    # The dealer won (with another): a counter more, E stays (000 §3.4.9).
    assert (game.dealer, game.counters) == ("E", 2)
    assert sum(game.scores.values()) == 4 * 30000


def test_counters_on_a_self_draw_and_on_a_discard():
    """docs/rules.md §5.1: "300 per counter on a ron, paid by the discarder; 100 per counter from
    each payer on a tsumo"."""
    hands = [
        {"result": "abortive", "riichi": []},
        {"result": "abortive", "riichi": []},
        {"result": "tsumo", "wins": [{"seat": "W", "han": 1, "fu": 30}], "riichi": []},
        {"result": "draw", "tenpai": [], "riichi": []},
        {"result": "ron", "from": "N", "wins": [{"seat": "W", "han": 1, "fu": 30}], "riichi": []},
    ]
    game = play_game(EMA, hands)
    assert game.hands[2].counters == 2
    assert game.hands[2].deltas == {"E": -700, "S": -500, "W": 1700, "N": -500}
    # W won as a non-dealer: counters gone, S deals; the draw (S noten) adds one, W deals.
    assert [h.dealer for h in game.hands] == ["E", "E", "E", "S", "W"]
    assert game.hands[4].counters == 1
    assert game.hands[4].deltas == {"E": 0, "S": 0, "W": 1500 + 300, "N": -1800}


@pytest.mark.parametrize(
    ("tenpai", "expected"),
    [
        (["E"], {"E": 3000, "S": -1000, "W": -1000, "N": -1000}),
        (["E", "S"], {"E": 1500, "S": 1500, "W": -1500, "N": -1500}),
        (["E", "S", "W"], {"E": 1000, "S": 1000, "W": 1000, "N": -3000}),
        ([], {"E": 0, "S": 0, "W": 0, "N": 0}),
        (["E", "S", "W", "N"], {"E": 0, "S": 0, "W": 0, "N": 0}),
    ],
)
def test_exhaustive_draw_noten_payments(tenpai, expected):
    """docs/rules.md §5.1 (000 §3.4.2): "Noten players pay tenpai players 3,000 in all: one tenpai —
    1,000 from each noten; two tenpai — each noten pays 1,500; three tenpai — the noten player
    pays 1,000 to each; nobody or everybody tenpai — no payment.\""""
    game = play_game(EMA, [{"result": "draw", "tenpai": tenpai, "riichi": []}])
    assert game.hands[0].deltas == expected
    # The dealer stays when tenpai, else South deals; a counter either way (000 §3.4.9).
    assert game.dealer == ("E" if "E" in tenpai else "S") and game.counters == 1


def test_chombo_by_a_non_dealer_and_by_the_dealer():
    """docs/rules.md §5.1 (000 §3.4.6; 001 §7.2): "a non-dealer pays 4,000 to the dealer and 2,000
    to each other player; a dealer pays 4,000 to each. The hand is replayed: riichi sticks put down
    in that hand go back to their owners, the counters and the dealer do not change.\""""
    hands = [
        {"result": "abortive", "riichi": []},
        {"result": "chombo", "seat": "W", "riichi": ["S"]},
        {"result": "chombo", "seat": "E", "riichi": []},
    ]
    game = play_game(EMA, hands)
    assert game.hands[1].deltas == {"E": 4000, "S": 2000, "W": -8000, "N": 2000}
    assert game.hands[2].deltas == {"E": -12000, "S": 4000, "W": 4000, "N": 4000}
    assert [(h.dealer, h.counters, h.sticks) for h in game.hands] == [
        ("E", 0, 0),
        ("E", 1, 0),
        ("E", 1, 0),
    ]
    assert (game.dealer, game.counters, game.sticks_left) == ("E", 1, 0)


def test_nagashi_is_a_self_drawn_mangan_with_counters_and_sticks():
    """docs/rules.md §5.1 (000 §4.2.4): "paid as a mangan by self-draw plus the counters and the
    sticks on the table"; the desk's reading (rule field `nagashi_noten`, EMA: no): no noten
    payments in the same hand; for the dealer and the counters it is the draw it came from."""
    hands = [
        {"result": "draw", "tenpai": ["N"], "riichi": ["N"]},
        {"result": "nagashi", "seat": "W", "tenpai": ["W", "S"], "riichi": []},
    ]
    game = play_game(EMA, hands)
    nagashi = game.hands[1]
    assert (nagashi.dealer, nagashi.counters, nagashi.sticks) == ("S", 1, 1)
    # W, a non-dealer: 2,000 from E and N, 4,000 from the dealer S; +100 each; the stick.
    assert nagashi.deltas == {"E": -2100, "S": -4100, "W": 8300 + 1000, "N": -2100}
    assert game.dealer == "S" and game.counters == 2


def test_the_game_ends_after_south_and_refuses_a_hand_after_it():
    """docs/rules.md §5.1 (000 §3.5–3.6): "it ends when the player who started as East would become
    dealer for the third time"."""
    win = {"result": "ron", "from": "E", "wins": [{"seat": "S", "han": 1, "fu": 30}], "riichi": []}
    moves = []
    for n in range(8):
        seat = "ESWN"[(n + 1) % 4]
        discarder = "ESWN"[(n + 2) % 4]
        moves.append(win | {"from": discarder, "wins": [{"seat": seat, "han": 1, "fu": 30}]})
    game = play_game(EMA, moves)
    assert [h.round_wind for h in game.hands] == ["E"] * 4 + ["S"] * 4
    assert [h.dealer for h in game.hands] == list("ESWNESWN")
    assert game.over
    error = refused(play_game, EMA, [*moves, moves[0]])
    assert error.path == "hands[8]"
    assert error.message == "The game was already over before this hand."


def test_furiten_ends_when_a_score_is_below_zero():
    """docs/rules.md §5.1 (001 §2.2): "Furiten also ends the game as soon as a player's score is
    below zero (zero keeps playing)"."""
    yakuman = {"result": "ron", "from": "W", "wins": [{"seat": "S", "han": 13}], "riichi": []}
    game = play_game(FURITEN, [yakuman])  # W: 30,000 − 32,000 = −2,000
    assert game.scores["W"] == -2000 and game.over
    assert not play_game(EMA, [yakuman]).over
    mangan = {"result": "ron", "from": "W", "wins": [{"seat": "S", "han": 5}], "riichi": []}
    twice = play_game(FURITEN, [mangan, {**mangan, "wins": [{"seat": "W", "han": 5}], "from": "S"}])
    assert not twice.over
    exactly_zero = play_game(
        FURITEN, [{**mangan, "wins": [{"seat": "S", "han": 12}]}, mangan | {"from": "N"}]
    )
    assert exactly_zero.hands[0].scores["W"] == 6000 and not exactly_zero.over


def test_furiten_counters_go_back_when_the_dealership_passes_on_a_draw():
    """docs/rules.md §5.1 leaves open "whether counters survive a drawn hand in which the dealership
    passes" (001 §5.3: "the dealer puts the counter down and gets it back when the dealership
    passes"). The desk's reading (rule field `counters_on_pass`): Furiten — none stays; EMA —
    one more counter after every draw (000 §3.4.9)."""
    hands = [
        {"result": "draw", "tenpai": ["E"], "riichi": []},
        {"result": "draw", "tenpai": ["S"], "riichi": []},
    ]
    assert (play_game(FURITEN, hands).dealer, play_game(FURITEN, hands).counters) == ("S", 0)
    assert (play_game(EMA, hands).dealer, play_game(EMA, hands).counters) == ("S", 2)


def test_sticks_left_at_the_end():
    """docs/rules.md §5.1: "Sticks still on the table when the game ends: EMA gives them to the
    winner of the game (000 §3.6) … Furiten leaves them on the table (001 §3.11) … a Furiten table's
    final scores sum to 120,000 less 1,000 for every stick left — a sheet like that is right and
    must be accepted". With first place shared, the desk splits them as 000 §3.6.1 splits the
    uma, in hundreds, the rest to the first in seat order."""
    draw = {"result": "draw", "tenpai": ["S", "N"], "riichi": ["S", "N"]}
    ema = play_game(EMA, [draw])
    # S and N: 30,000 − 1,000 + 1,500 = 30,500 each, first place shared: 1,000 each.
    assert ema.sticks_left == 2
    assert ema.scores == {"E": 28500, "S": 31500, "W": 28500, "N": 31500}
    furiten = play_game(FURITEN, [draw])
    assert furiten.scores == {"E": 28500, "S": 30500, "W": 28500, "N": 30500}
    assert sum(furiten.scores.values()) == 118000
    assert validate_scores(FURITEN, list(furiten.scores.values())) == []
    assert validate_scores(EMA, list(furiten.scores.values())) != []
    three = play_game(EMA, [{"result": "draw", "tenpai": ["S", "W", "N"], "riichi": ["S"]}])
    # S 30,000; W and N 31,000 each: two of them share first, the one stick is 500 each.
    assert three.scores == {"E": 27000, "S": 30000, "W": 31500, "N": 31500}


@pytest.mark.parametrize(
    ("hand", "path", "message"),
    [
        ({"result": "win"}, "hands[0].result", "'win' is not a hand result"),
        ({"result": "ron", "from": "W", "wins": [{"seat": "W", "han": 1, "fu": 30}]},
         "hands[0].wins[0].seat", "The discarder cannot win on their own tile."),
        ({"result": "ron", "from": "X", "wins": [{"seat": "S", "han": 1, "fu": 30}]},
         "hands[0].from", "'X' is not a discarder at this table"),
        ({"result": "tsumo", "wins": [{"seat": "S", "han": 2, "fu": 30},
                                      {"seat": "W", "han": 2, "fu": 30}]},
         "hands[0].wins", "Only one player wins by self-draw."),
        ({"result": "ron", "from": "E", "wins": [{"seat": "S", "han": 3}]},
         "hands[0].wins[0].fu", "Up to 4 han the fu are needed."),
        ({"result": "ron", "from": "E", "wins": [{"seat": "S", "han": 2, "fu": 35}]},
         "hands[0].wins[0].fu", "Fu are 20, 25, or 30 to 110 in tens, not 35."),
        ({"result": "ron", "from": "E", "wins": [{"seat": "S", "han": 0, "fu": 30}]},
         "hands[0].wins[0].han", "Han is a whole number from 1 to 99 (13 and more: a yakuman)."),
        ({"result": "ron", "from": "E", "wins": [{"seat": "S", "han": 2, "fu": 30},
                                                 {"seat": "S", "han": 2, "fu": 30}]},
         "hands[0].wins[1].seat", "A seat wins once in a hand."),
        ({"result": "draw", "tenpai": ["S"], "riichi": ["W"]},
         "hands[0].tenpai", "W declared riichi but is not tenpai at the draw: that is a chombo."),
        ({"result": "draw", "tenpai": ["S", "S"]}, "hands[0].tenpai", "A seat is listed twice."),
        ({"result": "chombo", "seat": "S", "tenpai": []},
         "hands[0]", "Unknown key tenpai for a hand of chombo."),
        ({"result": "ron", "from": "E", "wins": [{"seat": "S", "yakuman": 1, "han": 13}]},
         "hands[0].wins[0]", "A yakuman has no han or fu."),
    ],
)  # fmt: skip
def test_impossible_hands_are_refused_naming_where(hand, path, message):
    """Issue 24: "Every impossible hand is refused with a clear message"."""
    error = refused(play_game, EMA, [hand])
    assert error.path == path
    assert error.message.startswith(message)


def test_three_winners_on_one_discard_each_paid():
    """000 §4.1: several players may win on one discard; the discarder pays each."""
    hand = {
        "result": "ron",
        "from": "N",
        "wins": [{"seat": s, "han": 1, "fu": 30} for s in ("E", "S", "W")],
        "riichi": [],
    }
    assert play_game(EMA, [hand]).hands[0].deltas == {
        "E": 1500,
        "S": 1000,
        "W": 1000,
        "N": -3500,
    }


# --- issue 36: one winner per discard, triple ron, nagashi, responsibility (pao) -------------

NO_PAO = ruleset_from("ema-2012", {"pao_hands": "none"})
TRIPLE_REDEAL = ruleset_from("ema-2012", {"triple_ron": "redeal"})


def discard_win(discarder, *wins, riichi=()):
    return {"result": "ron", "from": discarder, "wins": list(wins), "riichi": list(riichi)}


def test_furiten_one_winner_on_a_discard_the_first_in_turn():
    """001 §10.4: "В каждой сдаче победу может объявить лишь один игрок. Если двое объявляют
    победу на одном тайле, то приоритет имеет игрок, чей ход наступил бы раньше после
    сбросившего." Two wins on N's discard are refused, naming E, first after N; the one winner
    is paid alone: 3 han 40 fu, 5,200 from N. EMA (000 §4.1) pays both."""
    double = discard_win("N", {"seat": "S", "han": 3, "fu": 40}, {"seat": "E", "han": 2, "fu": 30})
    error = refused(play_game, FURITEN, [double])
    assert (error.path, error.code, error.params) == ("hands[0].wins", "ONE_WINNER", {"seat": "E"})
    assert error.message == (
        "Only one player wins on a discard under these rules: the first in turn after the "
        "discarder, E, takes it."
    )
    on_w = discard_win("W", {"seat": "S", "han": 1, "fu": 30}, {"seat": "N", "han": 1, "fu": 30})
    assert refused(play_game, FURITEN, [on_w]).params == {"seat": "N"}
    one = play_game(FURITEN, [discard_win("N", {"seat": "S", "han": 3, "fu": 40})])
    assert one.hands[0].deltas == {"E": 0, "S": 5200, "W": 0, "N": -5200}
    assert play_game(EMA, [double]).hands[0].deltas == {"E": 2900, "S": 5200, "W": 0, "N": -8100}


def test_furiten_three_winners_on_one_discard_is_a_redeal():
    """001 §5.5: "Победа троих. Ситуация, когда три игрока объявляют победу на одной фишке,
    сброшенной четвёртым игроком" is a redeal; §5.4 "пересдача с ренчаном" and §5.3 one more
    counter: recorded as an abortive draw (E stays, 1 counter, no payment). EMA pays each of
    the three (000 §4.1: 1,500 + 1,000 + 1,000 from N)."""
    triple = discard_win("N", *({"seat": s, "han": 1, "fu": 30} for s in "ESW"))
    error = refused(play_game, FURITEN, [triple])
    assert (error.path, error.code, error.params) == ("hands[0].wins", "TRIPLE_RON_REDEAL", {})
    assert refused(play_game, TRIPLE_REDEAL, [triple]).code == "TRIPLE_RON_REDEAL"
    # the two rule fields are apart: a double ron is still paid where only triple ron redeals
    double = discard_win("N", {"seat": "E", "han": 1, "fu": 30}, {"seat": "S", "han": 1, "fu": 30})
    assert play_game(TRIPLE_REDEAL, [double]).hands[0].deltas["N"] == -2500
    redeal = play_game(FURITEN, [{"result": "abortive", "riichi": []}])
    assert (redeal.dealer, redeal.counters) == ("E", 1)
    assert play_game(EMA, [triple]).hands[0].deltas["N"] == -3500


def test_furiten_has_no_nagashi_mangan():
    """Furiten's list of hands (001, appendix В) has no nagashi mangan: refused, saying why;
    EMA 000 §4.2.4 pays it (W, non-dealer: 2,000 + 2,000 + 4,000 = 8,000)."""
    nagashi = {"result": "nagashi", "seat": "W", "tenpai": [], "riichi": []}
    error = refused(play_game, FURITEN, [nagashi])
    assert (error.path, error.code) == ("hands[0].result", "NO_NAGASHI")
    assert error.message == "These rules have no nagashi mangan: record the exhaustive draw."
    assert play_game(EMA, [nagashi]).hands[0].deltas["W"] == 8000


def test_pao_on_a_self_draw_the_responsible_player_pays_the_whole_hand():
    """000 §3.3.6: the player who gave the third dragon set pays "повну вартість руки в разі,
    якщо Три Великі Дракони … будуть взяті зі стіни (два гравці, що нічого не платять)".
    S, not the dealer, self-draws Big Three Dragons; W gave the third dragon: W pays 32,000,
    E and N nothing (without pao: E 16,000, W and N 8,000 each)."""
    tsumo = {"result": "tsumo", "wins": [{"seat": "S", "yakuman": 1, "pao": "W"}], "riichi": []}
    hand = play_game(EMA, [tsumo]).hands[0]
    assert hand.deltas == {"E": 0, "S": 32000, "W": -32000, "N": 0}
    assert [(p.payer, p.payee, p.amount, p.why) for p in hand.payments] == [
        ("W", "S", 32000, "pao")
    ]
    # the dealer's: 48,000 from the responsible player; Big Four Winds, EMA's double: 64,000
    dealer = {**tsumo, "wins": [{"seat": "E", "yakuman": 1, "pao": "N"}]}
    assert play_game(EMA, [dealer]).hands[0].deltas == {"E": 48000, "S": 0, "W": 0, "N": -48000}
    double = {**tsumo, "wins": [{"seat": "S", "yakuman": 2, "pao": "N"}]}
    assert play_game(EMA, [double]).hands[0].deltas == {"E": 0, "S": 64000, "W": 0, "N": -64000}


def test_pao_on_a_discard_the_discarder_and_the_responsible_player_share():
    """000 §3.3.6: "У разі, якщо інший опонент здасть на Три Великі Дракони …, він ділить
    виплату порівну з гравцем, який забезпечив третій пон": S wins Big Three Dragons on N's
    discard, W responsible: 16,000 each of 32,000; the dealer's 48,000: 24,000 each. A
    responsible player who discards the winning tile pays it all."""
    shared = discard_win("N", {"seat": "S", "yakuman": 1, "pao": "W"})
    assert play_game(EMA, [shared]).hands[0].deltas == {
        "E": 0,
        "S": 32000,
        "W": -16000,
        "N": -16000,
    }
    dealer = discard_win("N", {"seat": "E", "yakuman": 1, "pao": "S"})
    assert play_game(EMA, [dealer]).hands[0].deltas == {
        "E": 48000,
        "S": -24000,
        "W": 0,
        "N": -24000,
    }
    own = discard_win("W", {"seat": "S", "yakuman": 1, "pao": "W"})
    assert play_game(EMA, [own]).hands[0].deltas == {"E": 0, "S": 32000, "W": -32000, "N": 0}
    # two winners on one discard (000 §4.1), pao for one of them: N pays 2,900 and 16,000
    double = discard_win(
        "N", {"seat": "E", "han": 2, "fu": 30}, {"seat": "S", "yakuman": 1, "pao": "W"}
    )
    assert play_game(EMA, [double]).hands[0].deltas == {
        "E": 2900,
        "S": 32000,
        "W": -16000,
        "N": -18900,
    }


def test_pao_counters_and_sticks_under_furiten():
    """001 §8.1: "В случае победы по цумо, за якуман расплачивается игрок с пао, а случае рона -
    очки делят пополам игрок сбросивший победный тайл и игрок с пао. Однако за хонбу
    расплачивается только игрок сбросивший выигрышный тайл." After two drawn hands (2
    counters, E tenpai so E deals on; N's stick on the table) S wins a yakuman on N's
    discard, W responsible: N pays 16,000 + 600, W 16,000; S takes the stick. By self-draw the
    responsible player pays all, counters too (the desk's reading: what the three would pay,
    300 a counter): W pays 32,000 + 600."""
    draws = [
        {"result": "draw", "tenpai": ["E", "N"], "riichi": ["N"]},
        {"result": "draw", "tenpai": ["E"], "riichi": []},
    ]
    game = play_game(FURITEN, [*draws, discard_win("N", {"seat": "S", "yakuman": 1, "pao": "W"})])
    hand = game.hands[2]
    assert (hand.dealer, hand.counters, hand.sticks) == ("E", 2, 1)
    assert hand.deltas == {"E": 0, "S": 32000 + 600 + 1000, "W": -16000, "N": -16600}
    assert [(p.payer, p.amount, p.why) for p in hand.payments] == [
        ("N", 16000, "ron"),
        ("W", 16000, "pao"),
        ("N", 600, "counters"),
        (None, 1000, "sticks"),
    ]
    tsumo = {"result": "tsumo", "wins": [{"seat": "S", "yakuman": 1, "pao": "W"}], "riichi": []}
    hand = play_game(FURITEN, [*draws, tsumo]).hands[2]
    assert hand.deltas == {"E": 0, "S": 33600, "W": -32600, "N": 0}


@pytest.mark.parametrize(
    "rules, win, code",
    [
        (NO_PAO, {"seat": "S", "yakuman": 1, "pao": "W"}, "NO_PAO"),
        (EMA, {"seat": "S", "han": 13, "pao": "W"}, "PAO_NOT_YAKUMAN"),
        (FURITEN, {"seat": "S", "han": 5, "pao": "W"}, "PAO_NOT_YAKUMAN"),
        (EMA, {"seat": "S", "yakuman": 1, "pao": "S"}, "PAO_WINNER"),
        (EMA, {"seat": "S", "yakuman": 1, "pao": "X"}, "NOT_A_SEAT"),
    ],
)
def test_pao_refused(rules, win, code):
    """A responsibility the rules do not give: none in the rule set, on a hand that is no
    yakuman (000 §3.3.6 and 001 §8.2 name yakuman only), naming the winner."""
    for hand in (discard_win("N", win), {"result": "tsumo", "wins": [win], "riichi": []}):
        error = refused(play_game, rules, [hand])
        assert (error.path, error.code) == ("hands[0].wins[0].pao", code)


def test_a_whole_game_ending_in_a_pao_hand_replays_as_000_3_3_6_pays_it():
    """Issue 36: on the real game with pao the desk's final scores were off by +24,000 /
    −8,000 / −16,000. 1. E deals; S wins 3 han 40 fu on W's discard, S and N in riichi: S
    +6,200, W −5,200, N −1,000. 2. S deals; N self-draws Big Three Dragons, E gave the third
    dragon pung: 000 §3.3.6, E pays the whole 32,000, S and W nothing. Without pao S (the
    dealer) would pay 16,000 and E and W 8,000 each: E +24,000, S −16,000, W −8,000."""
    hands = [
        discard_win("W", {"seat": "S", "han": 3, "fu": 40}, riichi="SN"),
        {"result": "tsumo", "wins": [{"seat": "N", "yakuman": 1, "pao": "E"}], "riichi": []},
    ]
    game = play_game(EMA, hands)
    assert game.scores == {"E": -2000, "S": 36200, "W": 24800, "N": 61000}
    assert sum(game.scores.values()) == 120000
    without = play_game(EMA, [hands[0], {**hands[1], "wins": [{"seat": "N", "yakuman": 1}]}])
    off = {s: without.scores[s] - game.scores[s] for s in game.scores}
    assert off == {"E": 24000, "S": -16000, "W": -8000, "N": 0}


# --- issue 36: Furiten's win on the replacement tile after an open kan (kan_from) --------------


def test_furiten_a_win_on_the_replacement_tile_of_an_open_kan_is_paid_by_its_giver():
    """001 §2.18: "Если игрок объявляет победу на тайле, взятом с мертвой стены, после
    объявления открытого кана, то за победу расплачивается игрок, позволивший собрать кан …
    Риншан-кайхо считается за победу по цумо." After a drawn hand (E tenpai, E's stick on the
    table, 1 counter) the dealer E wins 3 han 40 fu on the replacement tile of an open kan W
    gave the tile of: W pays it as a ron, 7,700 (table 2, the dealer's ron) and 300 for the
    counter; E takes back the stick. As a plain self-draw it is 2,600 + 100 from each."""
    draw = {"result": "draw", "tenpai": ["E"], "riichi": ["E"]}
    kan = {
        "result": "tsumo",
        "wins": [{"seat": "E", "han": 3, "fu": 40}],
        "riichi": [],
        "kan_from": "W",
    }
    game = play_game(FURITEN, [draw, kan])
    hand = game.hands[1]
    assert (hand.dealer, hand.counters, hand.sticks) == ("E", 1, 1)
    assert [(p.payer, p.payee, p.amount, p.why) for p in hand.payments] == [
        ("W", "E", 7700, "kan_from"),
        ("W", "E", 300, "counters"),
        (None, "E", 1000, "sticks"),
    ]
    assert hand.deltas == {"E": 9000, "S": 0, "W": -8000, "N": 0}
    assert (game.dealer, game.counters) == ("E", 2)  # the dealer won: a tsumo like any other
    plain = play_game(FURITEN, [draw, {k: v for k, v in kan.items() if k != "kan_from"}])
    assert plain.hands[1].deltas == {"E": 9100, "S": -2700, "W": -2700, "N": -2700}


def test_furiten_kan_from_with_pao_is_paid_as_a_ron_of_its_giver():
    """001 §2.18 with §8.1–8.2: S wins Four Kongs on the replacement tile of the fourth kan, an
    open kan on N's tile: N let the fourth kan be declared (pao) and gave its tile, so N pays
    all 32,000. If W was responsible (pao, Big Three Dragons) instead, N and W pay 16,000 each,
    as on a ron."""
    four_kongs = {
        "result": "tsumo",
        "wins": [{"seat": "S", "yakuman": 1, "pao": "N"}],
        "riichi": [],
        "kan_from": "N",
    }
    assert play_game(FURITEN, [four_kongs]).hands[0].deltas == {
        "E": 0,
        "S": 32000,
        "W": 0,
        "N": -32000,
    }
    dragons = {**four_kongs, "wins": [{"seat": "S", "yakuman": 1, "pao": "W"}]}
    assert play_game(FURITEN, [dragons]).hands[0].deltas == {
        "E": 0,
        "S": 32000,
        "W": -16000,
        "N": -16000,
    }


@pytest.mark.parametrize(
    "rules, hand, path, code",
    [
        (EMA, {"result": "tsumo", "wins": [{"seat": "S", "han": 3, "fu": 40}], "riichi": [],
               "kan_from": "N"}, "hands[0].kan_from", "NO_KAN_FROM"),
        (FURITEN, {"result": "tsumo", "wins": [{"seat": "S", "han": 3, "fu": 40}], "riichi": [],
                   "kan_from": "S"}, "hands[0].kan_from", "KAN_FROM_WINNER"),
        (FURITEN, {"result": "tsumo", "wins": [{"seat": "S", "han": 3, "fu": 40}], "riichi": [],
                   "kan_from": "X"}, "hands[0].kan_from", "NOT_A_SEAT"),
        (FURITEN, {"result": "ron", "from": "W", "wins": [{"seat": "S", "han": 3, "fu": 40}],
                   "riichi": [], "kan_from": "N"}, "hands[0]", "UNKNOWN_HAND_KEY"),
    ],
)  # fmt: skip
def test_kan_from_refused(rules, hand, path, code):
    """kan_from only where the rule set makes the kan's giver pay (001 §2.18; EMA names no
    other payer for a win from the dead wall), only on a tsumo, never the winner."""
    error = refused(play_game, rules, [hand])
    assert (error.path, error.code) == (path, code)
