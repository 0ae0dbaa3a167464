"""Seating figures (seating.algorithms.quality): bounds and a hand-checked example.

Pure: runs without Django, `pytest -p no:django tests/unit/seating/test_quality.py`.
"""

import random
from itertools import permutations

import pytest

from seating.algorithms.quality import (
    Bound,
    clashes,
    extra_floor,
    is_game,
    meetings,
    min_repeats,
    quality,
    spread_floor_one_of_each,
    table_spread,
    wind_counts,
    zero_repeat_bound,
    zero_repeat_ceiling,
)


@pytest.mark.parametrize(
    ("players", "ceiling"),
    # 4, 8, 12: fewer than four tables, so a second session repeats (pigeonhole); 16 → 5 and
    # 20 → 5 are the social golfer maxima, 64 → 21 the counting bound that RTD(4, 16) reaches;
    # 13 is Sichuan's 4 + 3 + 3 + 3: 78 pairs, 15 a session
    [(0, 0), (1, 0), (4, 1), (8, 1), (12, 1), (13, 5), (16, 5), (20, 5), (64, 21), (100, 33)],
)
def test_zero_repeat_ceiling(players, ceiling):
    assert zero_repeat_ceiling(players) == ceiling


def test_twelve_players_have_one_repeat_free_session():
    # Issue 23: the page said 3. A second session's table of four takes its players from only
    # three first-session tables, so two of them met before: one session, and that is exact.
    assert zero_repeat_bound(12) == Bound(1, True)
    assert zero_repeat_bound(8) == Bound(1, True)
    assert min_repeats((4, 4, 4), (4, 4, 4)) == 3  # at least one pair at each table
    assert min_repeats((4, 4), (4, 4)) == 4  # 2 + 2 at each table


def test_sixteen_players_have_five_and_that_is_known():
    # the affine plane of order 4: five parallel classes, the counting bound (16 − 1)/3
    assert zero_repeat_bound(16) == Bound(5, True)
    # 20 players: the counting bound says 6, the social golfer problem's maximum is 5
    assert zero_repeat_bound(20) == Bound(5, True)


def test_sichuan_ten_players_have_one_repeat_free_session():
    # docs/rules.md §3: three players play three-handed, so 10 sit at 4 + 3 + 3. The table of four
    # in a second session needs four different first-session tables; there are three.
    assert zero_repeat_bound(10) == Bound(1, True)
    assert zero_repeat_bound(10, [4, 3, 3]) == Bound(1, True)
    assert min_repeats((4, 3, 3), (4, 3, 3)) == 1
    # 9 players at three tables of three: the affine plane of order 3, four sessions
    assert zero_repeat_bound(9, [3, 3, 3]) == Bound(4, True)


def test_a_bound_no_seating_is_known_to_reach_is_only_a_bound():
    # 44 players: ⌊43/3⌋ = 14 sessions by counting, and no stored design gets there
    assert zero_repeat_bound(44) == Bound(14, False)
    assert zero_repeat_bound(40) == Bound(13, True)  # the stored design reaches it
    assert zero_repeat_bound(2, [2]) is None  # an awarded table: nobody ever meets


def test_extra_floor_values():
    assert extra_floor(16, 6) == 24  # 16 · (18 − 15) / 2
    assert extra_floor(16, 12) == 168  # 16 · (36 − 15) / 2
    assert extra_floor(20, 7) == 20  # 20 · (21 − 19) / 2
    # Sichuan 13 at 4 + 3 + 3 + 3 fills 15 pairs a session, not 13 · 3 / 2: 5 · 15 < 78
    assert extra_floor(13, 5) == 0
    # 10 at 4 + 3 + 3: 12 pairs a session; four sessions 48 of the 45 pairs
    assert extra_floor(10, 4) == 3


@pytest.mark.parametrize("players", [16, 24, 40, 64, 100])
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
    assert q.zero_repeat_ceiling == 1
    # 2 + 2 from the two first tables at each second one: 4 pairs again, no fewer possible
    assert q.extra_floor == 4
    assert q.bounds["extra_meetings"] == Bound(4, True)


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
    # two repeated pairs per table, 3 + 1 gives three; extra_floor is the pigeonhole's 4
    first = [[0, 1, 2, 3], [4, 5, 6, 7]]
    q = quality([first, [[0, 4, 1, 5], [2, 6, 3, 7]]])
    assert (q.repeated_pairs, q.max_meetings, q.extra_meetings) == (4, 2, 4)
    q = quality([first, [[0, 1, 2, 4], [3, 5, 6, 7]]])
    assert (q.repeated_pairs, q.max_meetings, q.extra_meetings) == (6, 2, 6)
    assert q.extra_floor == 4
    q = quality([first, first])
    assert (q.repeated_pairs, q.max_meetings, q.extra_meetings) == (12, 2, 12)
    assert q.worst_imbalance == 2 and q.balanced_share == 0.0
    q = quality([first])
    assert (q.repeated_pairs, q.max_meetings, q.extra_meetings) == (0, 1, 0)
    assert q.balanced_share == 1.0 and q.worst_imbalance == 1


