"""Balanced seating for a whole tournament: fewest repeat meetings, keep-apart, exact winds.

Imports nothing from Django. The plan is a tabu search over swaps of two players of one session
(the classic approach to the "social golfer" problem), started from a finite-field design where
one exists (designs.py) and from a greedy seating otherwise. Winds are then assigned by
winds.balance_winds, so the search only has to care about who sits with whom. After played
sessions that is not enough: the tables decide whether the winds can still come out even, so
when they do not, a second search starts from the winds each player owes (owed_winds.py) and
only trades players of the same wind; its plan is kept when it repeats no more.

The search is deterministic for a seed: it stops at the lower bound or after a step limit; the
time budget is a safety net that only cuts very large plans short, and then the best seating
found so far is returned with its figures.
"""

import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from math import comb

from seating.algorithms.designs import found_rounds, zero_repeat_rounds
from seating.algorithms.draw import table_sizes
from seating.algorithms.owed_winds import owed_winds, wind_sessions
from seating.algorithms.quality import Quality, quality
from seating.algorithms.winds import balance_winds, wind_counts

REPEAT = 2  # cost of one more meeting of a pair that already met once (grows with each meeting)
CLASH = 3  # two players of one club/country/team at a table
INCOMPLETE = 6  # a second turn at a three-player or awarded table (a third costs 3×, …)
STEPS = 20000  # the search's step limit: stops it the same way on any machine
SAMPLE = 12  # conflicted players tried per step: keeps a step cheap when there are many
PATIENCE = 6000  # steps without a new best after which the search gives up where it is
# After the locked search, a second one from its best also tries `_flip` for FLIP_SHARE of its
# conflicted players (a flip prices four swaps), and gives up after FLIP_PATIENCE steps
# without a new best. Issue 36: 20 players, sessions 3-4 after two of the design, seeds 0-3:
# the locked search alone 2, 2, 1, 1 extra meetings; with flips 0, 1, 0, 1.
FLIP_SHARE = 0.25
FLIP_PATIENCE = 1000


@dataclass(frozen=True)
class Price:
    """What a plan gave for even winds: against the plan of fewest repeats found first, the
    extra meetings and keep-apart clashes it added, and how much lower its worst wind
    imbalance is."""

    extra_meetings: int
    clashes: int
    imbalance: int


@dataclass
class Plan:
    rounds: list  # the planned sessions only: tables of player ids in wind order
    quality: Quality  # over the fixed sessions and the plan together
    seconds: float
    steps: int
    source: str  # "design", "search" or "design+search"
    price: Price | None = None  # what even winds cost, when the plan traded repeats for them


def pair_floor(players: int, meetings: int) -> int:
    """Least Σ C(m, 2) over pairs when `meetings` pair-meetings are spread over all pairs."""
    pairs = comb(players, 2)
    if not pairs:
        return 0
    each, rest = divmod(meetings, pairs)
    return rest * comb(each + 1, 2) + (pairs - rest) * comb(each, 2)


