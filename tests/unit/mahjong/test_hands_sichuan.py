"""Sichuan hands (mahjong.hands.sichuan), pinned to docs/rules.md §5.2 and seed 002 (SBR 2025,
Russian).

Each test quotes the rule it pins. Seats: E S W N (three-player table: E S W, §3.1 "отсутствующий
игрок считается «Севером»"); the dealer is E unless said.
"""

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mahjong.hands.sichuan import HandError, Payment, base_points, play_game, play_hand
from tests.support.hands import README_SICHUAN

FOUR = ("E", "S", "W", "N")
THREE = ("E", "S", "W")


def play(events, exhausted=None, seats=FOUR, dealer="E"):
    hand = {"events": events}
    if exhausted is not None:
        hand["exhausted"] = exhausted
    return play_hand(hand, seats, dealer)


def waiting(*seats, fans=0):
    """Every listed seat waiting: at an exhausted wall nobody pays anybody (§2.7.4 (5))."""
    return {s: {"waiting": fans} for s in seats}


def flows(result, *why):
    return [(p.payer, p.payee, p.amount, p.why) for p in result.payments if not why or p.why in why]


def total(result):
    assert sum(result.points.values()) == 0
    return result.points


def hu(seat, fans=0, **more):
    return {"hu": [{"seat": seat, "fans": fans}], **more}


# --- kongs ----------------------------------------------------------------------------------


def test_open_kong_two_from_the_discarder():
    """§2.7.2 (1): "игрок, объявивший конг, получает 2 очка от игрока, снёсшего кость в этот
    конг". docs/rules.md §5.2: "Open kong on a discard: 2 from the discarder"."""
    r = play([{"kong": "open", "seat": "S", "from": "W"}], waiting(*FOUR))
    assert flows(r) == [("W", "S", 2, "kong")]
    assert total(r) == {"E": 0, "S": 2, "W": -2, "N": 0}
    assert r.payments[0] == Payment("W", "S", 2, "kong", 0)
    assert r.stats["S"].kongs == 1 and r.stats["S"].kong_points == 2
    assert r.stats["W"].kong_points == -2


def test_concealed_kong_two_from_each_player_not_yet_hu():
    """§2.7.2 (2): "получает по 2 очка за каждого игрока, который не объявил маджонг на момент
    объявления конга"."""
    r = play([{"kong": "concealed", "seat": "N"}], waiting(*FOUR))
    assert total(r) == {"E": -2, "S": -2, "W": -2, "N": 6}


def test_concealed_kong_after_a_hu_is_not_paid_by_the_winner():
    """Appendix 1: "по 2 очка с каждого игрока, кто не объявил маджонг на момент объявления
    конга"; docs/rules.md §5.2: "each player not yet hu at that moment" pays, in event order."""
    r = play(
        [hu("S", 0, **{"from": "E"}), {"kong": "concealed", "seat": "N"}],
        waiting("E", "W", "N"),
    )
    assert flows(r, "kong") == [("E", "N", 2, "kong"), ("W", "N", 2, "kong")]
    assert total(r) == {"E": -3, "S": 1, "W": -2, "N": 4}


def test_concealed_kong_before_a_hu_is_paid_by_the_later_winner():
    """The same kong before the hu: S was "not yet hu at that moment" and pays too."""
    r = play(
        [{"kong": "concealed", "seat": "N"}, hu("S", 0, **{"from": "E"})],
        waiting("E", "W", "N"),
    )
    assert total(r) == {"E": -3, "S": -1, "W": -2, "N": 6}


def test_added_kong_with_the_drawn_tile_one_from_each_player_not_yet_hu():
    """§2.7.2 (3): "при объявлении дополненного конга с только что взятой со стены кости,
    игрок ... получает по 1 очку от каждого игрока, который не объявил маджонг на момент
    объявления конга"."""
    r = play([{"kong": "added", "seat": "E"}], waiting(*FOUR))
    assert total(r) == {"E": 3, "S": -1, "W": -1, "N": -1}
    r = play([hu("W", 0, self_draw=True), {"kong": "added", "seat": "E"}], waiting("E", "S", "N"))
    assert flows(r, "kong") == [("S", "E", 1, "kong"), ("N", "E", 1, "kong")]


def test_added_kong_from_the_hand_pays_nothing():
    """§2.7.2 (3): "Когда объявляется дополненный конг с кости из руки, очки не начисляются,
    это называется «отложенный» конг"."""
    r = play([{"kong": "added", "seat": "E", "from_hand": True}], waiting(*FOUR))
    assert r.payments == [] and total(r) == dict.fromkeys(FOUR, 0)
    assert r.stats["E"].kongs == 1
    r = play([{"kong": "added", "seat": "E", "from_hand": False}], waiting(*FOUR))
    assert r.points["E"] == 3


def test_kong_points_go_back_when_the_maker_ends_not_waiting():
    """§2.7.2 (4): "Если игрок, объявивший любой тип конга, не объявляет маджонг или не получает
    ожидание в текущей сдаче, все очки, заработанные за объявленные конги в текущей сдаче,
    будут возвращены"."""
    r = play(
        [
            {"kong": "open", "seat": "S", "from": "E"},
            {"kong": "concealed", "seat": "S"},
            {"kong": "added", "seat": "S"},
        ],
        {"E": "not_waiting", "S": "not_waiting", "W": "not_waiting", "N": "not_waiting"},
    )
    assert total(r) == dict.fromkeys(FOUR, 0)
    refunds = [p for p in r.payments if p.why == "refund"]
    assert [(p.payer, p.payee, p.amount, p.event, p.kong) for p in refunds] == [
        ("S", "E", 2, None, 0),
        ("S", "E", 2, None, 1),
        ("S", "W", 2, None, 1),
        ("S", "N", 2, None, 1),
        ("S", "E", 1, None, 2),
        ("S", "W", 1, None, 2),
        ("S", "N", 1, None, 2),
    ]
    assert r.stats["S"].kongs == 3 and r.stats["S"].kong_points == 0


@pytest.mark.parametrize("state", ["not_waiting", "pig_passive"])
def test_kong_refund_and_waiting_payment_together(state):
    """§2.7.2 (4) with §2.7.4 (3)–(4): a passive pig "рассматривается как «без ожидания»": it
    returns its kongs and pays the waiting player that player's base points."""
    r = play(
        [{"kong": "concealed", "seat": "W"}],
        {"E": {"waiting": 1}, "S": {"waiting": 1}, "W": state, "N": {"waiting": 1}},
    )
    assert flows(r) == [
        ("E", "W", 2, "kong"),
        ("S", "W", 2, "kong"),
        ("N", "W", 2, "kong"),
        ("W", "E", 2, "refund"),
        ("W", "S", 2, "refund"),
        ("W", "N", 2, "refund"),
        ("W", "E", 2, "waiting"),
        ("W", "S", 2, "waiting"),
        ("W", "N", 2, "waiting"),
    ]
    assert total(r) == {"E": 2, "S": 2, "W": -6, "N": 2}


def test_a_waiting_kong_maker_keeps_the_kong():
    """§2.7.2 (4) returns the kong points only of a player who "не получает ожидание"."""
    r = play([{"kong": "concealed", "seat": "W"}], {**waiting("E", "S", "N"), "W": {"waiting": 1}})
    assert total(r) == {"E": -2, "S": -2, "W": 6, "N": -2}


def test_a_winner_keeps_the_kong():
    """§2.7.2 (4): only a player who "не объявляет маджонг" and is not waiting returns them."""
    r = play(
        [{"kong": "concealed", "seat": "W"}, hu("W", 1, self_draw=True)],
        {"E": "not_waiting", "S": "not_waiting", "N": "not_waiting"},
    )
    assert total(r) == {"E": -5, "S": -5, "W": 15, "N": -5}


