"""Repeat-free seatings from finite-field designs (seating.algorithms.designs).

Pure: runs without Django, `pytest -p no:django tests/unit/seating/test_designs.py`.
"""

from itertools import combinations, product

import pytest

from seating.algorithms.designs import (
    Field,
    rotational_rounds,
    transversal_rounds,
    zero_repeat_rounds,
)
from seating.algorithms.quality import meetings, zero_repeat_ceiling

# players → sessions the module builds (RTD(4, q) plus the groups seated among themselves, or
# the stored rotational bases, whichever is longer)
ROUNDS = {
    16: 5,
    20: 5,
    24: 7,
    28: 9,
    32: 10,
    36: 11,
    40: 13,
    48: 15,
    52: 17,
    60: 19,
    64: 21,
    100: 25,
}


@pytest.mark.parametrize(("players", "sessions"), sorted(ROUNDS.items()))
def test_zero_repeat_rounds_count_cover_and_no_repeat(players, sessions):
    rounds = zero_repeat_rounds(players)
    assert len(rounds) == sessions
    assert sessions <= zero_repeat_ceiling(players)
    for tables in rounds:
        assert len(tables) == players // 4
        assert all(len(table) == 4 for table in tables)
        seated = sorted(p for table in tables for p in table)
        assert seated == list(range(players))  # everyone exactly once
    met = meetings(rounds)
    assert max(met.values()) == 1
    # every session gives 6 new pairs per table, none of them seen before
    assert len(met) == sessions * (players // 4) * 6


def test_32_players_get_10_sessions_and_each_misses_exactly_one_other():
    # the social-golfer instance 8-4-10: 480 of the 496 pairs meet once, 16 disjoint pairs never
    rounds = zero_repeat_rounds(32)
    assert len(rounds) == zero_repeat_ceiling(32) == 10
    met = meetings(rounds)
    missing = {(a, b) for a in range(32) for b in range(a + 1, 32)} - set(met)
    assert len(missing) == 16 and len({p for pair in missing for p in pair}) == 32


def test_zero_repeat_rounds_reaches_the_ceiling_for_16_and_64():
    # 16 players: 15 opponents, 3 a session → 5 sessions; 64: 63 / 3 = 21 (perfect)
    assert len(zero_repeat_rounds(16)) == zero_repeat_ceiling(16) == 5
    assert len(zero_repeat_rounds(64)) == zero_repeat_ceiling(64) == 21
    # every pair meets exactly once when the ceiling is met with no remainder
    assert len(meetings(zero_repeat_rounds(16))) == 16 * 15 // 2
    assert len(meetings(zero_repeat_rounds(64))) == 64 * 63 // 2


@pytest.mark.parametrize("players", [4, 8, 12])
def test_small_fields_have_one_session(players):
    rounds = zero_repeat_rounds(players)
    assert len(rounds) == 1
    assert sorted(p for table in rounds[0] for p in table) == list(range(players))


@pytest.mark.parametrize("players", [0, 1, 6, 18, 30, 101])
def test_no_design_off_multiples_of_four(players):
    assert zero_repeat_rounds(players) == ()


def test_no_design_where_neither_construction_applies():
    # 44 = 4 · 11 is RTD(4, 11) alone → 11 sessions; 200 = 4 · 50: 50 is no prime power and
    # there is no stored base for it
    assert zero_repeat_rounds(200) == ()
    assert rotational_rounds(200) == []
    assert len(zero_repeat_rounds(44)) == 11


def test_zero_repeat_rounds_is_immutable_and_cached():
    rounds = zero_repeat_rounds(16)
    assert isinstance(rounds, tuple)
    assert all(isinstance(t, tuple) for tables in rounds for t in tables)
    assert zero_repeat_rounds(16) is rounds


def _check_field(field: Field, q: int, full: bool) -> None:
    add, mul = field.add, field.mul
    elements = range(q)
    assert len(add) == len(mul) == q
    for a in elements:
        assert add[a][0] == a and mul[a][1] == a and mul[a][0] == 0
        assert sorted(add[a]) == list(elements)  # addition by a is a bijection
        if a:
            assert sorted(mul[a]) == list(elements)  # no zero divisors
            assert sum(1 for b in elements if mul[a][b] == 1) == 1  # exactly one inverse
        # characteristic p: a added to itself p times is 0
        total = 0
        for _ in range(field.p):
            total = add[total][a]
        assert total == 0
        for b in elements:
            assert add[a][b] == add[b][a] and mul[a][b] == mul[b][a]
    if full:
        for a, b, c in product(elements, repeat=3):
            assert mul[a][add[b][c]] == add[mul[a][b]][mul[a][c]]
            assert add[add[a][b]][c] == add[a][add[b][c]]
            assert mul[mul[a][b]][c] == mul[a][mul[b][c]]


@pytest.mark.parametrize(("q", "p", "k"), [(4, 2, 2), (8, 2, 3), (9, 3, 2)])
def test_small_fields_satisfy_every_axiom(q, p, k):
    field = Field(q)
    assert (field.q, field.p, field.k) == (q, p, k)
    _check_field(field, q, full=True)


@pytest.mark.parametrize("q", [2, 3, 5, 7, 11, 13, 16, 25, 27, 32, 49, 64])
def test_other_fields_have_inverses(q):
    _check_field(Field(q), q, full=q <= 27)


def test_gf4_multiplication_table():
    # GF(4) = {0, 1, x, x + 1} numbered 0, 1, 2, 3 with x² = x + 1
    assert Field(4).mul == [
        [0, 0, 0, 0],
        [0, 1, 2, 3],
        [0, 2, 3, 1],
        [0, 3, 1, 2],
    ]
    assert Field(4).add[2][3] == 1  # x + (x + 1) = 1


@pytest.mark.parametrize("q", [1, 6, 10, 12, 81, 128])
def test_unsupported_orders_raise(q):
    with pytest.raises(ValueError):
        Field(q)


@pytest.mark.parametrize("q", [4, 5, 7, 8, 9])
def test_transversal_design(q):
    rounds = transversal_rounds(q)
    group = {p: p // q for p in range(4 * q)}
    assert len(rounds) == q
    for tables in rounds:
        assert len(tables) == q
        assert sorted(p for t in tables for p in t) == list(range(4 * q))
        for table in tables:
            assert [group[p] for p in table] == [0, 1, 2, 3]  # one of each group, in order
    met = meetings(rounds)
    for a, b in combinations(range(4 * q), 2):
        assert met[(a, b)] == (0 if group[a] == group[b] else 1), (a, b)


def test_transversal_rounds_5_exact_counts():
    met = meetings(transversal_rounds(5))
    # 6 pairs of groups × 25 pairs each, every one once; no pair within a group
    assert len(met) == 150
    assert set(met.values()) == {1}
    assert all(a // 5 != b // 5 for a, b in met)


@pytest.mark.parametrize("players", [24, 28, 36, 40, 48, 52, 60])
def test_rotational_rounds_are_the_stored_designs(players):
    rounds = rotational_rounds(players)
    assert len(rounds) == ROUNDS[players]
    assert max(meetings(rounds).values()) == 1
    for tables in rounds:
        assert sorted(p for t in tables for p in t) == list(range(players))