class _Search:
    """The state of one search: players are numbers 0..n−1, rounds lists of tables of numbers."""

    def __init__(self, n, rounds, base_meetings, groups, base_incomplete, rng):
        self.n = n
        self.rng = rng
        self.groups = groups  # group number per player, or −1
        self.use_groups = any(g >= 0 for g in groups)
        self.base = base_meetings
        self.base_incomplete = base_incomplete
        self.locked = False  # True: a player only trades places with the same seat (wind)
        self.flips = False  # True (locked only): `_flip` moves too
        self.load(rounds)

    def load(self, rounds):
        """Start over from these rounds (copied): meetings are recounted from the fixed ones."""
        n = self.n
        self.rounds = rounds = [[t[:] for t in tables] for tables in rounds]
        self.M = [row[:] for row in self.base]
        self.inc = self.base_incomplete[:]
        self.pos = []
        self.game = []
        for tables in rounds:
            where = [0] * n
            for t, table in enumerate(tables):
                for p in table:
                    where[p] = t
            self.pos.append(where)
            self.game.append([len(t) >= 3 for t in tables])
            self._account(tables, +1)
        self.cost = self.full_cost()

    def _account(self, tables, sign):
        M = self.M
        for table in tables:
            if len(table) >= 3:
                for i, a in enumerate(table):
                    for b in table[i + 1 :]:
                        M[a][b] += sign
                        M[b][a] += sign
            if len(table) < 4:
                for p in table:
                    self.inc[p] += sign

    def full_cost(self):
        M, n = self.M, self.n
        pairs = sum(comb(M[a][b], 2) for a in range(n) for b in range(a + 1, n))
        clash = 0
        if self.use_groups:
            g = self.groups
            for tables in self.rounds:
                for table in tables:
                    if len(table) >= 3:
                        for i, a in enumerate(table):
                            for b in table[i + 1 :]:
                                clash += g[a] >= 0 and g[a] == g[b]
        incomplete = sum(comb(c, 2) for c in self.inc)
        return REPEAT * pairs + CLASH * clash + INCOMPLETE * incomplete

    def conflicted(self, r):
        """Players of round r who meet someone again, sit with a keep-apart mate, or sit at a
        second incomplete table: the only ones whose moves can help."""
        M, g, use_groups = self.M, self.groups, self.use_groups
        found = []
        for table in self.rounds[r]:
            if len(table) < 4:
                found.extend(p for p in table if self.inc[p] > 1)
                if len(table) < 3:
                    continue
            for a in table:
                Ma = M[a]
                ga = g[a]
                for b in table:
                    if b != a and (Ma[b] > 1 or (use_groups and ga >= 0 and ga == g[b])):
                        found.append(a)
                        break
        return found

    def delta(self, r, a, b):
        tables, where, game = self.rounds[r], self.pos[r], self.game[r]
        A, B = where[a], where[b]
        ta, tb = tables[A], tables[B]
        Ma, Mb = self.M[a], self.M[b]
        d = 0
        if game[A]:
            for x in ta:
                if x != a:
                    d += Mb[x] - Ma[x] + 1
        if game[B]:
            for y in tb:
                if y != b:
                    d += Ma[y] - Mb[y] + 1
        d *= REPEAT
        if self.use_groups:
            g = self.groups
            ga, gb = g[a], g[b]
            if ga != gb:
                c = 0
                if game[A]:
                    for x in ta:
                        if x != a:
                            c += (gb >= 0 and g[x] == gb) - (ga >= 0 and g[x] == ga)
                if game[B]:
                    for y in tb:
                        if y != b:
                            c += (ga >= 0 and g[y] == ga) - (gb >= 0 and g[y] == gb)
                d += CLASH * c
        small_a, small_b = len(ta) < 4, len(tb) < 4
        if small_a != small_b:
            inc = self.inc
            step = 1 if small_b else -1  # a goes to the small table, b leaves it, or vice versa

            def extra(c):  # grows faster than the turns: two turns each beat three for one
                return c * (c - 1) // 2

            d += INCOMPLETE * (
                extra(inc[a] + step) - extra(inc[a]) + extra(inc[b] - step) - extra(inc[b])
            )
        return d

    def swap(self, r, a, b, d):
        tables, where, game = self.rounds[r], self.pos[r], self.game[r]
        A, B = where[a], where[b]
        ta, tb = tables[A], tables[B]
        M = self.M
        if game[A]:
            for x in ta:
                if x != a:
                    M[a][x] -= 1
                    M[x][a] -= 1
                    M[b][x] += 1
                    M[x][b] += 1
        if game[B]:
            for y in tb:
                if y != b:
                    M[b][y] -= 1
                    M[y][b] -= 1
                    M[a][y] += 1
                    M[y][a] += 1
        if (len(ta) < 4) != (len(tb) < 4):
            step = 1 if len(tb) < 4 else -1
            self.inc[a] += step
            self.inc[b] -= step
        ta[ta.index(a)] = b
        tb[tb.index(b)] = a
        where[a], where[b] = B, A
        self.cost += d


def _greedy_round(n, sizes, M, rng):
    """One session seated greedily: each seat goes to the player who has met the table least."""
    left = list(range(n))
    rng.shuffle(left)
    tables = []
    for size in sizes:
        table = [left.pop()]
        while len(table) < size:
            best = min(range(len(left)), key=lambda i: sum(M[left[i]][x] for x in table))
            table.append(left.pop(best))
        tables.append(table)
    return tables


def _count(meet, tables):
    for table in tables:
        if len(table) >= 3:
            for a in table:
                for b in table:
                    if a != b:
                        meet[a][b] += 1