def test_the_last_player_after_three_hu_keeps_the_kong():
    """Reading (module docstring): §2.5.8 (3) checks "все игроки с объявленным маджонгом, все
    игроки в финале «Исчерпание стены»"; after three hu the fourth hand is not shown."""
    r = play(
        [
            {"kong": "concealed", "seat": "N"},
            {
                "hu": [
                    {"seat": "E", "fans": 0},
                    {"seat": "S", "fans": 0},
                    {"seat": "W", "fans": 0},
                ],
                "from": "N",
            },
        ]
    )
    assert not r.exhausted
    assert total(r) == {"E": -1, "S": -1, "W": -1, "N": 3}


def test_discard_after_kong_returns_that_kong():
    """§2.7.2 (5): "Если игрок, объявивший любой тип конга, снесёт кость в выигрышную руку
    другого игрока («Наброс после конга»), очки, заработанные за конг, будут возвращены"."""
    r = play(
        [
            {"kong": "concealed", "seat": "W"},
            hu("S", 2, **{"from": "W", "after_kong": True}),
        ],
        waiting("E", "W", "N"),
    )
    assert flows(r) == [
        ("E", "W", 2, "kong"),
        ("S", "W", 2, "kong"),
        ("N", "W", 2, "kong"),
        ("W", "S", 4, "hu"),
        ("W", "E", 2, "refund"),
        ("W", "S", 2, "refund"),
        ("W", "N", 2, "refund"),
    ]
    assert [p.event for p in r.payments if p.why == "refund"] == [1, 1, 1]
    assert total(r) == {"E": 0, "S": 4, "W": -4, "N": 0}


def test_discard_after_several_kongs_returns_only_the_last():
    """§2.7.2 (5): "При объявлении нескольких конгов подряд на одном ходу очки будут возвращены
    только за последний объявленный конг"."""
    r = play(
        [
            {"kong": "concealed", "seat": "W"},
            {"kong": "added", "seat": "W"},
            hu("N", 0, **{"from": "W", "after_kong": True}),
        ],
        waiting("E", "S", "W"),
    )
    assert [(p.payee, p.amount, p.kong) for p in r.payments if p.why == "refund"] == [
        ("E", 1, 1),
        ("S", 1, 1),
        ("N", 1, 1),
    ]
    assert total(r) == {"E": -2, "S": -2, "W": 5, "N": -1}


def test_discard_after_an_open_kong():
    """§2.7.2 (5) "любой тип конга": an open kong's 2 points go back to its discarder."""
    r = play(
        [
            {"kong": "open", "seat": "W", "from": "E"},
            hu("N", 1, **{"from": "W", "after_kong": True}),
        ],
        waiting("E", "S", "W"),
    )
    assert total(r) == {"E": 0, "S": 0, "W": -2, "N": 2}


def test_robbing_the_kong_voids_the_kong_and_the_kong_maker_pays():
    """Appendix 1 (9): "Выигрыш на кость, которую другой игрок доставлял для создания
    дополненного конга (конг считается недействительным ...)"; docs/rules.md §5.2: "A kong robbed
    by a hu does not count (no kong points, no fan)"."""
    r = play(
        [
            {"kong": "added", "seat": "N"},
            hu("S", 1, **{"from": "N", "robbing_kong": True}),
        ],
        waiting("E", "W", "N"),
    )
    assert flows(r) == [("N", "S", 2, "hu")]
    assert total(r) == {"E": 0, "S": 2, "W": 0, "N": -2}
    assert r.stats["N"].kongs == 0 and r.stats["N"].dealt_in == 1
    assert r.next_dealer == "S"


def test_robbing_the_kong_by_two_players():
    """§2.6.2 (3) several hu on one tile; the robbed kong still pays nothing, the kong maker
    pays each winner, and (§2.6.2 (6)) deals next."""
    r = play(
        [
            {"kong": "concealed", "seat": "N"},
            {"kong": "added", "seat": "N"},
            {
                "hu": [{"seat": "S", "fans": 1}, {"seat": "E", "fans": 2}],
                "from": "N",
                "robbing_kong": True,
            },
        ],
        waiting("W", "N"),
    )
    assert flows(r) == [
        ("E", "N", 2, "kong"),
        ("S", "N", 2, "kong"),
        ("W", "N", 2, "kong"),
        ("N", "S", 2, "hu"),
        ("N", "E", 4, "hu"),
    ]
    assert r.stats["N"].kongs == 1 and r.next_dealer == "N"


# --- hu -------------------------------------------------------------------------------------


@pytest.mark.parametrize(("fans", "points"), [(0, 1), (1, 2), (2, 4), (3, 8), (4, 16), (7, 16)])
def test_base_points(fans, points):
    """§2.7.3 (2)–(3): "базовые очки = 1 × 2 в степени количества фанов"; "Выигрыш с 4 и более
    фанами также считается 4 фанами, а базовые очки составляют 16 очков"."""
    assert base_points(fans) == points
    r = play([hu("S", fans, **{"from": "E"})], waiting("E", "W", "N"))
    assert total(r) == {"E": -points, "S": points, "W": 0, "N": 0}
    assert flows(r) == [("E", "S", points, "hu")]
    assert r.stats["S"].fans == fans and r.stats["S"].hu and not r.stats["S"].self_draw


def test_several_winners_on_one_discard():
    """§2.7.3 (4): "рука с объявленным маджонгом на сносе получает базовые очки от снёсшего
    выигрышную кость игрока"; docs/rules.md §5.2: "several winners on one discard: the discarder
    pays each"."""
    r = play(
        [{"hu": [{"seat": "W", "fans": 1}, {"seat": "N", "fans": 0}], "from": "E"}],
        waiting("E", "S"),
    )
    assert flows(r) == [("E", "W", 2, "hu"), ("E", "N", 1, "hu")]
    assert total(r) == {"E": -3, "S": 0, "W": 2, "N": 1}
    assert r.hu == ["W", "N"] and r.stats["E"].dealt_in == 2


def test_self_draw_each_player_not_yet_hu_pays_base_plus_one():
    """§2.7.3 (5): "Рука с объявленным маджонгом со стены получает базовые очки + 1 очко от
    каждого игрока, который не объявил маджонг на момент объявления маджонга"."""
    r = play([hu("W", 3, self_draw=True)], waiting("E", "S", "N"))
    assert total(r) == {"E": -9, "S": -9, "W": 27, "N": -9}
    r = play([hu("S", 0, **{"from": "E"}), hu("W", 3, self_draw=True)], waiting("E", "N"))
    assert flows(r, "self_draw") == [("E", "W", 9, "self_draw"), ("N", "W", 9, "self_draw")]
    assert total(r) == {"E": -10, "S": 1, "W": 18, "N": -9}
    assert r.stats["W"].self_draw


def test_three_hu_end_the_hand_in_order():
    """§2.6.2 (1): "розыгрыш сдачи продолжается до тех пор, пока три игрока не объявят
    маджонг"; §2.6.2 (2): the winner "не участвует в дальнейшем розыгрыше сдачи"."""
    r = play(
        [
            hu("N", 0, self_draw=True),
            hu("E", 1, **{"from": "S"}),
            hu("S", 2, self_draw=True),
        ]
    )
    assert r.hu == ["N", "E", "S"] and not r.exhausted
    # N: 2 from each of three; E: 2 from S; S: 5 from W only.
    assert total(r) == {"E": -2 + 2, "S": -2 - 2 + 5, "W": -2 - 5, "N": 6}


# --- next dealer ----------------------------------------------------------------------------


def test_next_dealer_stays_without_hu():
    """§2.6.2 (6): "Если ни одного «ху» не было объявлено, то дилер остаётся прежним"."""
    assert play([], waiting(*FOUR), dealer="W").next_dealer == "W"


def test_next_dealer_is_the_first_single_winner():
    """§2.6.2 (6): "Если в первый раз в сдаче «ху» было объявлено одним игроком, то этот игрок
    становится новым дилером" — later hu, even by several, do not change it."""
    r = play(
        [
            hu("N", 0, **{"from": "S"}),
            {"hu": [{"seat": "E", "fans": 0}, {"seat": "W", "fans": 0}], "from": "S"},
        ]
    )
    assert r.next_dealer == "N"
    assert play([hu("W", 0, self_draw=True)], waiting("E", "S", "N")).next_dealer == "W"


