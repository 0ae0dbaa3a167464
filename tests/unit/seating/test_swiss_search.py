"""The local search behind Swiss seating (seating.algorithms.swiss_search): its moves are priced
incrementally, and those prices must agree with the tables' costs worked out whole.

Pure: runs without Django, `pytest -p no:django tests/unit/seating/test_swiss_search.py`.
"""

import random
from itertools import permutations

from seating.algorithms import swiss, swiss_search
from seating.algorithms.draw import draw_tables, table_sizes
from seating.algorithms.swiss_winds import allowed_winds
from seating.algorithms.winds import wind_counts


def costs_for(count: int, sessions: int, planned: int | None, three_player: bool = False):
    """The costs `swiss_round` would search over, after `sessions` drawn sessions."""
    field = [f"p{i:02d}" for i in range(count)]
    history = [draw_tables(field, seed, three_player) for seed in range(1, sessions + 1)]
    sizes = table_sizes(count, three_player)
    counts = {p: [0, 0, 0, 0] for p in field}
    counts.update({p: list(c) for p, c in wind_counts(history).items()})
    allowed = None
    if planned:
        allowed = {p: allowed_winds(counts[p], planned - sessions) for p in field}
    keep_apart = {field[0]: "club", field[5]: "club"}
    return swiss._Costs(field, history, keep_apart, counts, allowed), sizes


def whole(costs, groups) -> float:
    return sum(costs.table(g, len(g) < 4) for g in groups)


def test_each_move_is_priced_as_the_tables_cost_whole():
    rng = random.Random(5)
    for count, sessions, planned, three in (
        (32, 3, 8, False),
        (20, 2, None, False),
        (14, 2, 6, True),
    ):
        costs, sizes = costs_for(count, sessions, planned, three)
        seating = swiss_search.Seating(costs, swiss._cut(sizes))
        for _ in range(300):
            a, b = rng.randrange(count), rng.randrange(count)
            ta, tb = seating.table_of[a], seating.table_of[b]
            if ta == tb:
                continue
            before = whole(costs, seating.groups)
            priced = seating.change(ta, a, b) + seating.change(tb, b, a)
            seating.put(ta, a, b)
            seating.put(tb, b, a)
            after = whole(costs, seating.groups)
            assert abs(after - before - priced) < 1e-6
            assert abs(seating.total - after) < 1e-6
        seating.undo()  # every move taken back, last first
        assert seating.groups == swiss._cut(sizes)
        assert abs(seating.total - whole(costs, seating.groups)) < 1e-6


def test_the_assignment_is_the_cheapest_matching():
    rng = random.Random(2)
    for size in (1, 2, 3, 5, 6):
        matrix = [[float(rng.randrange(20)) for _ in range(size)] for _ in range(size)]
        taken = swiss_search._assignment(matrix)
        assert sorted(taken) == list(range(size))
        cheapest = min(
            sum(matrix[r][c] for r, c in enumerate(order)) for order in permutations(range(size))
        )
        assert sum(matrix[r][c] for r, c in enumerate(taken)) == cheapest


def test_the_search_never_ends_dearer_than_its_greedy_start():
    for count, sessions, planned in ((32, 5, 8), (48, 6, 8), (24, 4, None)):
        costs, sizes = costs_for(count, sessions, planned)
        start = whole(costs, swiss_search._greedy(costs, sizes))
        found = swiss_search.search(costs, sizes, random.Random(1), float("inf"))
        assert sorted(len(g) for g in found) == sorted(sizes)
        assert sorted(i for g in found for i in g) == list(range(count))
        assert whole(costs, found) <= start
