"""Seating figures (seating.algorithms.quality): bounds and a hand-checked example.

Pure: runs without Django, `pytest -p no:django tests/unit/test_quality.py`.
"""

import pytest

from seating.algorithms.quality import (
    clashes,
    extra_floor,
    is_game,
    meetings,
    quality,
    table_spread,
    wind_counts,
    zero_repeat_ceiling,
)


@pytest.mark.parametrize(
    ("players", "ceiling"),
    [(0, 0), (1, 0), (4, 1), (8, 2), (12, 3), (13, 4), (16, 5), (20, 6), (64, 21), (100, 33)],
)
def test_zero_repeat_ceiling(players, ceiling):
    assert zero_repeat_ceiling(players) == ceiling


def test_extra_floor_values():
    assert extra_floor(16, 6) == 24  # 16 · (18 − 15) / 2
    assert extra_floor(16, 12) == 168  # 16 · (36 − 15) / 2
    assert extra_floor(13, 5) == 20  # 13 · (15 − 12) / 2 = 19.5, rounded up
    assert extra_floor(20, 7) == 20  # 20 · (21 − 19) / 2


@pytest.mark.parametrize("players", [8, 16, 20, 24, 40, 64, 100])
def test_extra_floor_is_zero_up_to_the_ceiling(players):
    ceiling = zero_repeat_ceiling(players)
    for sessions in range(ceiling + 1):
        assert extra_floor(players, sessions) == 0
    # one session past the ceiling 3(R) > N − 1 opponents: some meeting must repeat
    assert extra_floor(players, ceiling + 1) > 0


# A hand-made plan: 8 players, 2 sessions, tables in wind order E, S, W, N.
#   session 1: [0 1 2 3] [4 5 6 7]
#   session 2: [0 1 4 5] [2 3 6 7]
# Pairs 0-1, 2-3, 4-5 and 6-7 meet in both sessions; the other 16 pairs met once.
EXAMPLE = [
    [[0, 1, 2, 3], [4, 5, 6, 7]],
    [[0, 1, 4, 5], [2, 3, 6, 7]],
]
KEEP_APART = {0: "A", 1: "A", 4: "A", 2: "B", 6: "B", 3: "", 5: None}
# session 1: (0, 1) share A → 1; session 2: 0, 1, 4 share A → 3 pairs, 2 and 6 share B → 1
CLASHES = 5
# the standings before session 2 (none before session 1)
RANKS = [None, {0: 1, 1: 8, 2: 2, 3: 3, 4: 4, 5: 5, 6: 6, 7: 7}]
# session 2: ranks 1, 8, 4, 5 → range 7; ranks 2, 3, 6, 7 → range 5; mean 6


def test_meetings_of_the_example():
    met = meetings(EXAMPLE)
    assert len(met) == 20
    assert {pair for pair, m in met.items() if m == 2} == {(0, 1), (2, 3), (4, 5), (6, 7)}
    assert sum(met.values()) == 24  # 4 tables × 6 pairs
    assert met[(0, 4)] == 1 and met[(3, 6)] == 1
    assert met[(0, 6)] == 0  # never at one table


def test_quality_of_the_example():
    q = quality(EXAMPLE, KEEP_APART, RANKS)
    assert q.players == 8
    assert q.sessions == 2
    assert q.repeated_pairs == 4
    assert q.max_meetings == 2
    assert q.extra_meetings == 4
    assert q.clashes == CLASHES
    assert q.wind_counts == {
        0: [2, 0, 0, 0],
        1: [0, 2, 0, 0],
        2: [1, 0, 1, 0],
        3: [0, 1, 0, 1],
        4: [1, 0, 1, 0],
        5: [0, 1, 0, 1],
        6: [0, 0, 2, 0],
        7: [0, 0, 0, 2],
    }
    assert q.imbalance == {0: 2, 1: 2, 2: 1, 3: 1, 4: 1, 5: 1, 6: 2, 7: 2}
    assert q.worst_imbalance == 2
    assert q.balanced_share == 0.5
    assert q.spread == 6.0
    assert q.zero_repeat_ceiling == 2
    assert q.extra_floor == 0