def test_next_dealer_after_several_first_winners_is_the_discarder():
    """§2.6.2 (6): "Если в первый раз в сдаче «ху» было объявлено со сноса несколькими игроками
    одновременно, то новым дилером становится игрок, снесший выигрышную кость"."""
    r = play(
        [{"hu": [{"seat": "E", "fans": 0}, {"seat": "W", "fans": 0}], "from": "S"}],
        waiting("S", "N"),
    )
    assert r.next_dealer == "S"


def test_a_false_hu_does_not_decide_the_dealer():
    """§2.6.2 (6): "Объявление ложного маджонга не учитывается при определении дилерства"."""
    r = play([{"false_hu": "S", "waiting": True}], waiting(*FOUR), dealer="N")
    assert r.next_dealer == "N"
    r = play(
        [{"false_hu": "S", "waiting": True}, hu("W", 0, self_draw=True)], waiting("E", "S", "N")
    )
    assert r.next_dealer == "W"


# --- false hu -------------------------------------------------------------------------------


@pytest.mark.parametrize(("is_waiting", "each"), [(True, 8), (False, 16)])
def test_false_hu_pays_each_player_still_in_the_hand(is_waiting, each):
    """§2.8.4 (2): "Игрок, объявивший ложный маджонг с рукой в ожидании, платит по 8 очков всем
    игрокам, которые оставались в игре на момент объявления ложного маджонга. Однако, если рука
    не была в ожидании, то выплата составляет по 16 очков"."""
    r = play([{"false_hu": "S", "waiting": is_waiting}], waiting(*FOUR))
    assert total(r) == {"E": each, "S": -3 * each, "W": each, "N": each}
    r = play(
        [hu("E", 0, **{"from": "N"}), {"false_hu": "S", "waiting": is_waiting}],
        waiting("S", "W", "N"),
    )
    assert flows(r, "false_hu") == [("S", "W", each, "false_hu"), ("S", "N", each, "false_hu")]
    assert r.stats["S"].false_hu == 1


def test_false_hu_returns_the_kongs_declared_before_it():
    """§2.8.4 (3): "При объявлении «ложного Ху» ... игрок должен вернуть очки за объявленные
    конги". Reading: a kong declared after the false hu counts; none goes back twice."""
    r = play(
        [
            {"kong": "concealed", "seat": "S"},
            {"false_hu": "S", "waiting": False},
            {"kong": "added", "seat": "S"},
        ],
        {**waiting("E", "W", "N"), "S": {"waiting": 1}},
    )
    assert flows(r) == [
        ("E", "S", 2, "kong"),
        ("W", "S", 2, "kong"),
        ("N", "S", 2, "kong"),
        ("S", "E", 16, "false_hu"),
        ("S", "W", 16, "false_hu"),
        ("S", "N", 16, "false_hu"),
        ("S", "E", 2, "refund"),
        ("S", "W", 2, "refund"),
        ("S", "N", 2, "refund"),
        ("E", "S", 1, "kong"),
        ("W", "S", 1, "kong"),
        ("N", "S", 1, "kong"),
    ]
    assert total(r) == {"E": 15, "S": -45, "W": 15, "N": 15}
    assert r.stats["S"].kong_points == 3 and r.stats["S"].kongs == 2
    # Not waiting at the end: only the later kong is still to return.
    r = play(
        [
            {"kong": "concealed", "seat": "S"},
            {"false_hu": "S", "waiting": False},
            {"kong": "added", "seat": "S"},
        ],
        {**waiting("E", "W", "N"), "S": "not_waiting"},
    )
    assert [p.kong for p in r.payments if p.why == "refund"] == [0, 0, 0, 2, 2, 2]
    assert r.stats["S"].kong_points == 0


def test_a_player_who_declared_a_false_hu_may_still_win():
    """docs/rules.md §5.2: "A false hu does not end the player's hand"."""
    r = play(
        [{"false_hu": "S", "waiting": True}, hu("S", 1, **{"from": "E"})],
        waiting("E", "W", "N"),
    )
    assert r.hu == ["S"] and total(r) == {"E": 6, "S": -22, "W": 8, "N": 8}


# --- wall exhausted -------------------------------------------------------------------------


def test_not_waiting_pays_each_waiting_player_its_base_points():
    """§2.7.4 (4): "игрок не в ожидании платит базовые очки, исходя из теоретически максимальной
    стоимости руки в ожидании"; docs/rules.md §5.2: "Each not-waiting player pays each waiting
    player that player's base points"."""
    r = play(
        [hu("S", 0, **{"from": "E"})],
        {"E": {"waiting": 2}, "W": {"waiting": 5}, "N": "not_waiting"},
    )
    assert flows(r, "waiting") == [("N", "E", 4, "waiting"), ("N", "W", 16, "waiting")]
    assert total(r) == {"E": 3, "S": 1, "W": 16, "N": -20}
    assert r.exhausted and r.stats["E"].end == "waiting" and r.stats["N"].end == "not_waiting"


def test_two_not_waiting_pay_one_waiting():
    """§2.7.4 (4), every not-waiting player pays."""
    r = play([], {"E": {"waiting": 3}, "S": "not_waiting", "W": "not_waiting", "N": {"waiting": 0}})
    assert total(r) == {"E": 16, "S": -9, "W": -9, "N": 2}


@pytest.mark.parametrize(
    "state",
    [
        dict.fromkeys(FOUR, "not_waiting"),
        waiting(*FOUR, fans=3),
        dict.fromkeys(FOUR, "pig_passive"),
    ],
)
def test_all_in_the_same_position_pay_nothing(state):
    """§2.7.4 (5): "Если все игроки, не объявившие маджонг, находятся в одинаковой позиции и их
    руки не являются «поросёнком», подсчёт очков не производится"."""
    r = play([], state)
    assert r.payments == [] and total(r) == dict.fromkeys(FOUR, 0)


def test_active_pig_pays_48_and_the_waiting_players():
    """§2.7.4 (3): "Активный «поросёнок» ... рассматривается как «без ожидания» с наложением
    стандартного штрафа"; §2.8.4 (1): "штраф в 48 очков"; docs/rules.md §5.2: "16 to each of the
    three other players" (the hu player too)."""
    r = play([hu("S", 0, **{"from": "E"})], {"E": {"waiting": 1}, "W": "pig", "N": "not_waiting"})
    assert flows(r, "waiting", "pig") == [
        ("W", "E", 2, "waiting"),
        ("N", "E", 2, "waiting"),
        ("W", "E", 16, "pig"),
        ("W", "S", 16, "pig"),
        ("W", "N", 16, "pig"),
    ]
    assert total(r) == {"E": 19, "S": 17, "W": -50, "N": 14}
    assert r.stats["W"].pig and r.stats["W"].end == "pig"


def test_passive_pig_counts_as_not_waiting_without_penalty():
    """§2.7.4 (3): "Пассивный «поросёнок»: если все кости, снесённые игроком в этой руке, являются
    костями запрещённой масти, это считается пассивным «поросёнком» и рассматривается как
    «без ожидания»"."""
    r = play([], {"E": {"waiting": 1}, "S": "pig_passive", "W": {"waiting": 0}, "N": "pig_passive"})
    assert total(r) == {"E": 4, "S": -3, "W": 2, "N": -3}
    assert not r.stats["S"].pig and r.stats["S"].end == "pig_passive"


def test_all_pigs_pay_only_the_penalty():
    """§2.7.4 (5) pays nothing when all are in the same position only "и их руки не являются
    «поросёнком»": pigs pay the penalty; as not waiting among not waiting nobody else pays."""
    r = play([], {"E": "pig", "S": "pig", "W": "not_waiting", "N": "not_waiting"})
    assert total(r) == {"E": -48 + 16, "S": -48 + 16, "W": 32, "N": 32}


def test_a_pig_returns_its_kongs():
    """§2.7.4 (3) a pig "рассматривается как «без ожидания»"; §2.7.2 (4) without waiting the kong
    points go back."""
    r = play([{"kong": "open", "seat": "N", "from": "E"}], {**waiting("E", "S", "W"), "N": "pig"})
    assert flows(r, "kong", "refund") == [("E", "N", 2, "kong"), ("N", "E", 2, "refund")]
    assert total(r) == {"E": 17, "S": 17, "W": 17, "N": -51}


