"""Winds for Swiss sessions (seating.algorithms.swiss_winds): ties broken to plan ahead.

Pure: runs without Django, `pytest -p no:django tests/unit/seating/test_swiss_winds.py`.
"""

import random

from seating.algorithms.swiss_winds import allowed_winds, assign_winds, owed, plan_winds
from seating.algorithms.winds import seat_winds


def test_owed_winds_are_the_least_sat():
    assert owed([1, 0, 1, 0]) == 0b1010
    assert owed([2, 2, 2, 2]) == 0b1111


def test_allowed_winds_keep_every_wind_reachable_by_the_end():
    # Issue 3: every player should end with each wind ⌊G/4⌋ or ⌈G/4⌉ times over G games.
    E, S, W, N = 1, 2, 4, 8
    assert allowed_winds([1, 1, 1, 1], None) == E | S | W | N  # session count unknown
    assert allowed_winds([1, 1, 1, 1], 4) == E | S | W | N
    assert allowed_winds([2, 2, 2, 1], 1) == N  # the last session: the wind still owed
    # 8 games in all: two of each. East is full; any other still leaves 3 sessions for 3 owed.
    assert allowed_winds([2, 1, 1, 0], 4) == S | W | N
    # 3 sessions left for 3 owed winds: only an owed wind keeps that.
    assert allowed_winds([2, 2, 1, 0], 3) == W | N
    # 6 games: each wind once or twice. Having sat no North, one wind may still come twice.
    assert allowed_winds([1, 1, 1, 0], 3) == E | S | W | N
    assert allowed_winds([2, 1, 1, 0], 2) == S | W | N  # North can still come last
    assert allowed_winds([2, 1, 1, 0], 1) == N  # 5 games: the last must be North
    # Already uneven (7 games, East 3 times): the others may still come; never East again.
    assert allowed_winds([3, 1, 1, 1], 1) == S | W | N
    # Nothing can even it out any more: the winds sat least, as without a session count.
    assert allowed_winds([4, 0, 0, 0], 1) == S | W | N
    assert allowed_winds([4, 0, 0, 0], 1) == owed([4, 0, 0, 0])


def test_a_wind_not_allowed_is_given_only_when_the_table_leaves_no_other_choice():
    counts = {"a": [2, 2, 2, 1], "b": [2, 2, 1, 2], "c": [2, 1, 2, 2], "d": [1, 2, 2, 2]}
    allowed = {p: allowed_winds(c, 1) for p, c in counts.items()}
    place = {p: i for i, p in enumerate("abcd")}
    assert plan_winds([["a", "b", "c", "d"]], counts, place, allowed) == [["d", "c", "b", "a"]]
    counts["b"] = [2, 2, 2, 1]  # a and b both owe North: one of them must sit another wind
    allowed = {p: allowed_winds(c, 1) for p, c in counts.items()}
    [table] = plan_winds([["a", "b", "c", "d"]], counts, place, allowed)
    assert table[0] == "d" and table[1] == "c" and table[3] in {"a", "b"}


def test_every_table_is_seated_as_evenly_as_seat_winds_does():
    counts = {
        "a": [1, 0, 0, 0],
        "b": [0, 1, 0, 0],
        "c": [1, 1, 0, 0],
        "d": [0, 0, 1, 1],
        "e": [1, 0, 1, 0],
        "f": [0, 1, 0, 1],
        "g": [0, 0, 0, 0],
        "h": [2, 1, 1, 0],
    }
    tables = [["a", "b", "c", "d"], ["e", "f", "g", "h"]]
    place = {p: i for i, p in enumerate("abcdefgh")}
    planned = plan_winds(tables, counts, place)
    greedy = seat_winds(tables, counts)

    def added(seated):
        return sum(counts[p][w] for table in seated for w, p in enumerate(table))

    assert added(planned) == added(greedy)
    assert [sorted(t) for t in planned] == [sorted(t) for t in tables]


def unevenness(seated, counts, place):
    """Σ over winds and standings prefixes of (owed shares among the best k, less k/4)²."""
    row = [None] * len(place)
    for table in seated:
        for wind, p in enumerate(table):
            seen = list(counts[p])
            seen[wind] += 1
            row[place[p]] = owed(seen)
    total, prefix = 0.0, [0.0] * 4
    for mask in row:
        for w in range(4):
            prefix[w] += (mask >> w & 1) / mask.bit_count() - 0.25
            total += prefix[w] ** 2
    return total


