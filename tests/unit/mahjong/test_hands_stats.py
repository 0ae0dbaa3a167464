"""Statistics from hands (mahjong.hands.stats): exact numbers on small sheets, each pinned to the
rule of docs/rules.md §5 it depends on. Seats E S W N are players a b c d at every table here."""

from mahjong.hands import play
from mahjong.hands.stats import (
    Largest,
    MostWins,
    RiichiStats,
    SichuanStats,
    TableGame,
    hand_lines,
    statistics,
)
from mahjong.presets import PRESETS
from tests.support.hands import EMA_SCORES, RIICHI_HANDS, SICHUAN_HANDS

EMA = PRESETS["ema-2012"]
SBR = PRESETS["sbr-2025"]
PLAYERS = {"E": "a", "S": "b", "W": "c", "N": "d"}


def table(rules, hands, session=1, number=1, players=PLAYERS):
    game = play(rules, hands, tuple(players)).game
    return TableGame(session, number, dict(players), hands, game)


def test_riichi_game_per_player():
    """tests/support/hands.py's EMA game (each hand worked out there from docs/rules.md §5.1):
    1. S wins 3 han 40 fu on W's discard after riichi — "Ron: the discarder pays the winner
       4 × base": 4 × 1,280 = 5,120, "rounded up to 100": 5,200; N's riichi stick is no win.
    2. Drawn; N declares riichi again.
    3. E self-draws a mangan after riichi: the dealer W pays 4,000, S and N 2,000 each — 8,000;
       the counter's 100 from each and the two sticks are the table's, not the hand's.
    4. N's chombo."""
    stats = statistics("riichi", [table(EMA, RIICHI_HANDS)])
    assert stats.players == {
        "a": RiichiStats(hands=4, wins=1, tsumo=1, riichi=1, riichi_won=1, win_points=8000),
        "b": RiichiStats(hands=4, wins=1, riichi=1, riichi_won=1, win_points=5200),
        "c": RiichiStats(hands=4, deal_ins=1),
        "d": RiichiStats(hands=4, riichi=2, chombo=1),
    }
    a, b, c = stats.players["a"], stats.players["b"], stats.players["c"]
    assert (a.average_win, a.tsumo_share) == (8000, 1.0)
    assert (b.average_win, b.tsumo_share) == (5200, 0.0)
    assert (c.average_win, c.tsumo_share) == (None, None)
    assert stats.largest == (Largest("a", 1, 1, 3, 8000),)
    assert stats.most_wins == MostWins(("b", "a"), 1)


def test_riichi_double_ron_counters_left_out_of_the_win():
    """1. The dealer E self-draws 1 han 30 fu: "a dealer winner gets 2 × base from each": base
       30 × 2^3 = 240, 480 "rounded up" to 500 from each, 1,500. E stays dealer, one counter.
    2. N's discard: E wins 2 han 30 fu and S a yakuman. "Several players may win on one
       discard: the discarder pays each winner separately, counters included (000 §4.1)":
       E 6 × 480 = 2,880 → 2,900 and S 4 × 8,000 = 32,000, each with the counter's 300, which
       the win's value leaves out. N dealt in once."""
    hands = [
        {"result": "tsumo", "wins": [{"seat": "E", "han": 1, "fu": 30}], "riichi": []},
        {
            "result": "ron",
            "from": "N",
            "wins": [{"seat": "E", "han": 2, "fu": 30}, {"seat": "S", "yakuman": 1}],
            "riichi": [],
        },
    ]
    t = table(EMA, hands)
    assert t.game.hands[1].deltas == {"E": 3200, "S": 32300, "W": 0, "N": -35500}
    stats = statistics("riichi", [t])
    assert stats.players["a"] == RiichiStats(hands=2, wins=2, tsumo=1, win_points=4400)
    assert (stats.players["a"].average_win, stats.players["a"].tsumo_share) == (2200, 0.5)
    assert stats.players["b"] == RiichiStats(hands=2, wins=1, win_points=32000)
    assert stats.players["d"].deal_ins == 1
    assert stats.largest == (Largest("b", 1, 1, 2, 32000),)
    assert stats.most_wins == MostWins(("a",), 2)


def test_nagashi_is_no_win_and_the_average_rounds_half_up():
    """000 §4.2.4: nagashi mangan is scored "after an exhaustive draw" — a payment, not a won
    hand. With no win anywhere there is no largest hand and nobody has the most wins."""
    hands = [{"result": "nagashi", "seat": "W", "tenpai": [], "riichi": []}]
    stats = statistics("riichi", [table(EMA, hands)])
    assert stats.players["c"] == RiichiStats(hands=1)
    assert (stats.largest, stats.most_wins) == ((), None)
    assert RiichiStats(wins=3, win_points=8000).average_win == 2667
    assert RiichiStats(wins=2, win_points=2901).average_win == 1451