# --- three-player table ---------------------------------------------------------------------


def test_three_players_end_at_two_hu():
    """§3.1 (3): "Розыгрыш сдачи продолжается до объявления «ху» двумя игроками или до
    исчерпания стены"."""
    r = play([hu("S", 1, self_draw=True), hu("E", 0, **{"from": "W"})], seats=THREE)
    assert r.hu == ["S", "E"] and not r.exhausted
    assert total(r) == {"E": -3 + 1, "S": 6, "W": -3 - 1}


def test_three_player_kongs_and_self_draw():
    """§2.7.2 (2), §2.7.3 (5) at a table of three: "each player not yet hu" is two."""
    r = play(
        [{"kong": "concealed", "seat": "W"}, hu("W", 0, self_draw=True)],
        {"E": "not_waiting", "S": {"waiting": 2}},
        seats=THREE,
    )
    assert total(r) == {"E": -4 - 4, "S": -4 + 4, "W": 8}


def test_three_player_pig_pays_24_to_each_other():
    """§2.8.4 (1) 48 points; docs/rules.md §5.2: "at a three-player table, 24 to each of the other
    two"."""
    r = play([], {"E": "pig", "S": {"waiting": 0}, "W": {"waiting": 0}}, seats=THREE)
    assert flows(r, "pig") == [("E", "S", 24, "pig"), ("E", "W", 24, "pig")]
    assert total(r) == {"E": -50, "S": 25, "W": 25}


def test_three_player_false_hu():
    """§2.8.4 (2) "всем игрокам, которые оставались в игре": two at a table of three."""
    r = play([{"false_hu": "W", "waiting": False}], waiting(*THREE), seats=THREE)
    assert total(r) == {"E": 16, "S": 16, "W": -32}


# --- the game -------------------------------------------------------------------------------


def test_game_runs_the_hands_and_passes_the_deal():
    """§2.7.5 (1): "полная сумма игровых очков (ИО) за всю сессию"; §2.6.2 (6) the dealer."""
    hands = [
        {"events": [hu("S", 1, **{"from": "E"})], "exhausted": waiting("E", "W", "N")},
        {"events": [], "exhausted": {"E": "not_waiting", **waiting("S", "W", "N")}},
        {
            "events": [{"hu": [{"seat": "E", "fans": 0}, {"seat": "N", "fans": 2}], "from": "W"}],
            "exhausted": waiting("S", "W"),
        },
        {"events": [hu("N", 0, self_draw=True)], "exhausted": waiting("E", "S", "W")},
    ]
    game = play_game(hands, FOUR)
    assert game.dealers == ["E", "S", "S", "W"]
    assert game.next_dealer == "N"
    assert game.totals == [
        {"E": -2, "S": 2, "W": 0, "N": 0},
        {"E": -5, "S": 3, "W": 1, "N": 1},
        {"E": -4, "S": 3, "W": -4, "N": 5},
        {"E": -6, "S": 1, "W": -6, "N": 11},
    ]
    assert game.points == game.totals[-1] and sum(game.points.values()) == 0
    assert [h.dealer for h in game.hands] == game.dealers


def test_game_at_a_three_player_table_and_an_empty_game():
    """§3.1 (3) three players; a table with no hands scores nothing."""
    game = play_game([{"events": [], "exhausted": waiting(*THREE)}], THREE)
    assert game.points == dict.fromkeys(THREE, 0) and game.next_dealer == "E"
    assert play_game([], FOUR, first_dealer="S").next_dealer == "S"


def test_game_names_the_hand_of_an_error():
    """A refusal names the hand: hands[n] before the path inside it."""
    hands = [{"events": [], "exhausted": waiting(*FOUR)}, {"events": [hu("X", 0, self_draw=True)]}]
    with pytest.raises(HandError) as caught:
        play_game(hands, FOUR)
    assert caught.value.path == "hands[1].events[0].hu[0].seat"
    assert caught.value.message == '"X" is not a seat at this table (E, S, W, N).'
    with pytest.raises(HandError) as caught:
        play_game([[]], FOUR)
    assert caught.value.path == "hands[0]"
    with pytest.raises(HandError) as caught:
        play_game([], THREE, first_dealer="N")
    assert caught.value.path == "first_dealer"
    with pytest.raises(HandError) as caught:
        play_game({}, FOUR)
    assert caught.value.path == "hands"


# --- docs/formats.md's example -----------------------------------------------------------

# docs/formats.md, "Hands (optional)" (tests/support/hands.py keeps the copy): a
# showcase of every event, not one real hand (S declares hu twice), so the tests split it into
# plausible hands.
README_EXAMPLE = README_SICHUAN


def test_the_readme_example_as_one_hand_is_refused():
    """§2.6.2 (1): three hu end the hand; the showcase goes on after its sixth event."""
    with pytest.raises(HandError) as caught:
        play_hand(json.loads(README_EXAMPLE), FOUR, "E")
    assert caught.value.path == "events[6]"
    assert caught.value.message == "The hand ended when 3 players had declared hu."


def test_the_readme_example_split_into_hands():
    """Every event and state of the README's example, in four plausible hands (§5.2)."""
    example = json.loads(README_EXAMPLE)
    ev, ex = example["events"], example["exhausted"]
    hands = [
        {"events": ev[0:6]},
        {
            "events": [ev[6], {"kong": "added", "seat": "N"}, ev[7]],
            "exhausted": {"E": ex["E"], "N": ex["W"]},
        },
        {
            "events": [{"kong": "concealed", "seat": "W"}, ev[8], ev[9]],
            "exhausted": {s: ex[s] for s in ("E", "W", "N")},
        },
        {"events": [], "exhausted": ex},
    ]
    results = [play_hand(h, FOUR, "E") for h in hands]
    assert [r.points for r in results] == [
        # kongs: S 2 from E; W 2 from each; N 1 from each; then S 4, W 2, N 1 from E.
        {"E": -12, "S": 3, "W": 7, "N": 2},
        # W 9 from each; N's robbed kong pays nothing, N pays S 2; N pays the waiting E 4.
        {"E": -5, "S": -7, "W": 27, "N": -15},
        # W's kong (6) goes back on the discard after it; N's false hu 8 to E and W; at the
        # end W and N pay E 4 each; N's pig 16 to each.
        {"E": 32, "S": 18, "W": 18, "N": -68},
        # E waiting 2: 4 from each; N's pig 16 to each.
        {"E": 28, "S": 12, "W": 12, "N": -52},
    ]
    assert [r.next_dealer for r in results] == ["S", "W", "S", "E"]
    assert [r.hu for r in results] == [["S", "W", "N"], ["W", "S"], ["S"], []]
    game = play_game(hands, FOUR)
    assert game.dealers == ["E", "S", "W", "S"]
    assert game.points == {"E": 43, "S": 26, "W": 64, "N": -133}


# --- refusals -------------------------------------------------------------------------------


def ev(*events, **more):
    return {"events": list(events), **more}


K_OPEN = {"kong": "open", "seat": "S", "from": "E"}
OUT_S = hu("S", 0, **{"from": "E"})  # S is out after this
SWN = {"hu": [{"seat": s, "fans": 0} for s in "SWN"], "from": "E"}  # three hu: the end
NOT_SEAT = '"{}" is not a seat at this table (E, S, W, N).'
OUT = "{} has already declared hu and is out of the hand."
FANS = "Fans must be a whole number from 0 to 99, not {}."
ROB = "Robbing the kong needs an added kong as E's last event."
AFTER = "A discard after a kong needs a kong by E just before."
STATE = 'Must be {"waiting": fans}, "not_waiting", "pig" or "pig_passive".'
ONE_EVENT = "An event is one kong, hu, false_hu or dead."
LIST_HU = "List the players who declared hu on this tile: one or more."
NO_FROM = "Name the discarder (from), or mark the hu a self-draw."
W3 = waiting("E", "S", "W")

