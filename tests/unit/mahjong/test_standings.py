"""Tournament standings (mahjong.standings) from plain rows, pinned to the seeds.

Seeds: 000 EMA 2012 (Ukrainian), 001 Furiten (Russian), 002 SBR Sichuan 2025 (Russian).
"""

import pickle
import random

import pytest

from mahjong.presets import PRESETS, ruleset_from
from mahjong.standings import (
    PenaltyRow,
    PlayerRow,
    SeatRow,
    SessionLine,
    TableRow,
    compute_standings,
)

EMA = PRESETS["ema-2012"]
FURITEN = PRESETS["furiten-club"]
SBR = PRESETS["sbr-2025"]


def players(*keys, **status):
    """PlayerRow per key; keys starting with "s" are substitutes; status=... by keyword."""
    return [PlayerRow(k, k.upper(), status.get(k, "active"), k.startswith("s")) for k in keys]


def table(session, number, *seats):
    """seats: (player, score) or (player, score, extra-kwargs) in wind order."""
    rows = []
    for wind, seat in zip("ESWN"[: len(seats)], seats, strict=True):
        extra = seat[2] if len(seat) > 2 else {}
        rows.append(SeatRow(wind, seat[0], seat[1], **extra))
    return TableRow(session, number, rows)


def by_key(standings):
    return {row.player.key: row for row in standings.rows + standings.substitutes}


def ranking(standings):
    return [(row.rank, row.player.key, row.total) for row in standings.rows]


def line(*values):
    return SessionLine(*values)


# --- EMA ------------------------------------------------------------------------------------


def test_ema_feed_example_with_a_substitute_from_the_start():
    """docs/formats.md example table; 000 §5.7: 'У турнірній таблиці результати сесії
    замінюють гравців завжди 0 очок і -30000 ума.' and 'Замінений гравець отримає 0 очок і
    ума-штраф -30000 очок за кожну пропущену сесію.'"""
    result = compute_standings(
        EMA,
        players("p01", "p02", "p03", "p04", "s01"),
        [
            table(
                1,
                1,
                ("p01", 45300),
                ("p02", 30100),
                ("s01", 25000, {"replaces": "p03"}),
                ("p04", 19600),
            ),
        ],
    )
    rows = by_key(result)
    assert rows["p01"].sessions == [line(1, 1, "E", 45300, 1, 30000, 0, 45300, 45300)]
    assert rows["p02"].sessions == [line(1, 1, "S", 30100, 2, 10000, 0, 10100, 30100)]
    assert rows["p04"].sessions == [line(1, 1, "N", 19600, 4, -30000, 0, -40400, 19600)]
    # the substitute's own line: 0 points and −30,000, whatever happened at the table
    assert rows["s01"].sessions[0].uma == -30000
    assert rows["s01"].sessions[0].result == -30000
    assert rows["s01"].sessions[0].penalty == 0
    # the replaced player: no table, 0 points and −30,000
    assert rows["p03"].sessions == [line(1, None, None, 0, None, -30000, 0, -30000, 0, None, True)]
    assert rows["s01"].sessions[0].replaces == "p03"  # pages say whom a substitute replaced
    assert ranking(result) == [
        (1, "p01", 45300),
        (2, "p02", 10100),
        (3, "p03", -30000),
        (4, "p04", -40400),
    ]
    assert [(r.rank, r.player.key, r.total) for r in result.substitutes] == [(None, "s01", -30000)]
    assert result.sessions_played == 1
    assert all(row.tiebreak is None for row in result.rows)
    assert result.teams == []


def test_ema_substitute_from_the_start_wins_the_table():
    """000 §5.7: 'якщо замінючий гравець перемагає за столом, інші гравці отримують уму в 10000,
    -10000 і в -30000 очок. Таким чином, при занесенні результатів, у двох гравців будуть
    ума-штрафи за -30000 очок, а ума-бонус переможця в 30000 очок ніхто не отримає.'"""
    result = compute_standings(
        EMA,
        players("p01", "p02", "p03", "p04", "s01"),
        [
            table(
                1,
                1,
                ("s01", 50000, {"replaces": "p03"}),
                ("p01", 30000),
                ("p02", 25000),
                ("p04", 15000),
            ),
        ],
    )
    rows = by_key(result)
    assert [rows[k].sessions[0].uma for k in ("p01", "p02", "p04", "s01", "p03")] == [
        10000,
        -10000,
        -30000,
        -30000,
        -30000,
    ]
    assert [rows[k].total for k in ("p01", "p02", "p04", "s01", "p03")] == [
        10000,
        -15000,
        -45000,
        -30000,
        -30000,
    ]
    assert rows["s01"].sessions[0].place == 1


