"""The local search behind Swiss seating (seating.algorithms.swiss). Imports nothing from Django.

`search` takes the costs of `swiss._Costs` (players are standings indices, 0 = leader) and the
table sizes, and returns the tables. Deterministic for a seed; it stops on step counts only.

1. A greedy start: tables filled down the standings, each player joining the first table that
   takes them without a repeat, clash, second short seat or wind miss (`_greedy`); or the
   caller's `start`, when that costs less (swiss: a seating that suits everyone's winds).
2. A descent (`Seating.descend`): for every player at a table that changed, the best swap with
   a player near that table's others; for a player in conflict, or at the end of a wide table,
   the best three-way rotation. Each move is priced from the moved players alone
   (`Seating.change`): their pair costs against the table (kept per player and table), the
   wind term by the delta of the table's base-5 key, the table's spread and short seats. A
   move that cannot gain is dropped before it is priced whole: a table's cost is never below
   its spread and the entering player's pairs there (`Seating.floor`), and its wind term never
   below 0. The dropping changes only the time: the same moves are made.
3. Wind misses left are passed from table to table until they meet their opposite (`chains`).
4. Kicks (iterated local search): two random swaps, mostly of players in conflict or at costly
   tables, then a descent that may not put them straight back; kept only if the total fell.
   The search stops after a number of kicks in a row without a gain (see PATIENCE_PER_PLAYER),
   never on the clock; `deadline` is only the caller's safety cap.
5. When every table must seat one player of each wind (the last session of an even plan), one
   wind's players at a time are re-seated as a cheapest assignment to the tables (`_by_kind`).

Figures: benchmarks/swiss_sim.py, 8 sessions, docs/development/benchmarks.md "Swiss seating".
"""

import math
import time
from bisect import bisect_left, bisect_right
from collections import deque
from collections.abc import Callable

# The constants were chosen on benchmarks/swiss_sim.py's tournaments (8 sessions, 32 and 48
# players, seeds 1–12): each session's search against the annealing it replaced, on the same
# input (mean cost per session, a repeat costing 1000–1500), and the time it took.
#
# Windows, in standings places. A swap brings in a player at most CALM_WINDOW places beyond
# the range of the table's others (SWAP_WINDOW for a player in conflict, who may have to go
# further to meet someone new). A rotation moves its player at most ROTATE_WINDOW places and
# brings in a player at most ROTATE_REACH beyond the table's others. Wider windows (16 and 6
# for the swaps, 8 for the reach) were slower without a lower cost.
SWAP_WINDOW = 8
CALM_WINDOW = 5
ROTATE_WINDOW = 8
ROTATE_REACH = 4
# A table is wide when its cost is at least WIDE times the mean; the players at its two ends
# also try rotations, for a swap alone cannot pull a straggler in: someone must take his place.
WIDE = 1.5
# Kicks in a row without a gain before the search stops. While someone is in conflict:
# PATIENCE_PER_PLAYER per player, at least PATIENCE_FLOOR. Once nobody is: CALM_PER_PLAYER per
# player, at least CALM_FLOOR, but only one per CALM_SLACK of cost above the narrowest spreads
# the tables could have (and at least CALM_MIN), so that an early session already near its
# best stops at once. More kicks help little for their time: at 48 players, twice the calm
# patience lowered the mean cost per session by 23 and took 30 % longer.
PATIENCE_PER_PLAYER, PATIENCE_FLOOR = 0.33, 16
CALM_PER_PLAYER, CALM_FLOOR = 0.25, 10
CALM_SLACK, CALM_MIN = 50.0, 4
KICK_CAP = 100_000  # kicks at most: a step-count cap; the benchmark's searches stop before 400
KICK_MOVES = 2  # random swaps per kick: with one, the search did worse in the same time
KICK_HOT = 0.5  # share of a kick's players taken from those in conflict, when there are any
MOVE_SCALE = 6.0  # typical standings distance between the two players of a kick's swap
CHAIN_STEPS = 12  # tables a wind miss is passed on through, at most
GREEDY_LOOKAHEAD = 16  # players the greedy start looks ahead for one without a conflict
KIND_ROUNDS = 3  # rounds of re-seating wind by wind, at most (each wind once a round)
EPSILON = 1e-9  # gains smaller than this are rounding