REFUSALS = [
    # the hand
    ([], "", "A hand is an object with its events."),
    (ev(result="ron"), "result", 'Unknown key "result": expected events, exhausted.'),
    ({}, "events", "Missing events."),
    ({"events": {}}, "events", "Must be a list of events."),
    # events
    (ev("kong"), "events[0]", ONE_EVENT),
    (ev({"seat": "S"}), "events[0]", ONE_EVENT),
    (ev({"kong": "concealed", "false_hu": "S", "seat": "S"}), "events[0]", ONE_EVENT),
    # kongs
    (ev({**K_OPEN, "fans": 1}), "events[0].fans",
     'Unknown key "fans": expected kong, seat, from, from_hand.'),
    (ev({"kong": "closed", "seat": "S"}), "events[0].kong",
     'Unknown kong "closed": expected open, concealed or added.'),
    (ev({"kong": "concealed"}), "events[0].seat", "Missing seat."),
    (ev({"kong": "concealed", "seat": "X"}), "events[0].seat", NOT_SEAT.format("X")),
    (ev({"kong": "open", "seat": "S"}), "events[0].from", "Missing from."),
    (ev({"kong": "open", "seat": "S", "from": "S"}), "events[0].from",
     "An open kong is made on another player's discard."),
    (ev({"kong": "concealed", "seat": "S", "from": "E"}), "events[0].from",
     "Only an open kong is made on a discard (from)."),
    (ev({**K_OPEN, "from_hand": True}), "events[0].from_hand",
     "from_hand is only for an added kong."),
    (ev({"kong": "added", "seat": "S", "from_hand": 1}), "events[0].from_hand",
     "Must be true or false."),
    (ev(OUT_S, {"kong": "concealed", "seat": "S"}), "events[1].seat", OUT.format("S")),
    (ev(OUT_S, {"kong": "open", "seat": "W", "from": "S"}), "events[1].from", OUT.format("S")),
    (ev(*[{"kong": "concealed", "seat": "W"}] * 4, {"kong": "added", "seat": "W"}),
     "events[4].seat", "W already has 4 kongs: a hand holds no more."),
    # hu
    (ev({"hu": [], "from": "E"}), "events[0].hu", LIST_HU),
    (ev({"hu": {"seat": "S", "fans": 1}, "from": "E"}), "events[0].hu", LIST_HU),
    (ev({"hu": ["S"], "from": "E"}), "events[0].hu[0]", "A hu is an object with seat and fans."),
    (ev({"hu": [{"seat": "S", "fans": 1, "han": 2}], "from": "E"}), "events[0].hu[0].han",
     'Unknown key "han": expected seat, fans, pig.'),
    (ev({"hu": [{"seat": "S"}], "from": "E"}), "events[0].hu[0].fans", "Missing fans."),
    (ev(hu("S", -1, **{"from": "E"})), "events[0].hu[0].fans", FANS.format(-1)),
    (ev(hu("S", 1.5, **{"from": "E"})), "events[0].hu[0].fans", FANS.format(1.5)),
    (ev(hu("S", "2", **{"from": "E"})), "events[0].hu[0].fans", FANS.format('"2"')),
    (ev(hu("S", True, **{"from": "E"})), "events[0].hu[0].fans", FANS.format("true")),
    (ev(hu("S", 100, **{"from": "E"})), "events[0].hu[0].fans", FANS.format(100)),
    (ev(hu("E", 0, **{"from": "E"})), "events[0].hu[0].seat",
     "E cannot declare hu on their own discard."),
    (ev({"hu": [{"seat": "S", "fans": 0}, {"seat": "S", "fans": 1}], "from": "E"}),
     "events[0].hu[1].seat", "S is listed twice in this hu."),
    (ev(OUT_S, hu("S", 0, self_draw=True)), "events[1].hu[0].seat", OUT.format("S")),
    (ev(OUT_S, hu("W", 0, **{"from": "S"})), "events[1].from", OUT.format("S")),
    (ev(hu("S", 0, self_draw=True, **{"from": "E"})), "events[0].from",
     "A hu is a self-draw or on a discard (from), not both."),
    (ev(hu("S", 0)), "events[0].from", NO_FROM),
    (ev(hu("S", 0, self_draw=False)), "events[0].from", NO_FROM),
    (ev(hu("S", 0, self_draw="yes")), "events[0].self_draw", "Must be true or false."),
    (ev({"hu": [{"seat": "S", "fans": 0}, {"seat": "W", "fans": 0}], "self_draw": True}),
     "events[0].hu", "Several players declare hu only on one discard."),
    (ev(hu("S", 0, self_draw=True, robbing_kong=True)), "events[0].robbing_kong",
     "robbing_kong is a hu on a tile of another player (from)."),
    (ev(hu("S", 0, self_draw=True, after_kong=True)), "events[0].after_kong",
     "after_kong is a hu on a tile of another player (from)."),
    (ev({"kong": "added", "seat": "E"},
        hu("S", 0, robbing_kong=True, after_kong=True, **{"from": "E"})),
     "events[1].after_kong", "A hu robs a kong or wins on a discard after a kong, not both."),
    (ev(hu("S", 0, robbing_kong=True, **{"from": "E"})), "events[0].robbing_kong", ROB),
    (ev({"kong": "concealed", "seat": "E"}, hu("S", 0, robbing_kong=True, **{"from": "E"})),
     "events[1].robbing_kong", ROB),
    (ev({"kong": "added", "seat": "W"}, hu("S", 0, robbing_kong=True, **{"from": "E"})),
     "events[1].robbing_kong", ROB),
    (ev({"kong": "added", "seat": "E"}, {"kong": "open", "seat": "W", "from": "E"},
        hu("S", 0, robbing_kong=True, **{"from": "E"})), "events[2].robbing_kong", ROB),
    (ev(hu("S", 0, after_kong=True, **{"from": "E"})), "events[0].after_kong", AFTER),
    (ev({"kong": "concealed", "seat": "E"}, {"false_hu": "E", "waiting": True},
        hu("S", 0, after_kong=True, **{"from": "E"})), "events[2].after_kong", AFTER),
    (ev({"kong": "open", "seat": "W", "from": "E"}, hu("S", 0, after_kong=True, **{"from": "E"})),
     "events[1].after_kong", AFTER),
    # more hu than the table allows: nothing follows the third
    (ev(SWN, hu("E", 0, self_draw=True)), "events[1]",
     "The hand ended when 3 players had declared hu."),
    (ev(SWN, {"false_hu": "E", "waiting": True}), "events[1]",
     "The hand ended when 3 players had declared hu."),
    # false hu
    (ev({"false_hu": "S"}), "events[0].waiting", "Missing waiting."),
    (ev({"false_hu": "S", "waiting": "yes"}), "events[0].waiting", "Must be true or false."),
    (ev({"false_hu": "S", "waiting": True, "fans": 1}), "events[0].fans",
     'Unknown key "fans": expected false_hu, from, waiting, robbing_kong, after_kong.'),
    (ev(OUT_S, {"false_hu": "S", "waiting": True}), "events[1].false_hu", OUT.format("S")),
    (ev({"false_hu": "Q", "waiting": True}), "events[0].false_hu", NOT_SEAT.format("Q")),
    # exhausted
    (ev(SWN, exhausted={"E": "not_waiting"}), "exhausted",
     "The hand ended when 3 players had declared hu: the wall did not run out."),
    (ev(OUT_S), "exhausted",
     "Only 1 of 3 players declared hu, so the wall ran out: give the state of each other player."),
    (ev(exhausted=["E"]), "exhausted",
     "Must be an object: the state of each player who did not declare hu."),
    (ev(OUT_S, exhausted=waiting("E", "W")), "exhausted.N",
     "The wall ran out: give the state of N."),
    (ev(OUT_S, exhausted=waiting(*FOUR)), "exhausted.S",
     "S declared hu: only the other players have a state."),
    (ev(exhausted=waiting(*FOUR, "X")), "exhausted.X", NOT_SEAT.format("X")),
    (ev(exhausted={**W3, "N": "waiting"}), "exhausted.N", STATE),
    (ev(exhausted={**W3, "N": "dead"}), "exhausted.N", STATE),
    (ev(exhausted={**W3, "N": {"fans": 1}}), "exhausted.N", STATE),
    (ev(exhausted={**W3, "N": {"waiting": -1}}), "exhausted.N.waiting", FANS.format(-1)),
    (ev(exhausted={**W3, "N": {"waiting": 1, "pig": 1}}), "exhausted.N.pig",
     'Unknown key "pig": expected waiting.'),
]  # fmt: skip