def test_awarded_tables_meet_nobody_and_sit_no_wind():
    # Sichuan with awarded tables (docs/rules.md §3): one or two players left over play no game
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


def test_an_empty_session_claims_nothing_it_cannot_have():
    # Issue 23: an empty session showed "best possible 1" beside a value of 0
    q = quality([])
    assert q.bounds["max_meetings"] == Bound(0, True) and q.max_meetings == 0
    assert q.bounds["worst_imbalance"] == Bound(0, True)
    assert "zero_repeat_ceiling" not in q.bounds and q.zero_repeat_ceiling is None
    q = quality([[[0, 1]]])  # one awarded table (docs/rules.md §3): no game, nobody meets
    assert q.bounds["max_meetings"] == Bound(0, True) and q.zero_repeat_ceiling is None


def test_wind_bound_after_played_sessions():
    # two sessions played with East both times: after two more, [2, 1, 1, 0] at best
    played = [[[0, 1, 2, 3]], [[0, 1, 2, 3]]]
    later = [[[0, 1, 2, 3]], [[0, 1, 2, 3]]]
    q = quality(played + later, fixed=2)
    assert q.bounds["worst_imbalance"].value == 2
    # from nothing, four sessions of one table of four: each wind once, de Werra's colouring
    assert quality(played + later).bounds["worst_imbalance"] == Bound(0, True)


def test_north_seats_run_short_at_tables_of_three():
    # docs/rules.md §3: a table of three has no North. 18 players over 4 sessions at 4+4+4+3+3 have
    # 12 North seats: six players never sit North and repeat a wind in their four games
    rounds = [[list(range(0, 4)), list(range(4, 8)), list(range(8, 12)), [12, 13, 14],
               [15, 16, 17]]] * 4  # fmt: skip
    assert quality(rounds).bounds["worst_imbalance"].value == 2


def test_clash_bound_counts_the_clubs_that_cannot_spread():
    # five players of one club at four tables: two of them share a table in every session
    rounds = [[[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11], [12, 13, 14, 15]]]
    club = {p: "A" for p in range(5)}
    q = quality(rounds, club)
    assert q.bounds["clashes"] == Bound(1, True)
    assert q.clashes == 6  # 0–3 and 4 sit as drawn: C(4, 2)


def test_bounds_after_played_sessions_keep_what_was_played():
    # a plan after played sessions cannot undo their repeats: the bound counts them
    first = [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11], [12, 13, 14, 15]]
    played = [first, first]  # the same tables twice: 24 pairs again
    later = [[[0, 4, 8, 12], [1, 5, 9, 13], [2, 6, 10, 14], [3, 7, 11, 15]]]
    q = quality(played + later, fixed=2)
    assert q.extra_meetings == 24
    assert q.bounds["extra_meetings"] == Bound(24, True)  # reached: the best possible
    # over all three sessions from nothing, 16 players could have met nobody twice
    assert quality(played + later).bounds["extra_meetings"] == Bound(0, True)
    # the 2 played sessions of the same four tables leave no wind to even out in 1 more
    assert q.bounds["worst_imbalance"].value == 2


def _least_spread_one_of_each(owed) -> float:
    """By brute force: the least mean spread over every way to cut the places into tables of
    four holding one player of each kind."""
    best = None

    def place(left, spreads):
        nonlocal best
        if not left:
            mean = sum(spreads) / len(spreads)
            best = mean if best is None else min(best, mean)
            return
        first = left[0]
        rest = left[1:]
        for others in permutations(rest, 3):
            if list(others) != sorted(others):
                continue
            table = (first, *others)
            if sorted(owed[i] for i in table) == [0, 1, 2, 3]:
                place([i for i in rest if i not in others], spreads + [max(table) - first])

    place(list(range(len(owed))), [])
    return best


@pytest.mark.parametrize(
    ("owed", "floor"),
    [
        ([0, 1, 2, 3] * 3, 3.0),  # each four in a row owes every wind: tables of neighbours
        ([0, 0, 1, 1, 2, 2, 3, 3], 6.0),  # {0, 2, 4, 6} and {1, 3, 5, 7}
        ([0] * 3 + [1] * 3 + [2] * 3 + [3] * 3, 9.0),  # each table spans the field
    ],
)
def test_spread_floor_one_of_each_on_hand_checked_sessions(owed, floor):
    assert spread_floor_one_of_each(owed) == floor
    assert _least_spread_one_of_each(owed) == floor  # and these seatings reach it


def test_spread_floor_one_of_each_never_exceeds_a_seating():
    # The bound of the README's last-session argument (issue 26): below every seating's mean
    rng = random.Random(7)
    for _ in range(30):
        owed = [0, 1, 2, 3] * 3
        rng.shuffle(owed)
        assert spread_floor_one_of_each(owed) <= _least_spread_one_of_each(owed)