def search(
    costs, sizes: list[int], rng, deadline: float, start: list[list[int]] | None = None
) -> list[list[int]]:
    """The tables (standings indices) that the stages of the module docstring find; from
    `start` (tables of the given sizes) instead of the greedy start when that costs less."""
    seating = Seating(costs, _greedy(costs, sizes))
    if start is not None:
        given = Seating(costs, start)
        if given.total < seating.total:
            seating = given
    tables = len(sizes)
    if tables < 2:
        return seating.groups
    seating.descend(list(range(tables)))
    seating.descend(seating.chains())
    regrouped = _by_kind(costs, seating.groups)
    if regrouped is not None:
        seating = Seating(costs, regrouped)
        seating.descend(list(range(tables)))
    seating.log.clear()
    best = seating.total
    kept = [g[:] for g in seating.groups]
    n, allowed = costs.n, costs.allowed
    patience = max(PATIENCE_FLOOR, int(PATIENCE_PER_PLAYER * n))
    calm = max(CALM_FLOOR, int(CALM_PER_PLAYER * n))
    # ... and fewer when the seating is already near the tightest possible
    floor = sum(costs.spread[len(g) - 1] for g in seating.groups if len(g) >= 3)
    calm = min(calm, max(CALM_MIN, int((best - floor) / CALM_SLACK)))
    idle = kicks = 0
    while kicks < KICK_CAP and time.perf_counter() <= deadline:
        hot = seating.hot()
        if idle >= (patience if hot else calm):
            break
        kicks += 1
        idle += 1
        dirty, tabu = [], set()
        for _ in range(KICK_MOVES):
            if hot and rng.random() < KICK_HOT:
                a = hot[int(rng.random() * len(hot))]
            else:
                a = _costly(seating, rng)
            u = rng.random()
            distance = 1 + int(-MOVE_SCALE * math.log(1.0 - abs(2 * u - 1) + 1e-12))
            step = 1 if u < 0.5 else -1
            b = a + step * distance
            while 0 <= b < n and not allowed[a] & allowed[b]:
                b += step  # the nearest from there on who may sit one of a's winds
            if not 0 <= b < n:
                continue
            ta, tb = seating.table_of[a], seating.table_of[b]
            if ta == tb:
                continue
            seating.put(ta, a, b)
            seating.put(tb, b, a)
            dirty += [ta, tb]
            tabu |= {(a, ta), (b, tb)}  # the descent may not simply put them back
        seating.descend(sorted(set(dirty)), tabu)
        if seating.total < best - EPSILON:
            best, idle = seating.total, 0
            seating.log.clear()
            kept = [g[:] for g in seating.groups]
        else:
            seating.undo()
    final = Seating(costs, kept)
    touched = final.chains()
    if touched:
        final.descend(touched)
        kept = [g[:] for g in final.groups]
    return _by_kind(costs, kept) or kept


def _costly(seating: "Seating", rng) -> int:
    """A player at a table drawn in proportion to the table's cost."""
    left, chosen = rng.random() * seating.total, len(seating.cost) - 1
    for t, cost in enumerate(seating.cost):
        left -= cost
        if left < 0:
            chosen = t
            break
    group = seating.groups[chosen]
    return group[int(rng.random() * len(group))]


def _greedy(costs, sizes: list[int]) -> list[list[int]]:
    """Tables filled in standings order, each with the best-placed players still unseated that
    it can take without a conflict or a worse wind term (looking GREEDY_LOOKAHEAD players
    ahead), then with the best-placed whom the allowed winds suit, then with the best-placed."""
    n, pair, again = costs.n, costs.pair, costs.again
    unseated = list(range(n))
    groups = []
    for size in sizes:
        four = size == 4
        table: list[int] = []
        for p in unseated[:GREEDY_LOOKAHEAD]:
            if len(table) == size:
                break
            if size < 4 and again[p]:
                continue
            row = pair[p]
            if any(row[m] for m in table):
                continue
            if size >= 3 and costs.w_miss and costs.wind(table + [p], four) >= costs.w_miss:
                continue
            if size >= 3 and costs.wind(table + [p], four) > costs.wind(table, four):
                continue  # nor one the winds suit less (the winds sat least, or allowed)
            table.append(p)
        if size >= 3 and costs.w_miss:
            for p in unseated:
                if len(table) == size:
                    break
                if p not in table and costs.wind(table + [p], four) < costs.w_miss:
                    table.append(p)
        for p in unseated:
            if len(table) == size:
                break
            if p not in table:
                table.append(p)
        taken = set(table)
        unseated = [p for p in unseated if p not in taken]
        groups.append(table)
    return groups