@pytest.mark.parametrize(("hand", "path", "message"), REFUSALS)
def test_impossible_hands_are_refused(hand, path, message):
    """Every impossible hand is refused with the path inside the hand and a clear message."""
    with pytest.raises(HandError) as caught:
        play_hand(hand, FOUR, "E")
    assert (caught.value.path, caught.value.message) == (path, message)
    assert caught.value.template.format(**caught.value.params) == message
    assert str(caught.value) == (f"{path}: {message}" if path else message)


def test_a_refusal_carries_its_template_for_translation():
    """mahjong.messages' style: an English template marked with gettext_noop, and its params, so
    the Django layer translates the template and formats it itself."""
    with pytest.raises(HandError) as caught:
        play_game([{"events": [{"kong": "concealed", "seat": "X"}]}], FOUR)
    error = caught.value
    assert error.path == "hands[0].events[0].seat"
    assert error.template == "{value} is not a seat at this table ({seats})."
    assert error.params == {"value": '"X"', "seats": "E, S, W, N"}


@pytest.mark.parametrize(
    ("hand", "path", "message"),
    [
        (
            {"events": [hu("N", 0, **{"from": "E"})]},
            "events[0].hu[0].seat",
            '"N" is not a seat at this table (E, S, W).',
        ),
        (
            {
                "events": [
                    hu("S", 0, **{"from": "E"}),
                    hu("W", 0, **{"from": "E"}),
                    hu("E", 0, self_draw=True),
                ]
            },
            "events[2]",
            "The hand ended when 2 players had declared hu.",
        ),
        (
            {
                "events": [hu("S", 0, **{"from": "E"})],
                "exhausted": {"E": "pig", "W": "pig", "N": "pig"},
            },
            "exhausted.N",
            '"N" is not a seat at this table (E, S, W).',
        ),
        (
            {"events": [hu("S", 0, **{"from": "E"})]},
            "exhausted",
            "Only 1 of 2 players declared "
            "hu, so the wall ran out: give the state of each other player.",
        ),
    ],
)
def test_impossible_three_player_hands_are_refused(hand, path, message):
    """§3.1 (3): at a three-player table North is absent and "Розыгрыш сдачи продолжается до
    объявления «ху» двумя игроками или до исчерпания стены"."""
    with pytest.raises(HandError) as caught:
        play_hand(hand, THREE, "E")
    assert (caught.value.path, caught.value.message) == (path, message)


@pytest.mark.parametrize(
    ("seats", "dealer", "path"),
    [
        (("E", "S"), "E", "seats"),
        (("E", "E", "S"), "E", "seats"),
        (("E", "S", "W", "X"), "E", "seats"),
        (("E", "S", "W", "N", "E"), "E", "seats"),
        ("ESWN", "E", "seats"),
        (THREE, "N", "dealer"),
    ],
)
def test_a_table_that_cannot_be(seats, dealer, path):
    """§3.1: four players, or three at an incomplete table (one or two: "Игра на таком столе не
    производится")."""
    with pytest.raises(HandError) as caught:
        play_hand({"events": [], "exhausted": waiting(*FOUR)}, seats, dealer)
    assert caught.value.path == path


# --- property: every valid hand adds up -----------------------------------------------------


@st.composite
def valid_hands(draw):
    """A plausible hand, drawn event by event under the rules the module checks."""
    seats = draw(st.sampled_from([FOUR, THREE]))
    limit = len(seats) - 1
    out, events, last, kongs = [], [], {}, dict.fromkeys(seats, 0)
    for _ in range(draw(st.integers(0, 10))):
        if len(out) == limit:
            break
        playing = [s for s in seats if s not in out]
        kind = draw(st.sampled_from(["kong", "kong", "hu", "false_hu"]))
        if kind == "kong":
            seat = draw(st.sampled_from(playing))
            if kongs[seat] == 4:
                continue
            kongs[seat] += 1
            which = draw(st.sampled_from(["open", "concealed", "added"]))
            event = {"kong": which, "seat": seat}
            if which == "open":
                event["from"] = draw(st.sampled_from([s for s in playing if s != seat]))
                last[event["from"]] = "discard"
            elif which == "added" and draw(st.booleans()):
                event["from_hand"] = True
            last[seat] = which
        elif kind == "false_hu":
            seat = draw(st.sampled_from(playing))
            event = {"false_hu": seat, "waiting": draw(st.booleans())}
            last[seat] = "false_hu"
        elif draw(st.booleans()):
            seat = draw(st.sampled_from(playing))
            event = {"hu": [{"seat": seat, "fans": draw(st.integers(0, 8))}], "self_draw": True}
            out.append(seat)
        else:
            discarder = draw(st.sampled_from(playing))
            others = [s for s in playing if s != discarder]
            winners = draw(st.lists(st.sampled_from(others), min_size=1, unique=True))
            event = {
                "hu": [{"seat": w, "fans": draw(st.integers(0, 8))} for w in winners],
                "from": discarder,
            }
            if last.get(discarder) == "added" and draw(st.booleans()):
                event["robbing_kong"] = True
            elif last.get(discarder) in ("open", "concealed", "added") and draw(st.booleans()):
                event["after_kong"] = True
            last[discarder] = "discard"
            out += winners
        events.append(event)
    hand = {"events": events}
    if len(out) < limit:
        state = st.one_of(
            st.sampled_from(["not_waiting", "pig", "pig_passive"]),
            st.builds(lambda f: {"waiting": f}, st.integers(0, 6)),
        )
        hand["exhausted"] = {s: draw(state) for s in seats if s not in out}
    return seats, hand, out


@settings(max_examples=300, deadline=None)
@given(valid_hands(), st.data())
def test_every_valid_hand_adds_up(drawn, data):
    """docs/rules.md §5: "the table's final scores are the sum of its hands"; game points at a table
    sum to zero. A valid hand is accepted, and its numbers hold together."""
    seats, hand, out = drawn
    dealer = data.draw(st.sampled_from(seats))
    r = play_hand(hand, seats, dealer)
    assert sum(r.points.values()) == 0
    assert r.hu == out and len(r.hu) <= len(seats) - 1
    assert r.exhausted == ("exhausted" in hand)
    for p in r.payments:
        assert p.amount > 0 and p.payer != p.payee and p.payer in seats and p.payee in seats
    per_seat = dict.fromkeys(seats, 0)
    for p in r.payments:
        per_seat[p.payer] -= p.amount
        per_seat[p.payee] += p.amount
    assert per_seat == r.points
    assert sum(s.kong_points for s in r.stats.values()) == 0
    # A player who ends without waiting keeps no kong points of their own.
    for seat, state in hand.get("exhausted", {}).items():
        if not isinstance(state, dict):
            assert r.stats[seat].kong_points <= 0
    # §2.6.2 (6): the first hu decides the deal.
    first = next((e for e in hand["events"] if "hu" in e), None)
    if first is None:
        assert r.next_dealer == dealer
    elif len(first["hu"]) == 1:
        assert r.next_dealer == first["hu"][0]["seat"]
    else:
        assert r.next_dealer == first["from"]
    # Without its end the same hand is refused (the wall ran out, or the last hu was shown).
    if "exhausted" in hand:
        with pytest.raises(HandError):
            play_hand({"events": hand["events"]}, seats, dealer)
    game = play_game([hand, hand], seats, first_dealer=dealer)
    assert game.points == {s: 2 * r.points[s] for s in seats}


# --- dead hand (issue 36) -------------------------------------------------------------------


