"""Wind seating (seating.algorithms.winds): exact balance by construction, and the online seat.

Pure: runs without Django, `pytest -p no:django tests/unit/seating/test_winds.py`.
"""

import copy
import random

import pytest

from seating.algorithms.winds import (
    balance_winds,
    can_reach,
    exact_winds,
    least_imbalance,
    reachable_imbalance,
    seat_winds,
    wind_counts,
)


def plan(players: int, rounds: int, seed: int, sizes: list[int] | None = None) -> list[list]:
    """A random plan: each round shuffles the players into tables of `sizes` (default all 4s)."""
    rng = random.Random(seed)
    pool = [f"p{i:03d}" for i in range(players)]
    sizes = sizes or [4] * (players // 4)
    assert sum(sizes) == players
    result = []
    for _ in range(rounds):
        rng.shuffle(pool)
        tables, start = [], 0
        for size in sizes:
            tables.append(pool[start : start + size])
            start += size
        result.append(tables)
    return result


def games(rounds: list[list]) -> dict:
    """How many games each player played: awarded tables are no game."""
    played: dict = {}
    for tables in rounds:
        for table in tables:
            for player in table:
                played[player] = played.get(player, 0) + (len(table) >= 3)
    return played


def imbalance(counts: list[int]) -> int:
    return max(counts) - min(counts)


def assert_same_tables(before: list[list], after: list[list]) -> None:
    """Only the order within a table may change: same rounds, same tables, same players."""
    assert len(after) == len(before)
    for old_round, new_round in zip(before, after, strict=True):
        assert len(new_round) == len(old_round)
        for old, new in zip(old_round, new_round, strict=True):
            assert len(new) == len(old)
            assert sorted(new) == sorted(old)


def assert_equitable(rounds: list[list]) -> None:
    """Every player sits each wind ⌊R/4⌋ or ⌈R/4⌉ times: imbalance ≤ 1, and 0 when 4 divides R."""
    played = games(rounds)
    for player, counts in wind_counts(rounds).items():
        assert sum(counts) == played[player]
        assert imbalance(counts) <= (0 if played[player] % 4 == 0 else 1), (player, counts)


# wind_counts


def test_wind_counts_skip_awarded_tables_and_three_player_north():
    rounds = [
        [["a", "b", "c", "d"], ["e", "f", "g"], ["h"]],
        [["d", "c", "b", "a"], ["h", "e"], ["f", "g", "x"]],
    ]
    assert wind_counts(rounds) == {
        "a": [1, 0, 0, 1],
        "b": [0, 1, 1, 0],
        "c": [0, 1, 1, 0],
        "d": [1, 0, 0, 1],
        "e": [1, 0, 0, 0],
        "f": [1, 1, 0, 0],
        "g": [0, 1, 1, 0],
        "h": [0, 0, 0, 0],
        "x": [0, 0, 1, 0],
    }


def test_wind_counts_refuse_a_table_of_five():
    with pytest.raises(ValueError):
        wind_counts([[["a", "b", "c", "d", "e"]]])


# balance_winds: exact by construction


@pytest.mark.parametrize(
    "players, rounds, seed",
    [(16, 5, 1), (16, 5, 2), (32, 10, 3), (32, 10, 4), (200, 12, 5), (20, 6, 6), (20, 6, 7)],
)
def test_four_player_plans_come_out_exactly_equitable(players, rounds, seed):
    before = plan(players, rounds, seed)
    kept = copy.deepcopy(before)
    after = balance_winds(before)
    assert before == kept  # the input is not changed
    assert_same_tables(before, after)
    assert_equitable(after)


def test_awarded_tables_stay_as_they_are_and_the_rest_is_still_exact():
    # 18 players: four tables of four and an awarded pair, so players play 5 to 7 of 7 rounds.
    before = plan(18, 7, 8, sizes=[4, 4, 2, 4, 4])
    after = balance_winds(before)
    assert_same_tables(before, after)
    for old_round, new_round in zip(before, after, strict=True):
        assert new_round[2] == old_round[2]
    assert len(set(games(before).values())) > 1  # the awarded pair did vary R
    assert_equitable(after)


def test_one_table_played_four_times_seats_everyone_at_every_wind():
    after = balance_winds([[["a", "b", "c", "d"]]] * 4)
    assert wind_counts(after) == {p: [1, 1, 1, 1] for p in "abcd"}


def test_nothing_to_balance():
    assert balance_winds([]) == []
    assert balance_winds([[["a", "b"]], [["a"], ["b"]]]) == [[["a", "b"]], [["a"], ["b"]]]


def test_the_order_given_within_a_table_does_not_matter():
    before = plan(32, 10, 9)
    reversed_seats = [[table[::-1] for table in tables] for tables in before]
    assert balance_winds(before) == balance_winds(reversed_seats)


def test_same_input_same_output():
    for before, fixed in [
        (plan(32, 10, 10), 0),
        (plan(32, 10, 11), 3),
        (plan(18, 8, 12, sizes=[4, 4, 4, 3, 3]), 0),
    ]:
        assert balance_winds(before, fixed) == balance_winds(copy.deepcopy(before), fixed)


# balance_winds: fixed rounds


def test_fixed_rounds_come_back_unchanged_and_count():
    # The fixed rounds seat everyone in sorted order, so the low names always sit East.
    before = plan(32, 12, 13)
    before[:3] = [[sorted(table) for table in tables] for tables in before[:3]]
    kept = copy.deepcopy(before)
    after = balance_winds(before, fixed=3)
    assert before == kept
    assert after[:3] == before[:3]
    assert_same_tables(before, after)
    # Nine later rounds are plenty to make up for three skewed ones: 12 games, 3 of each wind.
    assert_equitable(after)


def test_fixed_rounds_shift_the_later_winds():
    # Two of four rounds are fixed with everyone at the same wind: the other two must avoid it.
    table = ["a", "b", "c", "d"]
    after = balance_winds([[table], [table], [table], [table]], fixed=2)
    assert after[:2] == [[table], [table]]
    for later in after[2:]:
        assert all(later[0][wind] != table[wind] for wind in range(4))
    # 2 of one wind are already sat, so 2, 1, 1, 0 is the best any of them can end with.
    assert all(sorted(c) == [0, 1, 1, 2] for c in wind_counts(after).values())


def test_fixed_out_of_range():
    with pytest.raises(ValueError):
        balance_winds(plan(8, 2, 14), fixed=3)
    with pytest.raises(ValueError):
        balance_winds(plan(8, 2, 14), fixed=-1)


# balance_winds: Sichuan three-player tables


@pytest.mark.parametrize(
    "players, rounds, seed, sizes",
    [
        (18, 8, 15, [4, 4, 4, 3, 3]),
        (19, 12, 16, [4, 4, 4, 4, 3]),
        (17, 6, 17, [4, 4, 3, 3, 3]),
        (50, 12, 18, [4] * 11 + [3, 3]),
    ],
)
def test_three_player_tables_never_seat_north(players, rounds, seed, sizes):
    before = plan(players, rounds, seed, sizes=sizes)
    after = balance_winds(before)
    assert_same_tables(before, after)  # a table of three stays three: nobody sits North
    north_seats = sum(1 for tables in after for table in tables if len(table) == 4)
    counts = wind_counts(after)
    assert sum(c[3] for c in counts.values()) == north_seats
    # Short of North seats, perfection is out of reach, but nobody is more than 2 out.
    assert max(imbalance(c) for c in counts.values()) <= 2


def test_three_player_tables_mixed_with_fixed_rounds_and_awarded_tables():
    before = plan(18, 6, 19, sizes=[4, 4, 4, 3, 1, 2])
    after = balance_winds(before, fixed=2)
    assert after[:2] == before[:2]
    assert_same_tables(before, after)
    for old_round, new_round in zip(before[2:], after[2:], strict=True):
        assert new_round[4:] == old_round[4:]


# seat_winds: one session at a time


def test_seat_winds_gives_each_player_the_wind_they_sat_least():
    counts = {
        "a": [1, 0, 1, 1],  # wants South
        "b": [0, 1, 1, 1],  # wants East
        "c": [1, 1, 1, 0],  # wants North
        "d": [1, 1, 0, 1],  # wants West
        "e": [1, 1, 0, 0],  # no North at a table of three: wants West
        "f": [0, 1, 1, 0],  # wants East
        "g": [1, 0, 1, 0],  # wants South
    }
    tables = [["a", "b", "c", "d"], ["e", "f", "g"], ["z", "y"]]
    kept_counts, kept_tables = copy.deepcopy(counts), copy.deepcopy(tables)
    assert seat_winds(tables, counts) == [["b", "a", "d", "c"], ["f", "g", "e"], ["z", "y"]]
    assert counts == kept_counts and tables == kept_tables


def test_seat_winds_breaks_ties_by_name_whatever_the_order_given():
    assert seat_winds([["d", "b", "c", "a"]], {}) == [["a", "b", "c", "d"]]
    # a has sat East: of the orders that keep a off East, the first by name.
    assert seat_winds([["d", "c", "b", "a"]], {"a": [1, 0, 0, 0]}) == [["b", "a", "c", "d"]]


def test_seat_winds_session_by_session_at_one_table_seats_everyone_at_every_wind():
    table, rounds = ["a", "b", "c", "d"], []
    for _ in range(4):
        rounds.append(seat_winds([table], wind_counts(rounds)))
    assert wind_counts(rounds) == {p: [1, 1, 1, 1] for p in "abcd"}


# --- what can still be reached, and reaching it exactly (issue 23) ----------------------------

# Two played sessions of 8 players: everyone has sat two different winds and owes the other two.
PLAYED = [
    [["p00", "p01", "p02", "p03"], ["p04", "p05", "p06", "p07"]],
    [["p01", "p00", "p03", "p02"], ["p05", "p04", "p07", "p06"]],
]
# Tables for sessions 3 and 4 where seating one table at a time (and the chains after it) leaves
# someone on a wind twice, though every player can sit each wind exactly once.
LATER = [
    [["p01", "p06", "p04", "p02"], ["p00", "p03", "p07", "p05"]],
    [["p06", "p07", "p05", "p04"], ["p03", "p01", "p00", "p02"]],
]


def test_reachable_imbalance():
    assert reachable_imbalance([0, 0, 0, 0], 4) == 0
    assert reachable_imbalance([0, 0, 0, 0], 5) == 1
    assert reachable_imbalance([1, 1, 0, 0], 2) == 0  # sits W and N
    assert reachable_imbalance([2, 0, 0, 0], 2) == 2  # East twice already: [2, 1, 1, 0]
    # docs/rules.md §3: a table of three has no North, so four games there repeat a wind
    assert reachable_imbalance([0, 0, 0, 0], 4, fours=0) == 2
    assert reachable_imbalance([0, 0, 0, 0], 3, fours=0) == 1
    assert can_reach([1, 1, 0, 0], 2, 1, 0) and not can_reach([1, 1, 0, 0], 2, 0, 0)


def test_exact_winds_reach_what_local_reseating_misses():
    before = wind_counts(PLAYED)
    playing = [sorted(t) for tables in LATER for t in tables]
    assert least_imbalance(playing, before) == 0
    found = exact_winds(playing, before, 0)
    assert found
    counts = wind_counts(PLAYED + [found])
    assert all(c == [1, 1, 1, 1] for c in counts.values())
    # balance_winds runs it when its local reseating stops above the bound
    seated = balance_winds(PLAYED + LATER, fixed=2)
    assert seated[:2] == PLAYED
    assert all(c == [1, 1, 1, 1] for c in wind_counts(seated).values())
    assert [sorted(t) for tables in seated[2:] for t in tables] == playing


def test_exact_winds_says_when_there_is_none():
    # four players who all owe North and West cannot all sit them at one table
    before = {p: [1, 1, 0, 0] for p in "abcd"}
    assert exact_winds([["a", "b", "c", "d"], ["a", "b", "c", "d"]], before, 0) is None
    # one table: two of the four must take East or South, [2, 1, 0, 0]
    assert least_imbalance([["a", "b", "c", "d"]], before) == 1  # each alone could
    assert exact_winds([["a", "b", "c", "d"]], before, 1) is None
    assert exact_winds([["a", "b", "c", "d"]], before, 2)
    # out of steps before an answer: False, not None
    playing = [sorted(t) for tables in LATER for t in tables]
    assert exact_winds(playing, wind_counts(PLAYED), 0, steps=0) is False