class Seating:
    """Tables of standings indices with each table's cost, kept up to date move by move.

    The one move is `put(t, out, into)`: player `into` takes `out`'s seat at table t. A swap is
    two of them, a rotation three. Its cost change (`change`) touches only table t: the pairs
    of the two players against t's other members (`toward[t][p]` holds p's pair costs
    against t's members), the wind term by the base-5 key's delta, t's spread and short seats.
    """

    def __init__(self, costs, groups: list[list[int]]):
        self.costs = costs
        n, tables = costs.n, len(groups)
        self.groups = [list(g) for g in groups]
        self.table_of = [0] * n
        for t, group in enumerate(groups):
            for i in group:
                self.table_of[i] = t
        self.game = [len(g) >= 3 for g in groups]
        self.short = [len(g) < 4 for g in groups]
        self.keys = [costs.key4 if len(g) == 4 else costs.key3 for g in groups]
        self.toward = [[0.0] * n for _ in range(tables)]
        for x in range(n):
            toward = self.toward[self.table_of[x]]
            for y, weight in costs.near[x]:
                toward[y] += weight
        self.key = [0] * tables
        self.wind = [0.0] * tables
        self.ends = [(0, 0, 0, 0)] * tables
        self.cost = [0.0] * tables
        for t in range(tables):
            self._refresh(t)
        self.total = sum(self.cost)
        # the cost no seating of a table's size avoids: its narrowest spread
        least = [costs.spread[len(g) - 1] if len(g) >= 3 else 0.0 for g in groups]
        # how far each table's cost is above that: the most a move can lower it
        self.slack = [cost - floor for cost, floor in zip(self.cost, least, strict=True)]
        self.log: list[tuple[int, int, int, float]] = []
        self.change = self._changes()
        self.floor = self._floors()

    def _changes(self) -> Callable[[int, int, int], float]:
        """change(t, out, into): how much table t's cost changes when `into` takes `out`'s
        seat. A closure over the state's lists (changed in place, never replaced): the search
        calls it a hundred thousand times a second."""
        costs, game, short = self.costs, self.game, self.short
        toward, keys, key, wind, ends = self.toward, self.keys, self.key, self.wind, self.ends
        pair, winds, spread, pull = costs.pair, costs.winds, costs.spread, costs.short
        wind_after = self.wind_after

        def change(t: int, out: int, into: int) -> float:
            delta = 0.0
            if game[t]:
                at = toward[t]
                delta = at[into] - pair[into][out] - at[out]
                k = keys[t]
                cost = winds.get(key[t] - k[out] + k[into])
                if cost is None:
                    cost = wind_after(t, out, into)
                delta += cost - wind[t]
                lo1, lo2, hi2, hi1 = ends[t]
                lo = lo2 if out == lo1 else lo1
                hi = hi2 if out == hi1 else hi1
                if into < lo:
                    lo = into
                elif into > hi:
                    hi = into
                delta += spread[hi - lo] - spread[hi1 - lo1]
            if short[t]:
                delta += pull[into] - pull[out]
            return delta

        return change

    def _floors(self) -> Callable[[int, int, int], float]:
        """floor(t, out, into): the least that table t can cost once `into` takes `out`'s
        seat: `into`'s pairs against the others and t's spread (its wind term and short seats
        are not negative). Lets the search drop a move before pricing it whole."""
        game, ends, toward, pair, spread = (
            self.game,
            self.ends,
            self.toward,
            self.costs.pair,
            self.costs.spread,
        )

        def floor(t: int, out: int, into: int) -> float:
            if not game[t]:
                return 0.0
            lo1, lo2, hi2, hi1 = ends[t]
            lo = lo2 if out == lo1 else lo1
            hi = hi2 if out == hi1 else hi1
            span = (hi if hi > into else into) - (lo if lo < into else into)
            return toward[t][into] - pair[into][out] + spread[span]

        return floor

    def wind_after(self, t: int, out: int, into: int) -> float:
        """Table t's wind term once `into` takes `out`'s seat (for a key not yet remembered)."""
        members = [into if x == out else x for x in self.groups[t]]
        return self.costs.wind(members, len(members) == 4)

    def _leaving(self, t: int, a: int) -> tuple[float, int, int, int]:
        """What does not depend on who takes game table t's seat of `a`: the part of the cost
        change that `a` leaving brings, the base-5 key of t's other members, and their lowest
        and highest standings places."""
        lo1, lo2, hi2, hi1 = self.ends[t]
        costs = self.costs
        fixed = -self.toward[t][a] - self.wind[t] - costs.spread[hi1 - lo1]
        if self.short[t]:
            fixed -= costs.short[a]
        lo = lo2 if a == lo1 else lo1
        hi = hi2 if a == hi1 else hi1
        return fixed, self.key[t] - self.keys[t][a], lo, hi

    def _refresh(self, t: int) -> None:
        group, costs = self.groups[t], self.costs
        if self.game[t]:
            keys = self.keys[t]
            self.key[t] = sum(keys[i] for i in group)
            self.wind[t] = costs.wind(group, len(group) == 4)
            ordered = sorted(group)
            self.ends[t] = (ordered[0], ordered[1], ordered[-2], ordered[-1])
        self.cost[t] = costs.table(group, self.short[t])

    def put(self, t: int, out: int, into: int, delta: float | None = None) -> None:
        """`into` takes `out`'s seat at table t (logged, so that `undo` can take it back);
        `delta`, when the caller has priced the move already, is `change(t, out, into)`."""
        if delta is None:
            delta = self.change(t, out, into)
        near = self.costs.near
        group = self.groups[t]
        group[group.index(out)] = into
        toward = self.toward[t]
        for y, weight in near[out]:
            toward[y] -= weight
        for y, weight in near[into]:
            toward[y] += weight
        self.table_of[into] = t
        if self.game[t]:
            keys = self.keys[t]
            self.key[t] += keys[into] - keys[out]
            self.wind[t] = self.costs.winds[self.key[t]]  # change() has just looked it up
            ordered = sorted(group)
            self.ends[t] = (ordered[0], ordered[1], ordered[-2], ordered[-1])
        self.cost[t] += delta
        self.slack[t] += delta
        self.total += delta
        self.log.append((t, out, into, delta))

    def undo(self, mark: int = 0) -> None:
        """Take back the moves logged after the first `mark`, last first."""
        log = self.log
        while len(log) > mark:
            t, out, into, delta = log.pop()
            self.put(t, into, out, -delta)  # exact: every cost is a whole number
            log.pop()

    def chains(self) -> list[int]:
        """Pass each wind miss on from table to table until it meets its opposite.

        A table whose winds cannot suit everyone (a miss) swaps a player with a nearby table so
        that it can; that table may now miss instead, and passes it on in turn, up to
        CHAIN_STEPS tables. The chain is kept as far as it lowered the total most. Each step
        costs only spread, so the search's swaps, which must each gain, cannot make it: a miss
        cured with one long swap would stretch two tables far more than a chain stretches
        many a little. Returns the tables changed."""
        groups, w_miss, wind = self.groups, self.costs.w_miss, self.wind
        touched: set[int] = set()
        if not w_miss:
            return []
        for start in range(len(groups)):
            if not self.game[start] or wind[start] < w_miss:
                continue
            tried = []
            for way in (1, -1):  # pass it down the standings, or up
                mark = len(self.log)
                gain = self._chain(start, way)
                tried.append((gain, way))
                self.undo(mark)
            gain, way = min(tried)
            if gain < -EPSILON:
                mark = len(self.log)
                self._chain(start, way)
                touched.update(move[0] for move in self.log[mark:])
        return sorted(touched)

    def _chain(self, start: int, way: int) -> float:
        """One chain from table `start` (see `chains`), passed on in direction `way`; left
        applied as far as it gained most. Returns that gain (0.0 if none)."""
        costs, groups, table_of, change = self.costs, self.groups, self.table_of, self.change
        n, w_miss, wind, ends = costs.n, costs.w_miss, self.wind, self.ends
        mark = len(self.log)
        kept, kept_gain, gain, visited, cur = mark, 0.0, 0.0, {start}, start
        for _ in range(CHAIN_STEPS):
            lo, hi = ends[cur][0], ends[cur][3]
            if way > 0:
                near = range(lo, min(n, hi + SWAP_WINDOW + 1))
            else:
                near = range(max(0, lo - SWAP_WINDOW), hi + 1)
            best, move = math.inf, None
            keys = self.keys[cur]
            for a in groups[cur]:
                base = self.key[cur] - keys[a]
                for b in near:
                    tb = table_of[b]
                    if tb in visited or not self.game[tb] or (ends[tb][0] - lo) * way < 0:
                        continue
                    cured = costs.winds.get(base + keys[b])
                    if cured is None:
                        cured = self.wind_after(cur, a, b)
                    if cured >= w_miss:
                        continue
                    delta = change(cur, a, b) + change(tb, b, a)
                    if delta < best:
                        best, move = delta, (a, b, tb)
            if move is None:
                break
            a, b, tb = move
            self.put(cur, a, b)
            self.put(tb, b, a)
            gain += best
            visited.add(tb)
            if gain < kept_gain - EPSILON:
                kept, kept_gain = len(self.log), gain
            if wind[tb] < w_miss:
                break
            cur = tb
        self.undo(kept)
        return kept_gain

    def hot(self) -> list[int]:
        """Players in conflict: a repeat or clash at their table, a second short seat, or a
        table whose winds cannot suit everyone."""
        costs = self.costs
        found = []
        for t, group in enumerate(self.groups):
            missed = self.game[t] and costs.w_miss and self.wind[t] >= costs.w_miss
            for a in group:
                if (
                    missed
                    or (self.game[t] and self.toward[t][a])
                    or (self.short[t] and costs.again[a])
                ):
                    found.append(a)
        return found

    def descend(self, dirty: list[int], tabu: frozenset | set = frozenset()) -> None:
        """Best-improvement moves until none lowers the total: for each player at a table that
        changed, the best swap with a player near the table's others (CALM_WINDOW places
        beyond them, SWAP_WINDOW for a player in conflict); for a player in conflict, or at
        either end of a wide table, also the best rotation (`_rotation`)."""
        costs = self.costs
        n, groups, table_of, change, floor = (
            costs.n,
            self.groups,
            self.table_of,
            self.change,
            self.floor,
        )
        cost, game, short, toward, wind = self.cost, self.game, self.short, self.toward, self.wind
        tables, all_keys, slack, same = len(groups), self.keys, self.slack, costs.same
        pair, winds, spread, pull, again, w_miss = (
            costs.pair,
            costs.winds,
            costs.spread,
            costs.short,
            costs.again,
            costs.w_miss,
        )
        queue = deque(dirty)
        queued = [False] * tables
        for t in dirty:
            queued[t] = True
        while queue:
            ta = queue.popleft()
            queued[ta] = False
            for a in list(groups[ta]):
                if table_of[a] != ta:
                    continue
                best, move = -EPSILON, None
                if not game[ta]:
                    hot = short[ta] and again[a] > 0
                    window = SWAP_WINDOW if hot else CALM_WINDOW
                    for b in range(max(0, a - window), min(n, a + window + 1)):
                        tb = table_of[b]
                        if tb == ta:
                            continue
                        here = change(ta, a, b)
                        if here - slack[tb] >= best:
                            continue
                        there = change(tb, b, a)
                        if here + there < best:
                            best, move = here + there, ((ta, a, b, here), (tb, b, a, there))
                else:
                    hot = (
                        toward[ta][a] > 0
                        or (w_miss and wind[ta] >= w_miss)
                        or (short[ta] and again[a] > 0)
                    )
                    window = SWAP_WINDOW if hot else CALM_WINDOW
                    # change(ta, a, b) written out, with what does not depend on b taken out
                    row, keys, at = pair[a], all_keys[ta], toward[ta]
                    fixed, base, lo, hi = self._leaving(ta, a)
                    # whoever takes a's seat should sit near a's table-mates
                    near = _near(same, a, min(lo, a) - window, max(hi, a) + window, n)
                    is_short = short[ta]
                    for b in near:
                        tb = table_of[b]
                        if tb == ta:
                            continue
                        # tb's cost cannot fall below its least spread, nor ta's wind term
                        # below 0: moves that cannot gain are dropped before the wind lookup
                        delta = fixed + at[b] - row[b]
                        stretch = spread[(hi if hi > b else b) - (lo if lo < b else b)]
                        if is_short:
                            stretch += pull[b]
                        if delta + stretch - slack[tb] >= best:
                            continue
                        w = winds.get(base + keys[b])
                        if w is None:
                            w = self.wind_after(ta, a, b)
                        delta += w
                        delta += stretch
                        if delta - slack[tb] >= best:  # e.g. a miss: no need for tb's floor
                            continue
                        if delta + floor(tb, b, a) - cost[tb] >= best:
                            continue
                        there = change(tb, b, a)
                        if delta + there < best and not ((b, ta) in tabu or (a, tb) in tabu):
                            best, move = delta + there, ((ta, a, b, delta), (tb, b, a, there))
                    if move is None and not hot and (a < lo or a > hi):
                        hot = cost[ta] * tables >= WIDE * self.total  # an end of a wide table
                if move is None and hot:
                    move = self._rotation(a, ta)
                if move is None:
                    continue
                for t, out, into, price in move:
                    self.put(t, out, into, price)
                    if not queued[t]:
                        queued[t] = True
                        queue.append(t)

    def _rotation(self, a: int, ta: int):
        """The best rotation moving `a`, if it gains: a takes b's seat (b within ROTATE_WINDOW
        places of a), b takes c's, c takes a's (c near a's table-mates)."""
        costs, table_of, change, floor, cost, slack = (
            self.costs,
            self.table_of,
            self.change,
            self.floor,
            self.cost,
            self.slack,
        )
        n, pair, spread, pull, winds = costs.n, costs.pair, costs.spread, costs.short, costs.winds
        toward, game, row, same = self.toward, self.game, pair[a], costs.same
        near = _near(same, a, a - ROTATE_WINDOW, a + ROTATE_WINDOW, n)
        # c takes a's seat: what that changes at ta, plus the least that b taking c's seat can
        # change at tc (tc's cost cannot fall below its narrowest spread); best first, so that
        # the scan for each b stops as soon as no c can make the rotation gain
        into_a = []
        if game[ta]:  # c near a's table-mates; change(ta, a, c) written out as in `descend`
            fixed, base, lo, hi = self._leaving(ta, a)
            at, keys, is_short = toward[ta], self.keys[ta], self.short[ta]
            for c in _near(same, a, lo - ROTATE_REACH, hi + ROTATE_REACH, n):
                tc = table_of[c]
                if tc == ta:
                    continue
                w = winds.get(base + keys[c])
                if w is None:
                    w = self.wind_after(ta, a, c)
                stretch = spread[(hi if hi > c else c) - (lo if lo < c else c)]
                if is_short:
                    stretch += pull[c]
                third = fixed + at[c] - row[c] + w + stretch
                into_a.append((third - slack[tc], third, c, tc))
        else:
            for c in near:
                tc = table_of[c]
                if tc != ta:
                    third = change(ta, a, c)
                    into_a.append((third - slack[tc], third, c, tc))
        if not into_a:
            return None
        into_a.sort()
        least_third = into_a[0][0]
        best, move = -EPSILON, None
        for b in near:
            tb = table_of[b]
            if tb == ta:
                continue
            if floor(tb, b, a) - cost[tb] + least_third >= best:
                continue
            first = change(tb, b, a)
            for bound, third, c, tc in into_a:
                if first + bound >= best:
                    break
                if tc == tb:
                    continue
                last = change(tc, c, b)
                if first + third + last < best:
                    best = first + third + last
                    move = ((ta, a, c, third), (tb, b, a, first), (tc, c, b, last))
        return move


