"""Winds for a Swiss session, chosen with the next sessions in mind. Imports nothing from Django.

`seat_winds` seats each table in the order that adds least to its players' squared wind counts,
and when several orders tie it takes the first. For Swiss seating the ties matter: a player sits
each wind once in every four sessions only if, in the fourth, their table holds one player short
of each wind, and whose table that is depends on the standings. So among a table's tied orders
`plan_winds` picks the ones that keep the winds still owed evenly spread down the standings: for
each wind, among the best k players (for every k) about a quarter should still owe it. The next
standings move every player by a session's result, so the evenness is kept in the large, where it
survives that shuffle; the Swiss search then finds tables of four different needs nearby.
"""

from collections.abc import Hashable, Mapping, Sequence
from functools import cache
from itertools import accumulate, permutations

Player = Hashable
WINDS = 4
ALL_WINDS = (1 << WINDS) - 1  # a mask of winds: bit w for wind w (E, S, W, N)
PLAN_PASSES = 4  # passes over the tables at most; each pass keeps only strict gains
MISS = 1 << 32  # in `_orders`, a player at a wind ruled out: more than any sum of wind counts
_SEATS = {k: list(permutations(range(k))) for k in (3, WINDS)}  # the orders of k players


def owed(seen: Sequence[int]) -> int:
    """Bit w set when wind w is one the player has sat least: their next seats should be those."""
    least = min(seen)
    return sum(1 << w for w, c in enumerate(seen) if c == least)