def test_ema_substitute_joined_during_play_is_last_for_the_others():
    """000 §5.7: '... три інших гравця отримають уму в 30000, 10000 і -10000, навіть якщо
    замінюючий гравець отримає більше всіх очок за столом.'"""
    result = compute_standings(
        EMA,
        players("p01", "p02", "p03", "p04", "s01"),
        [
            table(
                1,
                1,
                ("s01", 50000, {"replaces": "p03", "joined": "during"}),
                ("p01", 30000),
                ("p02", 25000),
                ("p04", 15000),
            ),
        ],
    )
    rows = by_key(result)
    assert [rows[k].sessions[0].uma for k in ("p01", "p02", "p04")] == [30000, 10000, -10000]
    assert [rows[k].total for k in ("p01", "p02", "p04", "p03")] == [30000, 5000, -25000, -30000]
    assert rows["s01"].sessions[0].place == 4
    assert rows["s01"].total == -30000


def test_shared_ranks_1_2_2_4():
    """docs/formats.md: 'equal total and tiebreak share a rank (1, 2, 2, 4)'; the tie at the
    table splits the uma (000 §3.6.1)."""
    result = compute_standings(
        EMA,
        players("a", "b", "c", "d"),
        [
            table(1, 1, ("a", 50000), ("b", 25000), ("c", 25000), ("d", 20000)),
        ],
    )
    assert ranking(result) == [(1, "a", 50000), (2, "b", -5000), (2, "c", -5000), (4, "d", -40000)]


def test_disqualified_last_excluded_absent_withdrawn_ranked():
    """000 §5.7: 'Дискваліфікований гравець отримує останнє місце в таблиці результатів' and
    'головний суддя та організатори турніру можуть вирішити виключити ім'я гравця з таблиць
    результатів'."""
    roster = players(
        "a", "b", "c", "e", "x", a="disqualified", c="disqualified", e="withdrawn", x="excluded"
    )
    result = compute_standings(
        EMA,
        roster,
        [
            table(1, 1, ("a", 45300), ("b", 30100), ("c", 25000), ("x", 19600)),
        ],
    )
    # the excluded player's points still shape the table; only the row disappears
    assert ranking(result) == [(1, "b", 10100), (2, "e", 0), (3, "a", 45300), (4, "c", -15000)]
    assert result.rows[1].sessions == []


def test_penalties_before_and_after_placement():
    """000 §5.6: late 4 minutes, −4000 'стягується з гравця негайно, що може змінити турнірні
    місця'; 000 §5.5: misconduct −8000 booked after placement here."""
    result = compute_standings(
        EMA,
        players("a", "b", "c", "d"),
        [
            table(1, 1, ("a", 32500), ("b", 29000), ("c", 28000), ("d", 30500)),
        ],
        [
            PenaltyRow(1, "d", -4000, "before"),
            PenaltyRow(1, "a", -5000, "after"),
            PenaltyRow(1, "a", -3000, "after"),
        ],
    )
    rows = by_key(result)
    assert rows["d"].sessions == [line(1, 1, "N", 30500, 4, -30000, -4000, -33500, 26500)]
    assert rows["a"].sessions == [line(1, 1, "E", 32500, 1, 30000, -8000, 24500, 32500)]
    assert ranking(result) == [(1, "a", 24500), (2, "b", 9000), (3, "c", -12000), (4, "d", -33500)]


def test_penalty_in_a_session_without_a_seat_gets_its_own_line():
    result = compute_standings(
        EMA,
        players("a", "b", "c", "d", "e"),
        [
            table(1, 1, ("a", 30000), ("b", 30000), ("c", 30000), ("d", 30000)),
        ],
        [PenaltyRow(1, "e", -8000, "after")],
    )
    assert by_key(result)["e"].sessions == [line(1, None, None, None, None, 0, -8000, -8000, None)]
    assert by_key(result)["e"].total == -8000


def test_sessions_played_and_lines_in_session_order():
    roster = players("a", "b", "c", "d")
    seats = (("a", 30000), ("b", 30000), ("c", 30000), ("d", 30000))
    result = compute_standings(
        EMA, roster, [table(3, 1, *seats), table(1, 1, *seats), table(1, 2, *seats[::-1])]
    )
    assert result.sessions_played == 2
    assert [s.session for s in result.rows[0].sessions] == [1, 1, 3]
    empty = compute_standings(EMA, roster, [])
    assert empty.sessions_played == 0
    assert [r.rank for r in empty.rows] == [1, 1, 1, 1]


