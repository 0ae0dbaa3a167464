"""The winds owed over the last sessions (seating.algorithms.owed_winds), decided before tables.

Pure: runs without Django, `pytest -p no:django tests/unit/seating/test_owed_winds.py`.
"""

import pytest

from seating.algorithms.owed_winds import owed_winds, wind_sessions


def test_each_player_gets_the_winds_not_yet_sat():
    # 8 players after two sessions, each on two different winds: the other two are owed
    before = [[1, 1, 0, 0], [1, 0, 1, 0], [0, 1, 0, 1], [0, 0, 1, 1]] * 2
    plan = owed_winds(before, 2, 2)
    assert all(
        [a + b for a, b in zip(seen, mine, strict=True)] == [1, 1, 1, 1]
        for seen, mine in zip(before, plan, strict=True)
    )


def test_the_seats_of_each_wind_are_filled_even_when_the_history_leans():
    # everyone in the first half sat East twice: not everyone can avoid it, but each wind still
    # gets its 2 · 3 = 6 seats and nobody sits a wind a third time
    before = [[2, 0, 0, 0]] * 4 + [[0, 2, 0, 0]] * 4 + [[0, 0, 1, 1]] * 4
    plan = owed_winds(before, 2, 3)
    assert [sum(row[w] for row in plan) for w in range(4)] == [6, 6, 6, 6]
    assert all(sum(row) == 2 for row in plan)
    assert max(a + b for seen, mine in zip(before, plan, strict=True)
               for a, b in zip(seen, mine, strict=True)) == 2  # fmt: skip


def test_wind_sessions_seat_one_of_each_wind_per_table():
    before = [[1, 1, 0, 0], [1, 0, 1, 0], [0, 1, 0, 1], [0, 0, 1, 1]] * 3
    plan = owed_winds(before, 2, 3)
    winds = wind_sessions(plan, 2)
    for session in winds:
        assert [session.count(w) for w in range(4)] == [3, 3, 3, 3]
    for p, mine in enumerate(plan):
        assert sorted(winds[r][p] for r in range(2)) == [
            w for w in range(4) for _ in range(mine[w])
        ]


def test_players_must_fill_the_tables():
    with pytest.raises(ValueError):
        owed_winds([[0, 0, 0, 0]] * 6, 1, 2)
