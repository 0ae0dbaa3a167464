"""Swiss seating: group players by standings, avoiding repeat meetings. Imports nothing from Django.

The Sichuan rules call it programmed ("Danish") seating: after the first session the top four
of the standings play together, the next four together, and so on — except that players who
already met should not meet again, players sharing a keep-apart value (club, country, team)
should not meet at all, and nobody should sit at a three-player or awarded table twice.

Two stages, both deterministic for a seed. A beam search sweeps down the standings, seating
each player at an open table or opening a new one; it finds tight groupings fast but can strand
the last few players. Seeded simulated annealing over swaps of two players then repairs and
polishes. Step counts scale with the player count, never with the clock.
"""

import heapq
import math
import random
import time
from collections import Counter
from collections.abc import Callable
from itertools import combinations

from seating.algorithms.draw import table_sizes
from seating.algorithms.quality import meetings
from seating.algorithms.winds import seat_winds, wind_counts

W_REPEAT = 1500.0
W_CLASH = 1500.0
W_INCOMPLETE = 5000.0
W_WIND = 100.0
W_LOW = 1.0

BEAM_WIDTH = 200
MAX_OPEN = 6
STEPS_PER_PLAYER = 600
MOVE_SCALE = 6.0
T_START, T_END = 100.0, 0.5
SPREAD_POW = 2.0
FREEDOM = 0.0
CYCLES = 0.0
FPOW = 1

TableCost = Callable[[list, bool], float]


def swiss_round(
    ranking: list,
    history: list,
    *,
    seed: int = 0,
    keep_apart: dict | None = None,
    three_player: bool = False,
    budget: float = 1.0,
) -> list[list]:
    sizes = table_sizes(len(ranking), three_player)
    counts = {p: [0, 0, 0, 0] for p in ranking}
    counts.update({p: list(c) for p, c in wind_counts(history).items() if p in counts})
    model = _Model(ranking, history, keep_apart or {}, counts)
    deadline = time.perf_counter() + budget
    groups = _cut(sizes)
    if any(model.conflict(g) for g in groups):
        if BEAM_WIDTH:
            groups = _sweep(model, sizes, BEAM_WIDTH)
        rng = random.Random(seed)
        groups = _anneal(groups, model.cost, rng, STEPS_PER_PLAYER * len(ranking), deadline)
    tables = [[ranking[i] for i in sorted(g)] for g in _best_first(groups)]
    return seat_winds(tables, counts)


def _cut(sizes: list[int]) -> list[list[int]]:
    groups, start = [], 0
    for size in sizes:
        groups.append(list(range(start, start + size)))
        start += size
    return groups


def _spread_cost(span: int) -> float:
    return float(span) ** SPREAD_POW


def _unmatched(masks: tuple[int, ...]) -> int:
    worst = 0
    for subset in range(1, 1 << len(masks)):
        union = 0
        for k, mask in enumerate(masks):
            if subset >> k & 1:
                union |= mask
        worst = max(worst, subset.bit_count() - union.bit_count())
    return worst


def _wind_mask(seen: list[int]) -> int:
    least = min(seen)
    return sum(1 << w for w, c in enumerate(seen) if c == least)