def test_ties_keep_the_owed_winds_even_down_the_standings():
    # Everyone sat two different winds; tables of four from the standings, shuffled a little.
    better = 0
    for seed in range(20):
        rng = random.Random(seed)
        field = [f"p{i:02d}" for i in range(32)]
        counts = {}
        for p in field:
            first, second = rng.sample(range(4), 2)
            counts[p] = [int(w in (first, second)) for w in range(4)]
        order = sorted(field, key=lambda p: field.index(p) + rng.uniform(-6, 6))
        tables = [order[k : k + 4] for k in range(0, 32, 4)]
        place = {p: i for i, p in enumerate(field)}
        planned = unevenness(plan_winds(tables, counts, place), counts, place)
        greedy = unevenness(seat_winds(tables, counts), counts, place)
        assert planned <= greedy + 1e-9
        better += planned < greedy - 1e-9
    assert better >= 10


def test_awarded_tables_come_back_as_they_are():
    counts = {p: [0, 0, 0, 0] for p in "abcde"}
    place = {p: i for i, p in enumerate("abcde")}
    planned = plan_winds([["d", "a", "c", "b"], ["e"]], counts, place)
    assert planned[1] == ["e"]
    assert sorted(planned[0]) == ["a", "b", "c", "d"]


def test_three_player_tables_never_seat_north():
    counts = {"a": [0, 0, 0, 0], "b": [1, 1, 1, 0], "c": [0, 0, 0, 0]}
    place = {p: i for i, p in enumerate("abc")}
    (table,) = plan_winds([["a", "b", "c"]], counts, place)
    assert len(table) == 3 and sorted(table) == ["a", "b", "c"]


def test_same_input_same_winds():
    counts = {p: [i % 2, (i + 1) % 2, 0, 0] for i, p in enumerate("abcdefgh")}
    place = {p: i for i, p in enumerate("abcdefgh")}
    tables = [["a", "c", "e", "g"], ["b", "d", "f", "h"]]
    assert plan_winds(tables, counts, place) == plan_winds(tables, counts, place)


def test_assign_winds_gives_each_wind_to_a_quarter_and_each_player_an_allowed_wind():
    # docs/features/seating.md, "By standings": every player should end with each wind
    # ⌊G/4⌋ or ⌈G/4⌉ times; a seating where each player sits an `allowed_winds` wind keeps
    # that within reach. 8 players at 2 tables: each wind twice.
    E, S, W, N = 1, 2, 4, 8
    masks = [E | S, E, S | W, N, W | N, E | S | W | N, S, W | N]
    winds = assign_winds(masks, 2)
    assert winds is not None
    assert sorted(winds) == [0, 0, 1, 1, 2, 2, 3, 3]
    assert all(masks[i] >> w & 1 for i, w in enumerate(winds))
    # Down the standings each takes, of its winds, the one given least so far (ties: E, S, W,
    # N) that leaves the players below a way: E; E (the only one); S; N; W (given least of W
    # and N); W (S, tied with it, would leave no South for the South-only player below); S; N.
    assert winds == [0, 0, 1, 3, 2, 2, 1, 3]


def test_assign_winds_answers_none_when_some_winds_are_wanted_by_too_many():
    # Hall's theorem: three players who may sit only East or South, with one table (one East,
    # one South), cannot all be suited; nor can five who owe North at one table.
    E, S, W, N = 1, 2, 4, 8
    assert assign_winds([E | S, E | S, E | S, W | N], 1) is None
    assert assign_winds([N, N, E, S], 1) is None
    assert assign_winds([N, W, E, S], 1) == [3, 2, 0, 1]  # the last session: no choice
    assert assign_winds([E, S, W], 1) is None  # three players do not fill a table of four


def test_assign_winds_looks_ahead_so_that_the_players_below_can_still_be_suited():
    # The first player may sit East or South, and East comes first in a tie; but at two tables
    # (two Easts) the next two may sit East only, so the first must take South.
    E, S, W, N = 1, 2, 4, 8
    masks = [E | S, E, E, S, W, W, N, N]
    winds = assign_winds(masks, 2)
    assert winds is not None and winds[0] == 1
    assert sorted(winds) == [0, 0, 1, 1, 2, 2, 3, 3]