def test_highlights_over_tables_list_every_hand_of_the_largest_value_in_play_order():
    """The same mangan tsumo (8,000) at two tables of two sessions: both are the largest hand,
    session 1 first; the two winners share the most wins."""
    mangan = [{"result": "tsumo", "wins": [{"seat": "S", "han": 5}], "riichi": []}]
    other = {"E": "e", "S": "f", "W": "g", "N": "h"}
    tables = [table(EMA, mangan, 2, 1, other), table(EMA, mangan, 1, 3)]
    stats = statistics("riichi", tables)
    assert stats.largest == (Largest("b", 1, 3, 1, 8000), Largest("f", 2, 1, 1, 8000))
    assert stats.most_wins == MostWins(("b", "f"), 1)


def test_sichuan_session_per_player():
    """tests/support/hands.py's Sichuan session (docs/rules.md §5.2):
    1. W's concealed kong, "2 from each player not yet hu": W +6, the others −2 each. S hu 2 fans
       and N hu 0 fans, each on E's discard: two discards, two deal-ins for E. W self-draws.
    2. The wall runs out; W is an active pig ("Pig: 48 points"), S not waiting."""
    stats = statistics("sichuan", [table(SBR, SICHUAN_HANDS)])
    assert stats.players == {
        "a": SichuanStats(hands=2, kong_points=-2, deal_ins=2),
        "b": SichuanStats(hands=2, hu=1, kong_points=-2),
        "c": SichuanStats(hands=2, hu=1, self_draw=1, kong_points=6, pigs=1),
        "d": SichuanStats(hands=2, hu=1, kong_points=-2),
    }
    assert stats.players["c"].self_draw_share == 1.0
    assert stats.players["b"].self_draw_share == 0.0
    assert stats.players["a"].self_draw_share is None
    assert stats.largest == (Largest("b", 1, 1, 1, 2),)
    assert stats.most_wins == MostWins(("b", "c", "d"), 1)


def test_sichuan_robbed_kong_false_hu_and_one_discard_won_twice():
    """Appendix 1, 9: a robbed kong "считается недействительным" — N's added kong pays nothing
    and N, whose tile S robs, deals in. W's false hu (not waiting) pays "16 each" to the players
    still in the hand (§2.8.4 (2)) and W plays on. E (5 fans) and W (0 fans) then win on one
    discard of N: one deal-in. The most fans is 5, though the payment stops at 4 (§2.7.3)."""
    hand = {
        "events": [
            {"kong": "added", "seat": "N"},
            {"hu": [{"seat": "S", "fans": 1}], "from": "N", "robbing_kong": True},
            {"false_hu": "W", "waiting": False},
            {"hu": [{"seat": "E", "fans": 5}, {"seat": "W", "fans": 0}], "from": "N"},
        ]
    }
    t = table(SBR, [hand])
    assert t.game.points == {"E": 32, "S": 2, "W": -31, "N": -3}
    stats = statistics("sichuan", [t])
    assert stats.players["d"] == SichuanStats(hands=1, deal_ins=2)
    assert stats.players["c"] == SichuanStats(hands=1, hu=1, false_hu=1)
    assert stats.largest == (Largest("a", 1, 1, 1, 5),)


def test_riichi_hand_lines():
    """One line per hand with the win's own han/fu, the payer, and the running totals."""
    lines = hand_lines("riichi", [table(EMA, RIICHI_HANDS)])
    first, _draw, tsumo, chombo = lines
    assert (first.result, first.winners, first.payers, first.values) == (
        "ron",
        ("S",),
        ("W",),
        ({"han": 3, "fu": 40},),
    )
    assert first.riichi == ("S", "N")
    assert first.deltas == {"E": 0, "S": 6200, "W": -5200, "N": -1000}
    assert (tsumo.dealer, tsumo.self_drawn, tsumo.values) == ("W", ("E",), ({"han": 5},))
    assert (chombo.payers, chombo.winners) == (("N",), ())
    assert lines[-1].totals == dict(zip("ESWN", EMA_SCORES, strict=True))


def test_sichuan_hand_lines_and_a_three_player_table():
    lines = hand_lines("sichuan", [table(SBR, SICHUAN_HANDS)])
    assert (lines[0].result, lines[0].winners, lines[0].payers) == ("hu", ("S", "W", "N"), ("E",))
    assert (lines[0].values, lines[0].self_drawn) == ((2, 1, 0), ("W",))
    assert lines[0].deltas == {"E": -10, "S": 2, "W": 12, "N": -4}
    assert (lines[1].result, lines[1].dealer, lines[1].totals) == (
        "exhausted",
        "S",
        {"E": 10, "S": 15, "W": -39, "N": 14},
    )
    three = {"E": "a", "S": "b", "W": "c"}
    hand = {"events": [{"hu": [{"seat": "S", "fans": 1}], "from": "E"}], "exhausted": {
        "E": "not_waiting", "W": {"waiting": 0}}}  # fmt: skip
    (line,) = hand_lines("sichuan", [table(SBR, [hand], players=three)])
    assert line.seats == ("E", "S", "W")
    assert line.deltas == {"E": -3, "S": 2, "W": 1}