class _Model:
    def __init__(self, ranking, history, keep_apart, counts):
        n = self.n = len(ranking)
        index = {p: i for i, p in enumerate(ranking)}
        pair = self.pair = [0.0] * (n * n)
        for (a, b), times in meetings(history).items():
            if a in index and b in index:
                i, j = index[a], index[b]
                pair[i * n + j] += W_REPEAT * times
                pair[j * n + i] += W_REPEAT * times
        for a, b in combinations(ranking, 2):
            value = keep_apart.get(a)
            if value and value == keep_apart.get(b):
                i, j = index[a], index[b]
                pair[i * n + j] += W_CLASH
                pair[j * n + i] += W_CLASH
        if FREEDOM:
            unmet = [((1 << n) - 1) & ~(1 << i) for i in range(n)]
            for a, b in meetings(history):
                if a in index and b in index:
                    i, j = index[a], index[b]
                    unmet[i] &= ~(1 << j)
                    unmet[j] &= ~(1 << i)
            k4 = {}
            for i in range(n):
                ui = unmet[i]
                for j in range(i + 1, n):
                    if ui >> j & 1:
                        common = ui & unmet[j]
                        c = 0
                        m = common
                        while m:
                            low_bit = m & -m
                            x = low_bit.bit_length() - 1
                            c += (unmet[x] & common).bit_count()
                            m ^= low_bit
                        k4[i, j] = c // 2
            top = max(k4.values(), default=0) or 1
            mean = sum(k4.values()) / max(1, len(k4)) or 1
            for (i, j), c in k4.items():
                v = FREEDOM * (c / (top if FPOW == 1 else mean))
                pair[i * n + j] += v
                pair[j * n + i] += v
        seats = Counter(
            p for tables in history for table in tables if len(table) < 4 for p in table
        )
        self.penalty = [W_INCOMPLETE * seats[p] for p in ranking]
        self.low = [self.penalty[i] + W_LOW * (n - 1 - i) for i in range(n)]
        self.masks = [_wind_mask(counts[p]) for p in ranking]
        self.wkey = [5**m for m in self.masks]
        self.wkey3 = [5 ** (m & 7) + 5**16 for m in self.masks]
        self.spread = [_spread_cost(s) for s in range(n + 1)]
        self.unmatched: dict = {}

    def wind(self, members, four=None) -> float:
        if four is None:
            four = len(members) >= 4
        keys = self.wkey if four else self.wkey3
        key = 0
        for a in members:
            key += keys[a]
        v = self.unmatched.get(key)
        if v is None:
            full = 15 if four else 7
            v = self.unmatched[key] = W_WIND * _unmatched(
                tuple(self.masks[a] & full for a in members)
            )
        return v

    def conflict(self, members) -> bool:
        n, pair = self.n, self.pair
        if any(pair[a * n + b] for a, b in combinations(members, 2)):
            return True
        if len(members) < 4 and any(self.penalty[a] for a in members):
            return True
        return len(members) >= 3 and self.wind(members) > 0

    def cost(self, members, short) -> float:
        total = 0.0
        n, pair = self.n, self.pair
        if len(members) >= 3:
            for k, a in enumerate(members):
                row = a * n
                for b in members[k + 1 :]:
                    total += pair[row + b]
            total += self.wind(members) + self.spread[max(members) - min(members)]
        if short:
            low = self.low
            for a in members:
                total += low[a]
        return total


def _sweep(model: _Model, sizes: list[int], width: int) -> list[list[int]]:
    n = model.n
    pair, spread, low = model.pair, model.spread, model.low
    # open table: (partial, size, members)
    states = [(0.0, 0, (), None)]
    for pos in range(n):
        left = n - pos - 1
        row = pos * n
        found: dict = {}
        for g, opened, open_, closed in states:
            options = []
            for k, (partial, size, members) in enumerate(open_):
                grown = members + (pos,)
                if len(grown) == size:
                    g2 = g + model.cost(list(grown), size < 4)
                    options.append((g2, opened, open_[:k] + open_[k + 1 :], (grown, closed)))
                else:
                    add = 0.0
                    if size >= 3:
                        for m in members:
                            add += pair[row + m]
                        add += model.wind(grown, size == 4) - model.wind(members, size == 4)
                    if size < 4:
                        add += low[pos]
                    entry = (partial + add, size, grown)
                    options.append((g, opened, open_[:k] + (entry,) + open_[k + 1 :], closed))
            if opened < len(sizes) and len(open_) < MAX_OPEN:
                size = sizes[opened]
                if size == 1:
                    g2 = g + model.cost([pos], True)
                    options.append((g2, opened + 1, open_, ((pos,), closed)))
                else:
                    entry = (low[pos] if size < 4 else 0.0, size, (pos,))
                    options.append((g, opened + 1, open_ + (entry,), closed))
            for g2, opened2, open2, closed2 in options:
                slots = sum(size - len(m) for _, size, m in open2) + sum(sizes[opened2:])
                if slots != left:
                    continue
                f = g2
                for partial, size, members in open2:
                    f += partial
                    if size >= 3:
                        f += spread[pos - members[0]]
                key = (opened2, tuple(m for _, _, m in open2))
                old = found.get(key)
                if old is None or f < old[0]:
                    found[key] = (f, g2, opened2, open2, closed2)
        best = heapq.nsmallest(width, found.values(), key=lambda s: s[0])
        states = [(g, o, op, c) for _, g, o, op, c in best]
    g, _, _, closed = min(states, key=lambda s: s[0])
    groups = []
    while closed is not None:
        groups.append(list(closed[0]))
        closed = closed[1]
    groups.reverse()
    # back into the order of `sizes`, so table t has size sizes[t]
    by_size: dict = {}
    for grp in groups:
        by_size.setdefault(len(grp), []).append(grp)
    return [by_size[s].pop(0) for s in sizes]