def _near(same: list | None, a: int, lo: int, hi: int, n: int):
    """The players from place `lo` to `hi` who may take a's seat: all of them, or, with
    `costs.same` set, only those of a's one wind: any other would leave a table missing a wind,
    and the search would refuse that move after pricing it."""
    lo, hi = max(0, lo), min(n - 1, hi)
    if same is None:
        return range(lo, hi + 1)
    ours = same[a]
    return ours[bisect_left(ours, lo) : bisect_right(ours, hi)]


def _assignment(matrix: list[list[float]]) -> list[int]:
    """The columns that rows take in a cheapest perfect matching of a square cost matrix
    (the Hungarian method with potentials, O(k³))."""
    k = len(matrix)
    u, v = [0.0] * (k + 1), [0.0] * (k + 1)
    owner = [0] * (k + 1)  # owner[j]: the row (1-based) holding column j; 0 = free
    way = [0] * (k + 1)
    for i in range(1, k + 1):
        owner[0], j0 = i, 0
        low = [math.inf] * (k + 1)
        used, free = [], list(range(1, k + 1))  # the columns reached, and the others in order
        while True:
            used.append(j0)
            if j0:
                free.remove(j0)
            i0, row, delta, j1 = owner[j0], matrix[owner[j0] - 1], math.inf, 0
            ui = u[i0]
            for j in free:
                cur = row[j - 1] - ui - v[j]
                if cur < low[j]:
                    low[j], way[j] = cur, j0
                if low[j] < delta:
                    delta, j1 = low[j], j
            for j in used:
                u[owner[j]] += delta
                v[j] -= delta
            for j in free:
                low[j] -= delta
            j0 = j1
            if owner[j0] == 0:
                break
        while j0:
            j1 = way[j0]
            owner[j0] = owner[j1]
            j0 = j1
    taken = [0] * k
    for j in range(1, k + 1):
        taken[owner[j] - 1] = j - 1
    return taken