def test_parts_of_the_example():
    assert clashes(EXAMPLE, KEEP_APART) == CLASHES
    assert clashes(EXAMPLE, {}) == 0
    assert clashes(EXAMPLE, {p: "" for p in range(8)}) == 0  # empty value: no keep-apart
    assert table_spread(EXAMPLE, RANKS) == 6.0
    assert table_spread(EXAMPLE, [{p: p for p in range(8)}, None]) == 3.0  # 3 − 0, 7 − 4
    assert table_spread(EXAMPLE, None) is None
    assert table_spread(EXAMPLE, [None, None]) is None
    assert wind_counts(EXAMPLE)[3] == [0, 1, 0, 1]


def test_quality_without_keep_apart_or_ranks():
    q = quality(EXAMPLE)
    assert q.clashes == 0
    assert q.spread is None


def test_quality_of_nothing():
    q = quality([])
    assert (q.players, q.sessions, q.max_meetings, q.extra_meetings) == (0, 0, 0, 0)
    assert q.worst_imbalance == 0
    assert q.balanced_share == 1
    assert q.wind_counts == {}


def test_eight_players_repeat_in_a_second_session():
    # each second-session table takes four players from two first-session tables: 2 + 2 gives
    # two repeated pairs per table, 3 + 1 gives three; extra_floor (0 here) is only a bound
    first = [[0, 1, 2, 3], [4, 5, 6, 7]]
    q = quality([first, [[0, 4, 1, 5], [2, 6, 3, 7]]])
    assert (q.repeated_pairs, q.max_meetings, q.extra_meetings) == (4, 2, 4)
    q = quality([first, [[0, 1, 2, 4], [3, 5, 6, 7]]])
    assert (q.repeated_pairs, q.max_meetings, q.extra_meetings) == (6, 2, 6)
    assert q.extra_floor == 0
    q = quality([first, first])
    assert (q.repeated_pairs, q.max_meetings, q.extra_meetings) == (12, 2, 12)
    assert q.worst_imbalance == 2 and q.balanced_share == 0.0
    q = quality([first])
    assert (q.repeated_pairs, q.max_meetings, q.extra_meetings) == (0, 1, 0)
    assert q.balanced_share == 1.0 and q.worst_imbalance == 1


def test_awarded_tables_meet_nobody_and_sit_no_wind():
    # Sichuan with awarded tables (RULES.md §3): one or two players left over play no game
    rounds = [
        [[0, 1, 2, 3], [4, 5]],
        [[4, 1, 2], [0, 3], [5]],
    ]
    assert not is_game([4, 5]) and not is_game([5]) and is_game([4, 1, 2])
    met = meetings(rounds)
    assert (4, 5) not in met and (0, 3) in met  # 0-3 met at the game of session 1 only
    assert met[(0, 3)] == 1
    assert met[(1, 2)] == 2
    assert met[(1, 4)] == met[(2, 4)] == 1
    assert sum(met.values()) == 6 + 3
    q = quality(rounds)
    assert q.players == 6
    assert q.wind_counts == {
        0: [1, 0, 0, 0],
        1: [0, 2, 0, 0],
        2: [0, 0, 2, 0],
        3: [0, 0, 0, 1],
        4: [1, 0, 0, 0],
        5: [0, 0, 0, 0],  # awarded every time: no wind at all
    }
    assert q.repeated_pairs == 1 and q.extra_meetings == 1 and q.max_meetings == 2
    # spread only over game tables: ranks 1..6 in player order → [4 1 2] spans 3
    assert q.spread is None
    assert table_spread(rounds, [None, {p: p + 1 for p in range(6)}]) == 3.0