def _relabel(rounds, n, groups):
    """Give the design's points to players so that keep-apart mates meet as little as possible:
    swapping two players' places keeps the design, so no meeting is repeated."""
    mates = [[] for _ in range(n)]
    for tables in rounds:
        for table in tables:
            for a in table:
                mates[a].extend(b for b in table if b != a)
    point = list(range(n))  # point[player]
    holder = list(range(n))  # holder[point]

    def same(p, g):
        return sum(1 for q in mates[p] if g >= 0 and groups[holder[q]] == g)

    improved = True
    while improved:
        improved = False
        for a in range(n):
            ga = groups[a]
            if ga < 0 or not same(point[a], ga):
                continue
            for b in range(n):
                gb = groups[b]
                if gb == ga:
                    continue
                pa, pb = point[a], point[b]
                before = same(pa, ga) + same(pb, gb)
                holder[pa], holder[pb] = b, a
                point[a], point[b] = pb, pa
                after = same(pb, ga) + same(pa, gb)
                if after < before:
                    improved = True
                    break
                holder[pa], holder[pb] = a, b
                point[a], point[b] = pa, pb
    return [[[holder[p] for p in t] for t in tables] for tables in rounds]


def balanced_plan(
    players: list,
    sessions: int,
    *,
    fixed: list | tuple = (),
    seed: int = 0,
    keep_apart: dict | None = None,
    three_player: bool = False,
    budget: float = 10.0,
    max_steps: int | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> Plan:
    """Seat `players` for `sessions` more sessions after the `fixed` (already played) ones.

    Every player sits every session. Riichi needs a multiple of four players (DrawError
    otherwise, from table_sizes); Sichuan plays three-handed or awards, as the draw does.
    `progress(step, cost)` is called now and then, for a page to show the search moving.
    """
    started = time.perf_counter()
    rng = random.Random(seed)
    ids = sorted(players)
    n = len(ids)
    index = {p: i for i, p in enumerate(ids)}
    sizes = table_sizes(n, three_player)
    keep_apart = keep_apart or {}
    values = {v: i for i, v in enumerate(sorted({keep_apart.get(p) or "" for p in ids} - {""}))}
    groups = [values.get(keep_apart.get(p) or "", -1) for p in ids]

    base = [[0] * n for _ in range(n)]
    base_incomplete = [0] * n
    for tables in fixed:
        for table in tables:
            seated = [index[p] for p in table if p in index]
            if len(table) >= 3:
                for a in seated:
                    for b in seated:
                        if a != b:
                            base[a][b] += 1
            if len(table) < 4:
                for a in seated:
                    base_incomplete[a] += 1

    design = found = ()
    if not fixed and sizes == [4] * (n // 4):
        # a whole plan stored for exactly this size (issue 36: 24 × 8, 20 × 7), else the design
        found = found_rounds(n, sessions)
        design = found or zero_repeat_rounds(n)
    source = "search"
    rounds = []
    if design:
        order = list(range(n))
        rng.shuffle(order)  # which player takes which point of the design: by the seed
        used = design[: min(sessions, len(design))]
        rounds = [[[order[p] for p in t] for t in tables] for tables in used]
        if any(g >= 0 for g in groups):
            rounds = _relabel(rounds, n, groups)
        source = "design"
    meet = [row[:] for row in base]
    for tables in rounds:
        _count(meet, tables)
    while len(rounds) < sessions:
        tables = _greedy_round(n, sizes, meet, rng)
        _count(meet, tables)
        rounds.append(tables)

    search = _Search(n, rounds, base, groups, base_incomplete, rng)
    meetings_total = sum(comb(len(t), 2) for tables in rounds for t in tables if len(t) >= 3)
    target = REPEAT * pair_floor(n, meetings_total) if not fixed else 0
    if found and not search.use_groups:
        target = search.cost  # the stored plan is the best found offline: no search to repeat
    steps = _tabu(search, target, started, budget, max_steps, progress)
    if source == "design" and steps:
        source = "design+search"

    price = None
    fixed = [list(map(list, r)) for r in fixed]
    planned = [[[ids[p] for p in t] for t in tables] for tables in search.rounds]
    all_rounds = balance_winds(fixed + planned, fixed=len(fixed))
    q = quality(all_rounds, keep_apart, fixed=len(fixed))
    if fixed and sizes == [4] * (n // 4) and q.worst_imbalance > q.bounds["worst_imbalance"].value:
        # The tables found leave someone's winds uneven that could still come out even. Fix
        # the winds first and search again among tables of one player per wind; keep that
        # plan if it has no more repeats, clashes or second incomplete turns.
        other, more = _owed_plan(search, ids, fixed, sessions, started, budget, max_steps, progress)
        steps += more
        if other is not None:
            q_other = quality(other[0], keep_apart, fixed=len(fixed))
            # even winds first, as Swiss seating keeps them (issue 36): the price, the extra
            # meetings the plain search did not need, is kept with the plan for the page
            if (q_other.worst_imbalance, other[1], _squares(q_other)) < (
                q.worst_imbalance,
                search.cost,
                _squares(q),
            ):
                price = Price(
                    extra_meetings=q_other.extra_meetings - q.extra_meetings,
                    clashes=q_other.clashes - q.clashes,
                    imbalance=q.worst_imbalance - q_other.worst_imbalance,
                )
                if price.extra_meetings <= 0 and price.clashes <= 0:
                    price = None  # better winds at no cost: nothing was traded
                all_rounds, q = other[0], q_other
    return Plan(
        rounds=all_rounds[len(fixed) :],
        quality=q,
        seconds=time.perf_counter() - started,
        steps=steps,
        source=source,
        price=price,
    )


def _squares(q: Quality) -> int:
    return sum(c * c for counts in q.wind_counts.values() for c in counts)


def _owed_plan(search, ids, fixed, sessions, started, budget, max_steps, progress):
    """The plan again, from the winds each player owes (owed_winds.py): every planned table
    seats one player per wind, and the search only trades players of the same wind between
    tables, so the winds stay as even as the played sessions allow. Returns ((all rounds,
    meeting cost), steps), or (None, 0) when the time budget is already spent."""
    if time.perf_counter() - started > budget:
        return None, 0
    n = len(ids)
    played = wind_counts(fixed)
    before = [list(played.get(p, (0,) * 4)) for p in ids]
    winds = wind_sessions(owed_winds(before, sessions, n // 4), sessions)
    rng = search.rng
    rounds = []
    for session in winds:
        by_wind = [[p for p in range(n) if session[p] == w] for w in range(4)]
        for seats in by_wind:
            rng.shuffle(seats)
        rounds.append([list(table) for table in zip(*by_wind, strict=True)])
    again = _Search(n, rounds, search.base, search.groups, search.base_incomplete, rng)
    again.locked = True
    steps = _tabu(again, 0, started, budget, max_steps, progress)
    if again.cost > 0:
        # then from its best, also changing which of their owed winds players sit in which
        # session (`_flip`): the split wind_sessions made is only one of many
        kept, cost = [[t[:] for t in tables] for tables in again.rounds], again.cost
        again.flips = True
        steps += _tabu(again, 0, started, budget, max_steps, progress, FLIP_PATIENCE)
        if again.cost >= cost:  # no gain: the plan stays as the locked search left it
            again.load(kept)
    planned = [[[ids[p] for p in t] for t in tables] for tables in again.rounds]
    # the seats are the winds already; winds.py may still find a worst imbalance lower
    seated = balance_winds(fixed + planned, fixed=len(fixed))
    as_planned = fixed + planned
    best = min(
        (seated, as_planned),
        key=lambda r: (quality(r, fixed=len(fixed)).worst_imbalance, _squares(quality(r))),
    )
    return (best, again.cost), steps


def _flip(search: _Search, r: int, r2: int, a: int, b: int) -> int:
    """a and b change seats in sessions r and r2 both, where a sits the wind b sits in the
    other: each keeps the winds they sit over the plan, each table one player per wind.
    Its own inverse. Returns the cost change."""
    before = search.cost
    for s in (r, r2):
        where = search.pos[s]
        if where[a] == where[b]:  # one table: only the winds change, not who meets whom
            table = search.rounds[s][where[a]]
            i, j = table.index(a), table.index(b)
            table[i], table[j] = b, a
        else:
            search.swap(s, a, b, search.delta(s, a, b))
    return search.cost - before


def _flips(search: _Search, r: int, a: int) -> list[tuple[int, int, int]]:
    """(r2, b, cost change) for every `_flip` of a in session r with another session r2."""
    rounds, found = search.rounds, []
    seat = rounds[r][search.pos[r][a]].index(a)
    for r2 in range(len(rounds)):
        if r2 == r:
            continue
        seat2 = rounds[r2][search.pos[r2][a]].index(a)
        if seat2 == seat:
            continue
        for table in rounds[r]:
            b = table[seat2] if len(table) > seat2 else None
            if b is None or rounds[r2][search.pos[r2][b]].index(b) != seat:
                continue
            d = _flip(search, r, r2, a, b)
            _flip(search, r, r2, a, b)
            found.append((r2, b, d))
    return found


def _tabu(
    search: _Search, target, started, budget, max_steps, progress, patience: int = PATIENCE
) -> int:
    """Tabu search: in a session with conflicts, make the best swap of a conflicted player
    that is not tabu (or that beats the best ever); players just moved may not go back to
    their table for a few steps. Restart from the best seating when stuck."""
    n, rng = search.n, search.rng
    rounds = search.rounds
    if not rounds or n < 2:
        return 0
    limit = max_steps if max_steps is not None else STEPS
    best_cost = search.cost
    best = [[t[:] for t in tables] for tables in rounds]
    tabu = {}
    stuck = 0
    step = 0
    last_best = 0
    while step < limit and search.cost > target and step - last_best < patience:
        step += 1
        if step % 64 == 0:
            if time.perf_counter() - started > budget:
                break
            if progress:
                progress(step, best_cost)
        candidates = [r for r in range(len(rounds))]
        rng.shuffle(candidates)
        r, conflicted = None, ()
        for r in candidates:
            conflicted = search.conflicted(r)
            if conflicted:
                break
        if not conflicted:
            break
        if len(conflicted) > SAMPLE:
            conflicted = rng.sample(conflicted, SAMPLE)
        where = search.pos[r]
        move, move_delta = None, None
        for a in conflicted:
            A = where[a]
            if search.locked:  # the same seat at every other table: the same wind
                seat = rounds[r][A].index(a)
                others = [t[seat] for t in rounds[r] if t is not rounds[r][A]]
            else:
                others = range(n)
            for b in others:
                B = where[b]
                if B == A:
                    continue
                d = search.delta(r, a, b)
                if move_delta is not None and d > move_delta:
                    continue
                if (tabu.get((r, a, B), 0) > step or tabu.get((r, b, A), 0) > step) and (
                    search.cost + d >= best_cost
                ):
                    continue
                if move_delta is None or d < move_delta or rng.random() < 0.5:
                    move, move_delta = (a, b), d
            if search.flips and rng.random() < FLIP_SHARE:
                for r2, b, d in _flips(search, r, a):
                    if move_delta is not None and d > move_delta:
                        continue
                    if tabu.get((r, a, where[b]), 0) > step and search.cost + d >= best_cost:
                        continue
                    if move_delta is None or d < move_delta or rng.random() < 0.5:
                        move, move_delta = (a, b, r2), d
        if move is None:
            continue
        a, b = move[:2]
        A, B = where[a], where[b]
        if len(move) == 3:
            _flip(search, r, move[2], a, b)
        else:
            search.swap(r, a, b, move_delta)
        tenure = 5 + rng.randrange(10)
        tabu[(r, a, A)] = step + tenure
        tabu[(r, b, B)] = step + tenure
        if search.cost < best_cost:
            best_cost = search.cost
            best = [[t[:] for t in tables] for tables in rounds]
            stuck = 0
            last_best = step
        else:
            stuck += 1
            if stuck > 200 + 10 * n:
                # restart from the best seating, shaken by a few random swaps
                search.load(best)
                rounds = search.rounds
                for _ in range(2 + n // 16):
                    r = rng.randrange(len(rounds))
                    a, b = rng.sample(range(n), 2)
                    if search.locked:  # b: whoever has a's seat at b's table
                        b = rounds[r][search.pos[r][b]][rounds[r][search.pos[r][a]].index(a)]
                    if search.pos[r][a] != search.pos[r][b]:
                        search.swap(r, a, b, search.delta(r, a, b))
                stuck = 0
                tabu.clear()
    if search.cost > best_cost:
        search.load(best)
    return step