def test_a_dead_hand_returns_every_kong_point_received():
    """002 §2.8.3: "Если игроку назначена «мёртвая рука», он обязан вернуть все очки, полученные
    за объявления «конг»". N's concealed kong takes 2 from E, S and W (§2.7.2 (2)), N's open
    kong 2 from E (§2.7.2 (1)); N's hand is declared dead: N gives back 2 to S and W and 4 to
    E. S wins 1 fan on E's discard (E pays 2). At the exhausted wall E waits for 1 fan; W and
    dead N are not waiting and each pay E 2 (§2.7.4 (4)). E +2, S +2, W −2, N −2."""
    r = play(
        [
            {"kong": "concealed", "seat": "N"},
            {"kong": "open", "seat": "N", "from": "E"},
            {"dead": "N"},
            hu("S", 1, **{"from": "E"}),
        ],
        {"E": {"waiting": 1}, "W": "not_waiting", "N": "not_waiting"},
    )
    assert flows(r, "refund") == [
        ("N", "E", 2, "refund"),
        ("N", "S", 2, "refund"),
        ("N", "W", 2, "refund"),
        ("N", "E", 2, "refund"),
    ]
    assert {p.event for p in r.payments if p.why == "refund"} == {2}
    assert total(r) == {"E": 2, "S": 2, "W": -2, "N": -2}
    assert r.stats["N"].dead and r.stats["N"].kong_points == 0 and r.stats["N"].kongs == 2
    assert not r.stats["E"].dead


def test_a_kong_of_a_dead_hand_pays_nothing():
    """002 §2.8.3: a dead hand returns every kong point of the hand, so a concealed kong declared
    after it pays nothing (its 2 from each would go straight back). At the wall E, S and W wait
    with 0 fans; dead N is not waiting and pays each 1 (§2.7.3 (1)): N −3."""
    r = play(
        [{"dead": "N"}, {"kong": "concealed", "seat": "N"}],
        {**waiting("E", "S", "W"), "N": "not_waiting"},
    )
    assert flows(r, "kong", "refund") == []
    assert total(r) == {"E": 1, "S": 1, "W": 1, "N": -3}


def test_a_dead_hand_still_pays_as_a_player_in_the_hand():
    """002 §2.8.3 takes away the right to win, not the place in the hand: S's self-drawn hu with
    2 fans takes 4 + 1 from each player not yet hu (§2.7.3 (5)), dead N too. A hu with a dead
    hand is a false hu ("Объявление игроком маджонга при «мёртвой руке» обернётся штрафом за
    ложный маджонг"): N's false hu without a waiting hand pays 16 to each of E and W, the
    players still in (§2.8.4 (2)). E +11, S +15, W +11, N −37."""
    r = play(
        [{"dead": "N"}, hu("S", 2, self_draw=True), {"false_hu": "N", "waiting": False}],
        {"E": "not_waiting", "W": "not_waiting", "N": "not_waiting"},
    )
    assert total(r) == {"E": -5 + 16, "S": 15, "W": -5 + 16, "N": -5 - 32}


def test_a_dead_hand_after_a_discard_after_kong_returns_the_kong_once():
    """§2.7.2 (5) returns W's last kong when S wins on W's next discard; a dead hand declared
    on W afterwards returns W's other kong points, never the same kong twice. W's concealed
    kong (2 from E, S, N), S's hu of 0 fans on W's discard after it (W pays 1, the kong goes
    back), W's added kong with the drawn tile (1 from E and N), W's dead hand returns that.
    At the wall E and N wait with 0 fans and W pays each 1. E +1, S +1, W −3, N +1."""
    r = play(
        [
            {"kong": "concealed", "seat": "W"},
            hu("S", 0, **{"from": "W", "after_kong": True}),
            {"kong": "added", "seat": "W"},
            {"dead": "W"},
        ],
        {"E": {"waiting": 0}, "W": "not_waiting", "N": {"waiting": 0}},
    )
    assert [(p.payee, p.amount, p.event) for p in r.payments if p.why == "refund"] == [
        ("E", 2, 1),
        ("S", 2, 1),
        ("N", 2, 1),
        ("E", 1, 3),
        ("N", 1, 3),
    ]
    assert total(r) == {"E": 1, "S": 1, "W": -3, "N": 1}


def test_a_dead_hand_at_a_three_player_table():
    """§3.1 three players; §2.8.3: W's open kong on E's discard (2) goes back when W's hand is
    declared dead; E (0 fans) and S (1 fan) then win on W's discards (two hu end the hand at a
    three-player table), W paying 1 and 2 (§2.7.3 (4)). E +1, S +2, W −3."""
    r = play(
        [
            {"kong": "open", "seat": "W", "from": "E"},
            {"dead": "W"},
            hu("E", 0, **{"from": "W"}),
            hu("S", 1, **{"from": "W"}),
        ],
        seats=THREE,
    )
    assert total(r) == {"E": 1, "S": 2, "W": -3}


DEAD_REFUSALS = [
    (ev({"dead": "N"}, hu("N", 1, **{"from": "E"})), "events[1].hu[0].seat",
     "N's hand is dead: a hu with it is a false hu (record a false_hu)."),
    (ev({"dead": "N"}, hu("N", 1, self_draw=True)), "events[1].hu[0].seat",
     "N's hand is dead: a hu with it is a false hu (record a false_hu)."),
    (ev({"dead": "N"}, {"dead": "N"}), "events[1].dead", "N's hand is already dead."),
    (ev({"dead": "N"}, {"kong": "open", "seat": "N", "from": "E"}), "events[1].seat",
     "N's hand is dead: it may not claim another player's tile."),
    (ev({"dead": "N"}, exhausted={**W3, "N": {"waiting": 2}}), "exhausted.N",
     "N's hand is dead: it counts as not waiting (not_waiting, pig or pig_passive)."),
    (ev(OUT_S, {"dead": "S"}), "events[1].dead", OUT.format("S")),
    (ev({"dead": "X"}), "events[0].dead", NOT_SEAT.format("X")),
    (ev({"dead": "N", "waiting": True}), "events[0].waiting",
     'Unknown key "waiting": expected dead.'),
    (ev({"dead": "N", "false_hu": "N", "waiting": True}), "events[0]", ONE_EVENT),
]  # fmt: skip


@pytest.mark.parametrize(("hand", "path", "message"), DEAD_REFUSALS)
def test_a_dead_hand_refuses_what_it_may_not_do(hand, path, message):
    """002 §2.8.3: a dead hand may not win, may not claim, is declared once; at the exhausted
    wall it counts as not waiting (docs/rules.md §5.2). Each is refused, naming where."""
    with pytest.raises(HandError) as caught:
        play_hand(hand, FOUR, "E")
    assert (caught.value.path, caught.value.message) == (path, message)


# --- false hu after a kong, false hu robbing a kong (issue 36) -------------------------------


def test_a_false_hu_on_a_discard_after_a_kong_still_costs_the_kong():
    """002 §2.8.4 (3): "за «ложный Ху» с «Набросом после конга» игрок, объявивший конг, всё
    равно не получает очков за сет". W's concealed kong takes 2 from E, S and N (§2.7.2 (2));
    S claims hu on W's next discard with a hand that was waiting but not complete: S pays 8 to
    each of E, W and N (§2.8.4 (2)) and W's kong goes back. At the wall everybody waits: no
    waiting payments (§2.7.4 (5)). E +8, S −24, W +8, N +8."""
    r = play(
        [
            {"kong": "concealed", "seat": "W"},
            {"false_hu": "S", "from": "W", "after_kong": True, "waiting": True},
        ],
        waiting(*FOUR),
    )
    assert flows(r, "refund") == [
        ("W", "E", 2, "refund"),
        ("W", "S", 2, "refund"),
        ("W", "N", 2, "refund"),
    ]
    assert {p.event for p in r.payments if p.why == "refund"} == {1}
    assert total(r) == {"E": 8, "S": -24, "W": 8, "N": 8}
    assert r.stats["S"].false_hu == 1 and r.stats["W"].kong_points == 0