def test_teams_sum_members_and_share_ranks():
    """RULES §3 (002 §2.4.3): 'Individual, team or group standings.'"""
    roster = [
        PlayerRow("a", "A", team="T1"),
        PlayerRow("b", "B", team="T2"),
        PlayerRow("c", "C", team="T1"),
        PlayerRow("d", "D", team="T2"),
        PlayerRow("s", "S", substitute=True, team="T2"),
    ]
    result = compute_standings(
        EMA,
        roster,
        [
            table(1, 1, ("a", 45300), ("b", 30100), ("c", 25000), ("d", 19600)),
        ],
    )
    assert [(t.rank, t.team, t.total, t.members) for t in result.teams] == [
        (1, "T1", 30300, ["a", "c"]),
        (2, "T2", -30300, ["b", "d"]),
    ]
    even = compute_standings(
        EMA,
        roster,
        [
            table(1, 1, ("a", 30000), ("b", 30000), ("c", 30000), ("d", 30000)),
        ],
    )
    assert [(t.rank, t.team, t.total) for t in even.teams] == [(1, "T1", 0), (1, "T2", 0)]


# --- Furiten --------------------------------------------------------------------------------


def test_furiten_totals_are_exact():
    """001 §13.2: 'Рейтинговые баллы вычисляются с точностью до одной десятой балла.'
    1.1 + 2.2 is 3.3 here, not the float 3.3000000000000003."""
    result = compute_standings(
        FURITEN,
        players("a", "b", "c", "d"),
        [
            table(1, 1, ("a", 45000), ("b", 28100), ("c", 27000), ("d", 19900)),
            table(2, 1, ("a", 45000), ("b", 29200), ("c", 26000), ("d", 19800)),
        ],
    )
    rows = by_key(result)
    assert [s.result for s in rows["b"].sessions] == [1.1, 2.2]
    assert rows["b"].total == 3.3
    assert rows["a"].total == 48
    assert type(rows["a"].total) is int


def test_furiten_chombo_in_the_standings():
    """001 §7.2: 'Из конечного счета игрока, заплатившего чомбо, вычитаются 20 рейтинговых
    баллов.'"""
    result = compute_standings(
        FURITEN,
        players("a", "b", "c", "d"),
        [
            table(1, 1, ("a", 42300, {"chombo": 1}), ("b", 31000), ("c", 27700), ("d", 19000)),
        ],
    )
    assert by_key(result)["a"].sessions == [line(1, 1, "E", 42300, 1, 9, -20, 1.3, 42300)]
    assert ranking(result) == [(1, "b", 4), (2, "a", 1.3), (3, "c", -5.3), (4, "d", -20)]


def test_furiten_with_oka_in_the_standings():
    """001 'Допустимые отклонения' 9: 'Ока (бонус первому месту)'; 25000 start, 30000 return."""
    rules = ruleset_from("furiten-club", {"start_points": 25000})
    result = compute_standings(
        rules,
        players("a", "b", "c", "d"),
        [
            table(1, 1, ("a", 40000), ("b", 25000), ("c", 20000), ("d", 15000)),
        ],
    )
    assert ranking(result) == [(1, "a", 39), (2, "b", -2), (3, "c", -13), (4, "d", -24)]
    assert by_key(result)["a"].sessions[0].uma == 29


# --- SBR Sichuan ----------------------------------------------------------------------------


def test_sbr_tiebreak_by_game_points_and_shared_ranks():
    """002 §2.7.5: 'Очки за сессию: полная сумма игровых очков (ИО) ... с учётом штрафов';
    TP 4/3/2/1. RULES §3: 'GP total is the natural tie-break'."""
    result = compute_standings(
        SBR,
        players("a", "b", "c", "d"),
        [
            table(1, 1, ("a", 30), ("b", 10), ("c", -15), ("d", -25)),
            table(2, 1, ("a", -25), ("b", -15), ("c", 10), ("d", 30)),
        ],
    )
    assert [(r.rank, r.player.key, r.total, r.tiebreak) for r in result.rows] == [
        (1, "a", 5, 5),
        (1, "d", 5, 5),
        (3, "b", 5, -5),
        (3, "c", 5, -5),
    ]
    assert by_key(result)["a"].sessions[0] == line(1, 1, "E", 30, 1, 4, 0, 4, 30)


def test_sbr_shared_tp_in_the_standings():
    """002 §2.7.5: 'В случае равенства мест соответствующие турнирные очки распределяются поровну
    между соответствующими игроками.'"""
    result = compute_standings(
        SBR,
        players("a", "b", "c", "d"),
        [
            table(1, 1, ("a", 10), ("b", 10), ("c", -5), ("d", -15)),
        ],
    )
    assert [(r.rank, r.player.key, r.total, r.tiebreak) for r in result.rows] == [
        (1, "a", 3.5, 10),
        (1, "b", 3.5, 10),
        (3, "c", 2, -5),
        (4, "d", 1, -15),
    ]