def _by_kind(costs, groups: list[list[int]]) -> list[list[int]] | None:
    """When every table must seat one player of each wind, re-seat one wind's players at a
    time as a cheapest assignment to the tables, the others staying; rounds until none gains.
    None when the session is not of that kind."""
    if not costs.w_miss or any(len(g) != 4 for g in groups):
        return None
    kinds = costs.allowed
    if any(kinds[i].bit_count() != 1 for i in range(costs.n)):
        return None
    if any(sorted(kinds[i] for i in g) != [1, 2, 4, 8] for g in groups):
        return None  # some table misses a wind: the search has not settled it
    groups = [g[:] for g in groups]
    near, spread, key4, winds = costs.near, costs.spread, costs.key4, costs.winds
    table_cost = costs.table
    for _ in range(KIND_ROUNDS):
        gained = False
        for kind in (1, 2, 4, 8):
            seat = [next(i for i in g if kinds[i] == kind) for g in groups]
            # per table, what does not depend on who takes the seat: its other players' ends
            # and base-5 key; a row's pairs come from the entering player's sparse list
            where = {m: t for t, g in enumerate(groups) for m in g if m != seat[t]}
            ends, bases = [], []
            for t, g in enumerate(groups):
                others = [m for m in g if m != seat[t]]
                ends.append((min(others), max(others)))
                bases.append(sum(key4[m] for m in others))
            matrix = []
            for i in seat:
                row = []
                k = key4[i]
                for t, (lo, hi) in enumerate(ends):
                    wind = winds.get(bases[t] + k)
                    if wind is None:
                        others = [m for m in groups[t] if m != seat[t]]
                        wind = costs.wind(others + [i], True)
                    row.append(spread[(hi if hi > i else i) - (lo if lo < i else i)] + wind)
                for m, weight in near[i]:
                    t = where.get(m)
                    if t is not None:
                        row[t] += weight
                matrix.append(row)
            taken = _assignment(matrix)
            before = sum(table_cost(g, False) for g in groups)
            moved = [g[:] for g in groups]
            for r, i in enumerate(seat):
                t = taken[r]
                moved[t] = [i if m == seat[t] else m for m in moved[t]]
            after = sum(table_cost(g, False) for g in moved)
            if after < before - EPSILON:
                groups, gained = moved, True
        if not gained:
            break
    return groups