def _partner(a, n, rng):
    u = rng.random()
    distance = 1 + int(-MOVE_SCALE * math.log(1.0 - abs(2 * u - 1) + 1e-12))
    b = a + distance if u < 0.5 else a - distance
    return b if 0 <= b < n else -1


def _anneal(groups, cost, rng, steps, deadline):
    n = sum(len(g) for g in groups)
    shorts = [len(g) < 4 for g in groups]
    table_of = [0] * n
    for t, group in enumerate(groups):
        for i in group:
            table_of[i] = t
    costs = [cost(g, s) for g, s in zip(groups, shorts, strict=True)]
    total = sum(costs)
    best, best_total = [g[:] for g in groups], total
    if len(groups) < 2:
        return best
    cooling = (T_END / T_START) ** (1 / max(1, steps))
    temperature = T_START
    for step in range(steps):
        if step & 1023 == 0 and time.perf_counter() > deadline:
            break
        temperature *= cooling
        a = rng.randrange(n)
        b = _partner(a, n, rng)
        if b < 0:
            continue
        ta, tb = table_of[a], table_of[b]
        if ta == tb:
            continue
        if CYCLES and rng.random() < CYCLES:
            c = _partner(b if rng.random() < 0.5 else a, n, rng)
            if c < 0:
                continue
            tc = table_of[c]
            if tc == ta or tc == tb:
                continue
            # a -> tb (replacing b), b -> tc (replacing c), c -> ta (replacing a)
            na = [c if x == a else x for x in groups[ta]]
            nb = [a if x == b else x for x in groups[tb]]
            nc = [b if x == c else x for x in groups[tc]]
            ca, cb, cc = cost(na, shorts[ta]), cost(nb, shorts[tb]), cost(nc, shorts[tc])
            delta = ca + cb + cc - costs[ta] - costs[tb] - costs[tc]
            if delta > 0 and rng.random() >= math.exp(-delta / temperature):
                continue
            groups[ta], groups[tb], groups[tc] = na, nb, nc
            costs[ta], costs[tb], costs[tc] = ca, cb, cc
            table_of[a], table_of[b], table_of[c] = tb, tc, ta
        else:
            na = [b if x == a else x for x in groups[ta]]
            nb = [a if x == b else x for x in groups[tb]]
            ca, cb = cost(na, shorts[ta]), cost(nb, shorts[tb])
            delta = ca + cb - costs[ta] - costs[tb]
            if delta > 0 and rng.random() >= math.exp(-delta / temperature):
                continue
            groups[ta], groups[tb] = na, nb
            costs[ta], costs[tb] = ca, cb
            table_of[a], table_of[b] = tb, ta
        total += delta
        if total < best_total - 1e-9:
            best, best_total = [g[:] for g in groups], total
    return best


def _best_first(groups):
    return sorted(groups, key=lambda g: (len(g) < 4, len(g) < 3, sum(g) / len(g)))