def allowed_winds(seen: Sequence[int], left: int | None) -> int:
    """Bit w set when sitting wind w now still lets the player end with every wind sat
    ⌊G/4⌋ or ⌈G/4⌉ times, G their games once the `left` sessions (this one included) are
    played. All four when `left` is unknown; the winds sat least when no wind keeps that."""
    if left is None:
        return ALL_WINDS
    games = sum(seen) + left
    high, low = -(-games // WINDS), games // WINDS
    mask = 0
    for w in range(WINDS):
        after = list(seen)
        after[w] += 1
        if after[w] <= high and sum(max(0, low - c) for c in after) <= left - 1:
            mask |= 1 << w
    return mask or owed(seen)


def _orders(
    table: Sequence[Player],
    counts: Mapping[Player, Sequence[int]],
    allowed: Mapping[Player, int] | None = None,
) -> list[tuple]:
    """The table's wind orders that seat fewest players at a wind `allowed` rules out and then
    add least to the squared wind counts, smallest first."""
    zeros = (0,) * WINDS
    allowed = allowed or {}
    players = sorted(table)
    # what seating each player at each wind costs: a ruled-out wind outweighs any counts
    price = [
        [
            counts.get(p, zeros)[w] + (0 if allowed.get(p, ALL_WINDS) >> w & 1 else MISS)
            for w in range(WINDS)
        ]
        for p in players
    ]
    best_cost, best = None, []
    for seats in _SEATS[len(players)]:
        cost = 0
        for w, i in enumerate(seats):
            cost += price[i][w]
        if best_cost is None or cost < best_cost:
            best_cost, best = cost, [seats]
        elif cost == best_cost:
            best.append(seats)
    return [tuple(players[i] for i in seats) for seats in best]


def _shares(order: Sequence[Player], counts: Mapping[Player, Sequence[int]]) -> list[tuple]:
    """After seating `order`, each player's owed winds as shares of one, less a quarter each."""
    zeros = (0,) * WINDS
    rows = []
    for wind, player in enumerate(order):
        seen = list(counts.get(player, zeros))
        seen[wind] += 1
        rows.append(_owed_shares(tuple(seen)))
    return rows


@cache
def _owed_shares(seen: tuple[int, ...]) -> tuple[float, ...]:
    """The winds owed after the counts `seen`, as shares of one, less a quarter each."""
    mask = owed(seen)
    size = mask.bit_count()
    return tuple((mask >> w & 1) / size - 1 / WINDS for w in range(WINDS))


def plan_winds(
    tables: Sequence[Sequence[Player]],
    counts: Mapping[Player, Sequence[int]],
    place: Mapping[Player, int],
    allowed: Mapping[Player, int] | None = None,
) -> list[list[Player]]:
    """Each game table in wind order E, S, W, N: seating as few players as it can at a wind
    their `allowed` mask (from `allowed_winds`; all winds if absent) rules out, then as
    `seat_winds` would balance it so far; its ties broken to keep the owed winds even down the
    standings (`place`: 0 leads).

    The unevenness is Σ over winds w and standings prefixes k of (the owed shares of w among
    the best k players, less k/4)², a player's owed winds sharing one. Every table starts from
    the first of its best orders (`seat_winds`'s, when nothing is ruled out); then, table by
    table in a fixed order and for PLAN_PASSES passes at most, a table takes the tied order
    that lowers the unevenness most. Only strict gains move, so the same input gives the same
    output. Tables of one or two are awarded: as they are.
    """
    n = len(place)
    options: list[list[tuple]] = []
    rows: list[list[list[tuple]]] = []
    for table in tables:
        found = _orders(table, counts, allowed) if len(table) >= 3 else [tuple(table)]
        options.append(found)
        rows.append([_shares(order, counts) if len(order) >= 3 else [] for order in found])
    chosen = [0] * len(tables)
    # delta[w][i]: the owed share of wind w at standings place i, less a quarter. Its prefix sum
    # over the best m places is the unevenness term P_w(m); area[w][m] = P_w(1) + … + P_w(m).
    delta = [[0.0] * n for _ in range(WINDS)]
    for t in range(len(tables)):
        for player, row in zip(options[t][0], rows[t][0], strict=False):
            for w in range(WINDS):
                delta[w][place[player]] += row[w]
    area = _areas(delta)
    for _ in range(PLAN_PASSES):
        moved = False
        for t in range(len(tables)):
            if len(options[t]) < 2:
                continue
            now = rows[t][chosen[t]]
            best, gain = chosen[t], -1e-9
            for k in range(len(options[t])):
                if k == chosen[t]:
                    continue
                change = _change(options[t][chosen[t]], now, options[t][k], rows[t][k], place)
                step = _rise(change, area, n)
                if step < gain:
                    best, gain = k, step
            if best == chosen[t]:
                continue
            change = _change(options[t][chosen[t]], now, options[t][best], rows[t][best], place)
            for w, steps in enumerate(change):
                for i, d in steps:
                    delta[w][i] += d
            area = _areas(delta)
            chosen[t], moved = best, True
        if not moved:
            break
    return [list(options[t][chosen[t]]) for t in range(len(tables))]


def _areas(delta: list[list[float]]) -> list[list[float]]:
    """Per wind, area[m] = P(1) + … + P(m), where P(k) sums `delta` over the first k places."""
    areas = []
    for row in delta:  # the same additions in the same order as a loop, in C
        prefixes = accumulate(row, initial=0.0)
        next(prefixes)
        areas.append(list(accumulate(prefixes, initial=0.0)))
    return areas


def _change(old, old_rows, new, new_rows, place) -> list[list[tuple[int, float]]]:
    """Per wind, the (place, change of share) pairs, by place, when a table goes from `old` to
    `new` (two orders of the same players)."""
    before = dict(zip(old, old_rows, strict=True))
    change: list[list[tuple[int, float]]] = [[] for _ in range(WINDS)]
    for i, player, row in sorted((place[p], p, r) for p, r in zip(new, new_rows, strict=True)):
        was = before[player]
        for w in range(WINDS):
            d = row[w] - was[w]
            if abs(d) > 1e-12:
                change[w].append((i, d))
    return change


def _rise(change, area, n: int) -> float:
    """How much the unevenness rises with `change`: Σ over prefixes m of (P + D)² − P², where
    D, the change's own prefix sum, is constant between the places it touches."""
    total = 0.0
    for w, steps in enumerate(change):
        a = area[w]
        d = 0.0
        for k, (i, step) in enumerate(steps):
            d += step
            # prefixes m = i + 1 .. end (the first m places include place i)
            end = steps[k + 1][0] if k + 1 < len(steps) else n
            total += 2 * d * (a[end] - a[i]) + d * d * (end - i)
    return total


# For each mask of winds S, the masks m ⊆ S (m ≠ 0): Hall's condition for `assign_winds`.
_WITHIN = [[m for m in range(1, ALL_WINDS + 1) if m & ~s == 0] for s in range(ALL_WINDS + 1)]


def _fits(left: list[int], room: list[int]) -> bool:
    """Whether players still to place (`left[m]`: how many have mask m) can each get a wind of
    their mask with `room[w]` seats left at wind w (Hall's theorem over the 15 sets of winds)."""
    for s in range(1, ALL_WINDS + 1):
        need = 0
        for m in _WITHIN[s]:
            need += left[m]
        seats = 0
        for w in range(WINDS):
            if s >> w & 1:
                seats += room[w]
        if need > seats:
            return False
    return True


def assign_winds(masks: Sequence[int], tables: int) -> list[int] | None:
    """A wind for each player (given in standings order by their `allowed_winds` masks), each
    wind exactly `tables` times, every player at a wind of their mask; None when no such
    assignment exists (Hall's theorem: some set of winds is wanted by more players than it
    has seats). Down the standings each player takes, of their winds that still leave the
    players below a way (`_fits`), the one given least so far (ties: E, S, W, N): the k-th
    players of the four winds then stand near each other, so that tables of the k-th of each
    wind are narrow. When every player is allowed one wind only there is no choice: a seating
    that gives each their wind exists if and only if each wind is owed by `tables` players."""
    left = [0] * (ALL_WINDS + 1)
    for mask in masks:
        left[mask] += 1
    room = [tables] * WINDS
    if len(masks) != WINDS * tables or left[0] or not _fits(left, room):
        return None
    given = [0] * WINDS
    winds = []
    for mask in masks:
        left[mask] -= 1
        choices = [w for w in range(WINDS) if mask >> w & 1 and room[w]]
        choices.sort(key=lambda w: given[w])
        for w in choices:
            room[w] -= 1
            if len(choices) == 1 or _fits(left, room):
                break
            room[w] += 1
        else:  # unreachable: the Hall condition held before this player
            return None
        given[w] += 1
        winds.append(w)
    return winds