def test_riichi_pao_the_whole_yakuman_is_the_win_and_no_deal_in_for_the_responsible():
    """Issue 36, 000 §3.3.6: S wins Big Three Dragons on N's discard, W responsible: N and W
    pay 16,000 each, and the win is worth the whole 32,000 (the largest hand). N dealt in; W,
    who gave the third dragon set, made no deal-in but is a payer of the hand. A self-drawn
    yakuman with pao (E pays all 32,000 to N) is a tsumo win of 32,000."""
    hands = [
        {"result": "ron", "from": "N", "wins": [{"seat": "S", "yakuman": 1, "pao": "W"}],
         "riichi": []},
        {"result": "tsumo", "wins": [{"seat": "N", "yakuman": 1, "pao": "E"}], "riichi": []},
    ]  # fmt: skip
    stats = statistics("riichi", [table(EMA, hands)])
    assert stats.players["b"] == RiichiStats(hands=2, wins=1, win_points=32000)
    assert stats.players["c"] == RiichiStats(hands=2)
    assert stats.players["d"] == RiichiStats(hands=2, wins=1, tsumo=1, deal_ins=1, win_points=32000)
    assert stats.largest == (Largest("b", 1, 1, 1, 32000), Largest("d", 1, 1, 2, 32000))
    lines = hand_lines("riichi", [table(EMA, hands)])
    assert [line.payers for line in lines] == [("N", "W"), ("E",)]
    assert lines[0].values == ({"yakuman": 1, "pao": "W"},)


def test_riichi_kan_from_is_a_tsumo_win_its_giver_pays():
    """001 §2.18: the dealer E wins 3 han 40 fu on the replacement tile of W's open kan tile:
    W pays 7,700 as for a ron. It is a tsumo (for the yaku "Риншан-кайхо считается за победу
    по цумо"), worth 7,700; W is its payer and made no deal-in (W discarded no winning tile)."""
    furiten = PRESETS["furiten-club"]
    hands = [
        {"result": "tsumo", "wins": [{"seat": "E", "han": 3, "fu": 40}], "riichi": [],
         "kan_from": "W"},
    ]  # fmt: skip
    stats = statistics("riichi", [table(furiten, hands)])
    assert stats.players["a"] == RiichiStats(hands=1, wins=1, tsumo=1, win_points=7700)
    assert stats.players["c"] == RiichiStats(hands=1)
    assert [line.payers for line in hand_lines("riichi", [table(furiten, hands)])] == [("W",)]


def test_sichuan_dead_hand_is_counted_and_its_kong_points_are_net_zero():
    """002 §2.8.3: N's concealed kong (2 from each of E, S, W) goes back when N's hand is
    declared dead: N's kong points are 0 and the hand counts one dead hand for d. S wins 1 fan
    on E's discard; at the wall W and N pay waiting E 2 each (§2.7.4 (4))."""
    hand = {
        "events": [
            {"kong": "concealed", "seat": "N"},
            {"dead": "N"},
            {"hu": [{"seat": "S", "fans": 1}], "from": "E"},
        ],
        "exhausted": {"E": {"waiting": 1}, "W": "not_waiting", "N": "not_waiting"},
    }
    t = table(SBR, [hand])
    assert t.game.points == {"E": 2, "S": 2, "W": -2, "N": -2}
    stats = statistics("sichuan", [t])
    assert stats.players["d"] == SichuanStats(hands=1, dead=1)
    assert stats.players["a"] == SichuanStats(hands=1, deal_ins=1)
    assert stats.players["b"] == SichuanStats(hands=1, hu=1)


def test_sichuan_a_pig_on_a_winning_hand_counts_as_a_pig_and_a_hu():
    """002 §2.5.8 (3): S wins 2 fans on E's discard with a tile of the forbidden suit: a hu and
    a pig (48 points, 16 to each other player, §2.8.4 (1))."""
    hand = {
        "events": [
            {"hu": [{"seat": "S", "fans": 2, "pig": True}], "from": "E"},
            {"hu": [{"seat": "W", "fans": 0}], "from": "E"},
            {"hu": [{"seat": "N", "fans": 0}], "from": "E"},
        ]
    }
    t = table(SBR, [hand])
    assert t.game.points == {"E": 10, "S": -44, "W": 17, "N": 17}
    assert statistics("sichuan", [t]).players["b"] == SichuanStats(hands=1, hu=1, pigs=1)