def test_sbr_late_penalty_comes_off_game_points_before_tp():
    """002 §2.8.4 (5): 'Из полученных опоздавшим игроком игровых очков (ИО) вычитаются
    соответствующие штрафы для определения турнирных очков (ТО) игроков.'"""
    result = compute_standings(
        SBR,
        players("a", "b", "c", "d"),
        [
            table(1, 1, ("a", 10), ("b", 8), ("c", -8), ("d", -10)),
        ],
        [PenaltyRow(1, "a", -16, "before")],
    )
    rows = by_key(result)
    assert rows["a"].sessions == [line(1, 1, "E", 10, 2, 3, 0, 3, -6)]
    assert (rows["a"].total, rows["a"].tiebreak) == (3, -6)
    assert (rows["b"].total, rows["b"].tiebreak) == (4, 8)


def test_sbr_awarded_table():
    """002 §3.1.4: 'Игра на таком столе не производится. Игрок(и) получают «присуждённый»
    результат в 3 турнирных очка (ТО) 0 игровых очков (ИО).'  §3.1.3: three players get 4, 3, 2."""
    result = compute_standings(
        SBR,
        players("a", "b", "c", "e", "f"),
        [
            table(1, 1, ("a", 20), ("b", -5), ("c", -15)),
            table(1, 2, ("e", None), ("f", None)),
        ],
    )
    rows = by_key(result)
    assert rows["e"].sessions == [line(1, 2, "E", 0, None, 3, 0, 3, 0)]
    assert rows["f"].sessions == [line(1, 2, "S", 0, None, 3, 0, 3, 0)]
    assert [(r.rank, r.player.key, r.total, r.tiebreak) for r in result.rows] == [
        (1, "a", 4, 20),
        (2, "e", 3, 0),
        (2, "f", 3, 0),
        (4, "b", 3, -5),
        (5, "c", 2, -15),
    ]


def test_sbr_substitute_and_replaced_player():
    """002 §2.8.4 (5): 'игрок получает фиксированный результат в 0 турнирных очков (ТО) и 0
    игровых очков (ИО) за игру. ... Турнирные очки начисляются игрокам на основе полученных
    игровых очков, за исключением заменённого игрока (который получает фиксированный результат).'"""
    result = compute_standings(
        SBR,
        players("a", "b", "c", "d", "s1"),
        [
            table(1, 1, ("s1", 30, {"replaces": "c"}), ("a", 10), ("b", -15), ("d", -25)),
        ],
    )
    rows = by_key(result)
    assert rows["c"].sessions == [line(1, None, None, 0, None, 0, 0, 0, 0, None, True)]
    assert [(r.rank, r.player.key, r.total, r.tiebreak) for r in result.rows] == [
        (1, "a", 3, 10),
        (2, "b", 2, -15),
        (3, "d", 1, -25),
        (4, "c", 0, 0),
    ]
    assert [(r.rank, r.player.key, r.total, r.tiebreak) for r in result.substitutes] == [
        (None, "s1", 4, 30)
    ]
    assert rows["s1"].sessions == [line(1, 1, "E", 30, 1, 4, 0, 4, 30, "c")]


# --- plumbing ---------------------------------------------------------------------------------


def test_unknown_player_is_an_error():
    with pytest.raises(ValueError):
        compute_standings(
            EMA,
            players("a", "b", "c"),
            [
                table(1, 1, ("a", 30000), ("b", 30000), ("c", 30000), ("zz", 30000)),
            ],
        )


def test_standings_pickle_for_the_cache():
    result = compute_standings(
        SBR,
        players("a", "b", "c", "d"),
        [
            table(1, 1, ("a", 10), ("b", 10), ("c", -5), ("d", -15)),
        ],
    )
    assert pickle.loads(pickle.dumps(result)) == result


def test_400_players_12_sessions_sum_to_zero():
    """A full-size field: every EMA table sums to zero after uma, so the standings do too.

    (Speed is measured by benchmarks/standings.py, not asserted here.)"""
    rnd = random.Random(7)
    roster = [PlayerRow(f"p{i:03}", f"P{i}") for i in range(400)]
    tables = []
    for session in range(1, 13):
        keys = [p.key for p in roster]
        rnd.shuffle(keys)
        for t in range(100):
            scores = [rnd.randrange(0, 600) * 100 for _ in range(3)]
            scores.append(120000 - sum(scores))
            four = keys[4 * t : 4 * t + 4]
            seats = [SeatRow(w, k, s) for w, k, s in zip("ESWN", four, scores, strict=True)]
            tables.append(TableRow(session, t + 1, seats))
    result = compute_standings(EMA, roster, tables)
    assert result.sessions_played == 12
    assert sum(row.total for row in result.rows) == 0