def test_a_false_hu_robbing_a_kong_leaves_the_kong_void():
    """002 §2.8.4 (3): "за «ложный Ху» с «Ограблением конга» игрок всё равно не получает очков
    за ограбленный конг, и конг считается недействительным". N's added kong with the drawn tile
    (1 from E, S and W, §2.7.2 (3)) is robbed by E's false hu, not waiting: the kong pays
    nothing, and E pays 16 to each of S, W and N (§2.8.4 (2)). At the wall all wait: nothing
    more. E −48, S +16, W +16, N +16."""
    r = play(
        [
            {"kong": "added", "seat": "N"},
            {"false_hu": "E", "from": "N", "robbing_kong": True, "waiting": False},
        ],
        waiting(*FOUR),
    )
    assert flows(r, "kong", "refund") == []
    assert total(r) == {"E": -48, "S": 16, "W": 16, "N": 16}
    assert r.stats["N"].kongs == 0 and r.stats["N"].kong_points == 0


def test_after_a_false_hu_on_the_kong_a_real_hu_finds_no_kong_to_rob():
    """The false claim was N's next discard event: a later hu on N's tile is a plain hu on a
    discard, and robbing the same kong again is refused (§2.8.4 (3) voided it once). W's false
    hu (waiting) pays 8 to E, S and N; S then wins 1 fan on N's discard (2 from N); at the wall
    E waits on 0 fans, W and N do not: each pays E 1. E +10, S +10, W −25, N +5."""
    events = [
        {"kong": "added", "seat": "N"},
        {"false_hu": "W", "from": "N", "robbing_kong": True, "waiting": True},
        hu("S", 1, **{"from": "N"}),
    ]
    r = play(events, {"E": {"waiting": 0}, "W": "not_waiting", "N": "not_waiting"})
    assert total(r) == {"E": 8 + 2, "S": 8 + 2, "W": -24 - 1, "N": 8 - 2 - 1}
    events[2] = hu("S", 1, robbing_kong=True, **{"from": "N"})
    with pytest.raises(HandError) as caught:
        play(events, {"E": {"waiting": 0}, "W": "not_waiting", "N": "not_waiting"})
    assert caught.value.path == "events[2].robbing_kong"


def test_a_false_hu_on_a_plain_discard_names_the_discarder_and_pays_as_before():
    """A false hu with `from` and no kong: §2.8.4 (2) alone, 8 to each player still in."""
    r = play([{"false_hu": "S", "from": "E", "waiting": True}], waiting(*FOUR))
    assert total(r) == {"E": 8, "S": -24, "W": 8, "N": 8}


FALSE_KONG_REFUSALS = [
    (ev({"kong": "concealed", "seat": "W"}, {"false_hu": "S", "after_kong": True, "waiting": True}),
     "events[1].after_kong", "after_kong is a hu on a tile of another player (from)."),
    (ev({"kong": "added", "seat": "W"}, {"false_hu": "S", "robbing_kong": True, "waiting": True}),
     "events[1].robbing_kong", "robbing_kong is a hu on a tile of another player (from)."),
    (ev({"kong": "added", "seat": "E"},
        {"false_hu": "S", "from": "E", "robbing_kong": True, "after_kong": True, "waiting": True}),
     "events[1].after_kong", "A hu robs a kong or wins on a discard after a kong, not both."),
    (ev({"false_hu": "S", "from": "E", "after_kong": True, "waiting": True}),
     "events[0].after_kong", AFTER),
    (ev({"kong": "concealed", "seat": "E"},
        {"false_hu": "S", "from": "E", "robbing_kong": True, "waiting": True}),
     "events[1].robbing_kong", ROB),
    (ev({"false_hu": "S", "from": "S", "waiting": True}), "events[0].from",
     "S cannot declare hu on their own discard."),
    (ev(OUT_S, {"false_hu": "W", "from": "S", "waiting": True}), "events[1].from",
     OUT.format("S")),
    (ev({"false_hu": "S", "from": "E", "waiting": True, "self_draw": True}),
     "events[0].self_draw",
     'Unknown key "self_draw": expected false_hu, from, waiting, robbing_kong, after_kong.'),
    (ev({"false_hu": "S", "from": "E", "after_kong": "yes", "waiting": True}),
     "events[0].after_kong", "Must be true or false."),
]  # fmt: skip


@pytest.mark.parametrize(("hand", "path", "message"), FALSE_KONG_REFUSALS)
def test_a_false_hu_on_a_kong_is_checked_as_a_hu_is(hand, path, message):
    """002 §2.8.4 (3) names a false hu with a discard after a kong or robbing a kong: the same
    conditions as a real hu's (§2.7.2 (5), appendix 1, 9), each refused naming where."""
    with pytest.raises(HandError) as caught:
        play_hand(hand, FOUR, "E")
    assert (caught.value.path, caught.value.message) == (path, message)


# --- a pig on a winning hand (issue 36) ------------------------------------------------------


def test_a_winner_with_a_tile_of_the_forbidden_suit_pays_the_pig():
    """002 §2.5.8 (3): "игроки с выигрышными руками … с костями запрещённой масти получают штраф
    («поросёнок»)"; §2.8.4 (1): 48 points, 16 to each of the three others (docs/rules.md §5.2).
    S wins 2 fans on E's discard (E pays 4, §2.7.3 (4)) and is a pig: S pays 16 to E, W and N.
    W and N then win 0 fans each on E's discards (1 each). E +10, S −44, W +17, N +17."""
    r = play(
        [
            {"hu": [{"seat": "S", "fans": 2, "pig": True}], "from": "E"},
            hu("W", 0, **{"from": "E"}),
            hu("N", 0, **{"from": "E"}),
        ]
    )
    assert flows(r, "pig") == [("S", "E", 16, "pig"), ("S", "W", 16, "pig"), ("S", "N", 16, "pig")]
    assert {p.event for p in r.payments if p.why == "pig"} == {0}
    assert total(r) == {"E": -4 + 16 - 2, "S": 4 - 48, "W": 16 + 1, "N": 16 + 1}
    assert r.stats["S"].pig and r.stats["S"].hu and not r.stats["W"].pig


def test_a_self_drawn_pig_at_a_three_player_table_pays_24_to_each_other():
    """§3.1 three players; §2.8.4 (1) "48 points", 24 to each of the other two (docs/rules.md
    §5.2). W self-draws 1 fan (2 + 1 from E and S, §2.7.3 (5)) as a pig: W pays 24 to each.
    E wins 0 fans on S's discard (1). E +22, S +20, W −42."""
    r = play(
        [
            {"hu": [{"seat": "W", "fans": 1, "pig": True}], "self_draw": True},
            hu("E", 0, **{"from": "S"}),
        ],
        seats=THREE,
    )
    assert total(r) == {"E": -3 + 24 + 1, "S": -3 + 24 - 1, "W": 6 - 48}


def test_two_winners_on_one_discard_one_of_them_a_pig():
    """§2.7.3 (4), several winners on one discard: E pays S 2 (1 fan) and W 8 (3 fans); W's hand
    held a tile of the forbidden suit (§2.5.8 (3)): W pays 16 to E, S and N. `pig: false` is
    the same as no pig. The wall runs out with N waiting 0 fans and E not waiting (E pays N 1).
    E +5, S +18, W −40, N +17."""
    r = play(
        [
            {
                "hu": [
                    {"seat": "S", "fans": 1, "pig": False},
                    {"seat": "W", "fans": 3, "pig": True},
                ],
                "from": "E",
            }
        ],
        {"E": "not_waiting", "N": {"waiting": 0}},
    )
    assert total(r) == {"E": -2 - 8 + 16 - 1, "S": 2 + 16, "W": 8 - 48, "N": 16 + 1}


@pytest.mark.parametrize(
    ("pig", "path", "message"),
    [
        ("yes", "events[0].hu[0].pig", "Must be true or false."),
        (1, "events[0].hu[0].pig", "Must be true or false."),
    ],
)
def test_a_pig_flag_is_true_or_false(pig, path, message):
    """formats README: `hu[].pig: true`."""
    hand = ev({"hu": [{"seat": "S", "fans": 1, "pig": pig}], "from": "E"})
    with pytest.raises(HandError) as caught:
        play_hand(hand, FOUR, "E")
    assert (caught.value.path, caught.value.message) == (path, message)
