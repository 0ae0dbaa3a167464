"""Swiss seating: tables by standings, avoiding repeat meetings. Imports nothing from Django.

The Sichuan rules call it programmed ("Danish") seating: after the first session the top four of
the standings play together, the next four together, and so on — except that players who already
met should not meet again, players sharing a keep-apart value (club, country, team) should not
meet at all, and nobody should sit at a three-player or awarded table twice.

Every candidate table has a cost (see `_Costs`): its repeated pairs, keep-apart clashes and
second incomplete seats, the players the winds cannot suit, and its standings spread. A local
search (seating.algorithms.swiss_search) minimises the total: a greedy start down the
standings, then swaps and three-way rotations of nearby players, each priced from the moved
players alone, and random kicks while they still find gains. When the standings cut into tables
already has no flaw, it is the answer and there is no search.

Given the tournament's session count (`sessions`), the winds are judged by where they must end:
each player's every wind ⌊G/4⌋ or ⌈G/4⌉ times over their G games. A table that cannot give
each of its players a wind that keeps this within reach (`allowed_winds`) costs like four repeat
meetings per player it fails, so in the last session the search looks, near each other, for
four players owing four different winds. Without the count, the winds sat least guide, with
less weight (see W_WIND). Even winds are the rule: when the search leaves a player whom the
winds cannot suit although a seating exists that suits everyone (`assign_winds`), it searches
again from that seating with such a miss outweighing everything else (`_even_winds`).

Large fields (BAND_FROM players or more, tables of four) put the winds first (`_banded`): each
player is given a wind that keeps their winds even (`assign_winds`), the k-th players of the
four winds down the standings make the k-th table, and bands of BAND_TABLES such tables are
searched one by one, each a small problem, each from a seating that suits everyone.

`plan_winds` (seating.algorithms.swiss_winds) then gives the tables found their winds: each table
first so that nobody sits a wind `allowed_winds` rules out, then as evenly as `seat_winds` would,
its ties broken to keep the winds still owed even down the standings, so that the later sessions
find such players near each other.

Step counts scale with the player count, never with the clock: the same input and seed give the
same tables. `budget` (seconds; BUDGET_SECONDS by default, the desk's SWISS_SECONDS) is only a
safety cap, set several times above the slowest session seen in benchmarks/swiss_sim.py (about
1.5 s of CPU: the last session of a 12-session tournament of 2,000 players, where every player
must sit the one wind they owe; about 1 s at 200 players) so that a slower laptop does not reach
it: were it reached, the tables would depend on the machine's speed (never the winds: every
band and every repeat of `_even_winds` keeps only moves from a seating that suits everyone).
`budget=None` means no cap at all (the tests: only step counts decide).
"""

import math
import random
import time
from collections import Counter
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import combinations

from seating.algorithms.draw import table_sizes
from seating.algorithms.quality import meetings
from seating.algorithms.swiss_search import search
from seating.algorithms.swiss_winds import (
    ALL_WINDS,
    allowed_winds,
    assign_winds,
    owed,
    plan_winds,
)
from seating.algorithms.winds import wind_counts

# Costs are in the unit of the spread cost: a table whose best and worst standings places are
# s apart costs s² (quadratic, so two slightly stretched tables beat one badly stretched one).
# Every cost is a whole number, so the search's sums are exact in floating point: the same
# seating costs the same whichever order its terms are added in, and the search's choices do
# not hang on rounding.
#
# A pair that met before costs repeat_weight(N) per earlier meeting: 1500 up to 32 players, so a
# repeat outweighs any spread a small field allows (√1500 ≈ 39 places), falling as 1500 × 32 / N
# (rounded) to 1000 from 48 players on. Small fields run out of new opponents within a few
# sessions and must avoid repeats at almost any price; in larger ones that price would be spread.
REPEAT_UP_TO_32 = 1500.0
REPEAT_FLOOR = 1000.0
# Seating two players with the same keep-apart value together weighs like a repeat.
CLASH_PER_REPEAT = 1.0
# A second seat at a three-player or awarded table outweighs several repeats (docs/rules.md §3).
INCOMPLETE_PER_REPEAT = 3.0
# Winds. When the tournament's session count is known, each player has the winds they may sit
# now and still end with every wind ⌊G/4⌋ or ⌈G/4⌉ times over their G games (`allowed_winds`).
# A player at a table that cannot give each of them such a wind (see `_unmatched`) is a wind
# imbalance that can no longer be made up, so it weighs like four repeat meetings: even winds
# are the rule (every player's, at every field size), while a repeat is unfairness shared by two
# players who each also met others. At one repeat per miss a small field ended with about one
# player in twenty uneven; at two, with none at 32 players (benchmarks/swiss_sim.py, 12
# tournaments: 12.1 → 13.4 extra meetings, 95.1 % → 100 % even, measured with the annealing
# search used before issue 26), but at 200 players the local search of issue 26 still left a
# player uneven in one tournament in three. At four, nobody is uneven at 32, 48, 100 or 200
# players over 12 tournaments, for about the same repeats and spread (12 seeds, two repeats →
# four: extra meetings 13.50 → 13.17 at 32, 3.08 → 2.92 at 48, 0.50 → 0.83 at 100, 0 → 0.08
# at 200; spread 12.63 → 12.69, 11.20 → 11.17, 7.16 → 7.17, 6.33 → 6.35; worst imbalance at
# 200 0.67 → 0).
# Within what is allowed, a player who cannot get a wind they sat least costs W_WIND: it keeps
# the winds even along the way, which leaves the later sessions the most choice.
#
# When the session count is not known, only the winds sat least guide: in every fourth session
# balanced winds need each table to hold one player short of each wind, and insisting on that
# costs more spread than the standings allow (benchmarks/swiss_sim.py). In the first four
# sessions a wind missed is made up over the next four, so it weighs W_WIND; from the fifth on a
# miss is likely to stand at the end, and it weighs as a table stretched over about 11 places
# (√120).
MISS_PER_REPEAT = 4.0
W_WIND = 10.0
W_WIND_LATE = 120.0
WIND_ROUNDS = 4  # sessions already played from which W_WIND_LATE applies
# Per standings place, the pull of the short tables towards the bottom of the standings.
W_LOW = 1.0
# 002 §3.1 (3): under programmed or Danish seating the missing seat goes to the last table, the
# lowest in the standings. A player above the last places who sits at a short table costs
# OUT_PER_REPEAT repeat meetings (and W_UP per place above them, at most UP_CAP_PER_REPEAT
# repeats), so the short tables take the lowest places unless a rule weighing more forbids it:
# a second incomplete seat (INCOMPLETE_PER_REPEAT) or a wind the player can no longer even out
# (MISS_PER_REPEAT). The search weighs; `_lowest_short` then makes sure, repeats or not: the
# seed puts the short tables last, the desk only avoids repeats. `short_trades` says on the
# page what was traded for each of the last places.
OUT_PER_REPEAT = 2.0
W_UP = 10.0
UP_CAP_PER_REPEAT = 0.4
# A miss where a seating without one exists (`_even_winds`, `_banded`): more than all else a
# seating can cost (a table's spread is at most N², a repeat a thousand), so never traded.
HARD_MISS = 1e12
# Fields of BAND_FROM players or more, at tables of four, are seated in bands of about
# BAND_TABLES tables (`_banded`).
BAND_FROM = 400
BAND_TABLES = 20
# The safety cap on a session's search, in seconds (see the module docstring).
BUDGET_SECONDS = 15.0

TableCost = Callable[[list[int], bool], float]


def swiss_round(
    ranking: list,
    history: list,
    *,
    seed: int = 0,
    keep_apart: dict | None = None,
    three_player: bool = False,
    sessions: int | None = None,
    budget: float | None = BUDGET_SECONDS,
) -> list[list]:
    """Seat `ranking` (best standings first) for the session after the rounds in `history`.

    Returns the tables best first, each in wind order E, S, W, N as `plan_winds` orders them
    from the winds sat in `history`. Sizes come from `table_sizes`, so riichi raises DrawError
    unless the count is a multiple of four; Sichuan's three-player tables and awarded table are
    the last ones. `sessions` is the tournament's planned session count, `history` included:
    with it the winds are planned to come out even by the end.
    """
    sizes = table_sizes(len(ranking), three_player)
    counts, allowed = _wind_state(ranking, history, sessions)
    keep_apart = keep_apart or {}
    deadline = math.inf if budget is None else time.perf_counter() + budget
    groups = None
    if len(ranking) >= BAND_FROM and all(size == 4 for size in sizes):
        groups = _banded(ranking, history, keep_apart, counts, allowed, seed, deadline)
    if groups is None:
        costs = _Costs(ranking, history, keep_apart, counts, allowed, sizes)
        groups = _cut(sizes)
        if any(costs.flawed(g) for g in groups):  # else the standings order is the best
            groups = _lowest_short(costs, search(costs, sizes, random.Random(seed), deadline))
            groups = _even_winds(costs, groups, ranking, history, keep_apart, seed, deadline)
    tables = [[ranking[i] for i in group] for group in _best_first(groups)]
    return plan_winds(tables, counts, {p: i for i, p in enumerate(ranking)}, allowed)


def _merged(winds: list[int]) -> list[list[int]]:
    """Tables of standings indices from `assign_winds`: the k-th table seats the k-th player
    (best first) given each wind."""
    by_wind: list[list[int]] = [[] for _ in range(4)]
    for i, w in enumerate(winds):
        by_wind[w].append(i)
    return [list(table) for table in zip(*by_wind, strict=True)]


def _even_winds(costs, groups, ranking, history, keep_apart, seed, deadline):
    """The search's tables, or, when some player there cannot get a wind that keeps their winds
    even to the end although a seating where everyone can exists (`assign_winds`), the search
    again with such a miss outweighing everything else (HARD_MISS), from that seating: every
    move it keeps lowers the total, so no miss comes back. Tables of four only."""
    if not costs.w_miss or any(len(g) != 4 for g in groups):
        return groups
    if all(costs.wind(g, True) < costs.w_miss for g in groups):
        return groups
    winds = assign_winds(costs.allowed, len(groups))
    if winds is None:
        return groups
    sizes = [4] * len(groups)
    counts = {p: costs.counts[i] for i, p in enumerate(ranking)}
    allowed = {p: costs.allowed[i] for i, p in enumerate(ranking)}
    hard = _Costs(ranking, history, keep_apart, counts, allowed, sizes, hard=True)
    return search(hard, sizes, random.Random(seed), deadline, start=_merged(winds))


def _banded(ranking, history, keep_apart, counts, allowed, seed, deadline):
    """A large field's tables (BAND_FROM players or more, tables of four), or None when no
    seating gives everyone a wind that keeps their winds even (the whole search then decides).

    The winds come first: `assign_winds` gives each player a wind of their `allowed_winds`, each
    wind to a quarter of the field, and `_merged` seats the k-th of each wind together. Those
    tables, BAND_TABLES at a time down the standings, make bands of about 4 × BAND_TABLES
    players, each seated by the search on its own (its players' pairs and spread only), with a
    miss outweighing everything else (HARD_MISS): each band starts from a seating without one
    and keeps only moves that lower its total, so no player ends uneven. A band is a small
    problem whatever the field, so the time grows with the number of bands, about linearly."""
    masks = [allowed[p] if allowed else ALL_WINDS for p in ranking]
    tables = len(ranking) // 4
    winds = assign_winds(masks, tables)
    if winds is None:
        return None
    start = _merged(winds)
    bands = max(1, round(tables / BAND_TABLES))
    met: dict = {}  # each player's earlier meetings, so that a band looks only at its own
    for (a, b), times in meetings(history).items():
        met.setdefault(a, []).append(((a, b), times))
        met.setdefault(b, []).append(((a, b), times))
    rng = random.Random(seed)
    groups: list[list[int]] = []
    for b in range(bands):
        band = start[b * tables // bands : (b + 1) * tables // bands]
        members = sorted(i for table in band for i in table)
        local = {i: k for k, i in enumerate(members)}
        sizes = [4] * len(band)
        costs = _Costs(
            [ranking[i] for i in members],
            history,
            keep_apart,
            counts,
            allowed,
            sizes,
            hard=True,
            met=Counter(dict(pair for i in members for pair in met.get(ranking[i], ()))),
            field=len(ranking),
        )
        found = [[local[i] for i in table] for table in band]
        if any(costs.flawed(g) for g in found):
            found = search(costs, sizes, rng, deadline, start=found)
        groups += [[members[k] for k in g] for g in found]
    return groups


def _wind_state(ranking: list, history: list, sessions: int | None) -> tuple[dict, dict | None]:
    """Each player's winds sat in `history`, and with the session count known the winds each
    may sit now and still end even (`allowed_winds`)."""
    counts = {p: [0, 0, 0, 0] for p in ranking}
    counts.update({p: list(c) for p, c in wind_counts(history).items() if p in counts})
    allowed = None
    if sessions:
        left = max(1, sessions - len(history))
        allowed = {p: allowed_winds(counts[p], left) for p in ranking}
    return counts, allowed


def repeat_weight(players: int) -> float:
    """What seating a pair that met once before costs, in spread units (see REPEAT_UP_TO_32)."""
    return float(round(max(REPEAT_FLOOR, REPEAT_UP_TO_32 * 32 / max(players, 32))))


def _cut(sizes: list[int]) -> list[list[int]]:
    """Standings indices cut into tables of the given sizes, in order."""
    groups, start = [], 0
    for size in sizes:
        groups.append(list(range(start, start + size)))
        start += size
    return groups


def _unmatched(masks: Sequence[int]) -> int:
    """How many of a table's players cannot each get a different wind from their mask.

    Hall's theorem, deficiency form: the worst, over subsets of the players, of the subset's
    size less the number of winds their masks cover. When it is 0, `plan_winds` (which, like
    `seat_winds`, minimises the winds' counts) gives every player a wind they sat least.
    """
    return _deficiency(tuple(sorted(masks)))


@cache
def _deficiency(masks: tuple[int, ...]) -> int:
    """`_unmatched` of sorted masks, remembered: a table of four 4-bit masks is one of a few
    thousand, and the search asks about the same ones session after session."""
    worst = 0
    for subset in range(1, 1 << len(masks)):
        union = 0
        for k, mask in enumerate(masks):
            if subset >> k & 1:
                union |= mask
        worst = max(worst, subset.bit_count() - union.bit_count())
    return worst


class _Costs:
    """Costs of candidate tables, for players given by standings index (0 = leader)."""

    def __init__(
        self,
        ranking: list,
        history: list,
        keep_apart: dict,
        counts: dict,
        allowed: dict | None,
        sizes: Sequence[int] = (),
        *,
        hard: bool = False,
        met: Counter | None = None,
        field: int | None = None,
    ):
        n = self.n = len(ranking)
        self.repeat = repeat_weight(field or n)
        index = {p: i for i, p in enumerate(ranking)}
        met = [
            (index[a], index[b], times)
            for (a, b), times in (meetings(history) if met is None else met).items()
            if a in index and b in index
        ]
        # n × n, pair[i][j]: what seating i and j together costs. Weighted by how often they
        # met, so a third meeting is avoided harder than a second.
        self.pair = [[0.0] * n for _ in range(n)]
        for i, j, times in met:
            self._add(i, j, self.repeat * times)
        for a, b in combinations(ranking, 2):
            value = keep_apart.get(a)
            if value and value == keep_apart.get(b):
                self._add(index[a], index[b], self.repeat * CLASH_PER_REPEAT)
        # The same, sparse: for each player, (other, cost) wherever seating them together costs.
        self.near = [[(j, cost) for j, cost in enumerate(row) if cost] for row in self.pair]
        # Seating a player at a short table costs their earlier short seats, and the pull down.
        seats = Counter(
            p for tables in history for table in tables if len(table) < 4 for p in table
        )
        self.again = [self.repeat * INCOMPLETE_PER_REPEAT * seats[p] for p in ranking]
        self.seats_short = [seats[p] for p in ranking]
        # the last places, which 002 §3.1 (3) gives the short tables
        self.last = n - sum(size for size in sizes if size < 4)
        cap, out = round(self.repeat * UP_CAP_PER_REPEAT), round(self.repeat * OUT_PER_REPEAT)
        self.out = [
            0.0 if i >= self.last else float(out + min(cap, W_UP * (self.last - i)))
            for i in range(n)
        ]
        self.short = [self.again[i] + self.out[i] + W_LOW * (n - 1 - i) for i in range(n)]
        self.spread = [float(s * s) for s in range(n + 1)]
        self.counts = [counts[p] for p in ranking]
        self.masks = [owed(counts[p]) for p in ranking]
        self.allowed = [allowed[p] if allowed else ALL_WINDS for p in ranking]
        # A table's masks as an order-free key: base-5 digit 2k (2k + 1 at a three-player
        # table) counts its players whose pair of masks is the k-th pair seen.
        pairs = list(zip(self.masks, self.allowed, strict=True))
        kinds: dict = {}
        for pair in pairs:
            kinds.setdefault(pair, len(kinds))
        digits = [kinds[pair] for pair in pairs]
        self.key4 = [5 ** (2 * d) for d in digits]
        self.key3 = [5 ** (2 * d + 1) for d in digits]
        self.winds: dict[int, float] = {}
        # with HARD_MISS and one allowed wind each: for each player, the players of their wind
        # by standings place (None otherwise)
        self.same: list[list[int]] | None = None
        if allowed:  # the session count is known: misses count, the winds sat least guide
            self.w_wind, self.w_miss = W_WIND, self.repeat * MISS_PER_REPEAT
            if hard:  # a miss outweighs everything else a seating can cost (see HARD_MISS)
                self.w_miss = HARD_MISS
                if all(mask.bit_count() == 1 for mask in self.allowed):
                    # each player may sit one wind only (the last session of an even plan):
                    # a move keeps every table's winds only between players of one wind
                    kinds: dict[int, list[int]] = {}
                    for i, mask in enumerate(self.allowed):
                        kinds.setdefault(mask, []).append(i)
                    self.same = [kinds[mask] for mask in self.allowed]
        else:
            self.w_wind = W_WIND_LATE if len(history) >= WIND_ROUNDS else W_WIND
            self.w_miss = 0.0
        self.table = self._table_cost()

    def _add(self, i: int, j: int, weight: float) -> None:
        self.pair[i][j] += weight
        self.pair[j][i] += weight

    def wind(self, members: Sequence[int], four: bool) -> float:
        """W_WIND (W_WIND_LATE from the fifth session) per player the winds cannot suit;
        `members` may be a table still filling."""
        keys = self.key4 if four else self.key3
        key = 0
        for a in members:
            key += keys[a]
        cost = self.winds.get(key)
        if cost is None:
            seats = ALL_WINDS if four else 7
            cost = self.w_wind * _unmatched([self.masks[a] & seats for a in members])
            if self.w_miss:
                cost += self.w_miss * _unmatched([self.allowed[a] & seats for a in members])
            self.winds[key] = cost
        return cost

    def _table_cost(self) -> TableCost:
        """The cost of a table, as a closure (the search prices its moves by `Seating.change`,
        incrementally, and checks whole tables with this)."""
        pair, spread, short, wind = self.pair, self.spread, self.short, self.wind

        def cost(members: list[int], is_short: bool) -> float:
            total = 0.0
            if len(members) >= 3:  # a game: pairs meet, winds are sat, standings spread
                for k, a in enumerate(members):
                    row = pair[a]
                    for b in members[k + 1 :]:
                        total += row[b]
                total += wind(members, len(members) == 4) + spread[max(members) - min(members)]
            if is_short:
                for a in members:
                    total += short[a]
            return total

        return cost

    def conflicts(self, members: Sequence[int]) -> list:
        """Repeated or clashing pairs at this table, and players at a short table again."""
        pair = self.pair
        found: list = []
        if len(members) >= 3:
            found += [(a, b) for a, b in combinations(members, 2) if pair[a][b]]
        if len(members) < 4:
            found += [(a,) for a in members if self.again[a]]
        return found

    def flawed(self, members: Sequence[int]) -> bool:
        """In conflict, or someone at the table cannot get a wind they sat least."""
        if self.conflicts(members):
            return True
        return len(members) >= 3 and self.wind(members, len(members) == 4) > 0


def _lowest_short(costs: "_Costs", groups: list[list[int]]) -> list[list[int]]:
    """The search's tables, made sure of what it only weighs (each swap below breaks no rule
    that outweighs 002 §3.1 (3), `_breaks`; applied until none is left):

    - a player at a short table who sat at one more often than someone at a full table changes
      places with the lowest such player (docs/rules.md §3: nobody twice while another has not);
    - a player at a full table changes places with one placed above them at a short table
      (002 §3.1 (3): the short tables hold the lowest places that can sit there)."""
    groups = [g[:] for g in groups]
    seats = costs.seats_short
    while True:
        table_of = {i: t for t, g in enumerate(groups) for i in g}
        moves = [
            (p, q, table_of[p], table_of[q])
            for q in range(costs.n)
            if len(groups[table_of[q]]) < 4
            for p in range(costs.n - 1, -1, -1)
            if len(groups[table_of[p]]) == 4 and seats[p] < seats[q]
        ] + _displaced(costs, groups)
        for p, q, a, b in moves:
            if _breaks(costs, groups, p, q, a, b) == (0, 0):
                groups[a][groups[a].index(p)] = q
                groups[b][groups[b].index(q)] = p
                break
        else:
            return groups


def _displaced(costs: "_Costs", groups: list[list[int]], start: int = 0):
    """(p, q, a, b): a player p at full table a below a player q at short table b, p from
    place `start` on (0-based) and q above the last places; lowest p and highest q first."""
    table_of = {i: t for t, g in enumerate(groups) for i in g}
    low = [i for i in range(costs.n - 1, start - 1, -1) if len(groups[table_of[i]]) == 4]
    high = [i for i in range(costs.last) if len(groups[table_of[i]]) < 4]
    return [(p, q, table_of[p], table_of[q]) for p in low for q in high if p > q]


def _breaks(costs: "_Costs", groups, p: int, q: int, a: int, b: int) -> tuple[int, int]:
    """What p and q changing places (p to short table b, q to full table a) breaks of the rules
    that outweigh 002 §3.1 (3): a second incomplete seat for p while q has had fewer (1 or 0),
    and the players whose winds could then no longer come out even (at least 0). Repeat
    meetings do not: the seed puts the short tables last, the desk only avoids repeats."""
    before_a, before_b = groups[a], groups[b]
    after_a = [q if x == p else x for x in before_a]
    after_b = [p if x == q else x for x in before_b]

    def misses(members):
        if len(members) < 3 or not costs.w_miss:
            return 0
        seats = ALL_WINDS if len(members) == 4 else 7
        return _unmatched([costs.allowed[x] & seats for x in members])

    again = int(costs.seats_short[p] > costs.seats_short[q])
    missed = misses(after_a) + misses(after_b) - misses(before_a) - misses(before_b)
    return again, max(0, missed)


@dataclass(frozen=True)
class ShortTrade:
    """One of the last places (002 §3.1 (3)) not at a short table, and why: `place` counts from
    1, `reason` is "incomplete" (sat at an incomplete table more often than whoever sits there
    instead), "north" (must sit North to end with even winds, and a table of three has none)
    or "winds" (any swap that seats them there leaves `count` players' winds uneven)."""

    player: Hashable
    place: int
    reason: str
    count: int = 0


def short_trades(
    ranking: list,
    history: list,
    tables: list[list],
    *,
    keep_apart: dict | None = None,
    sessions: int | None = None,
) -> list[ShortTrade]:
    """For each of the last places that `swiss_round` did not seat at a short table, the rule
    that kept them off it: the cheapest swap with a player above the last places who sits there
    instead, by what it would break. Empty when the short tables hold the last places."""
    counts, allowed = _wind_state(ranking, history, sessions)
    sizes = [len(t) for t in tables]
    costs = _Costs(ranking, history, keep_apart or {}, counts, allowed, sizes)
    index = {p: i for i, p in enumerate(ranking)}
    groups = [[index[p] for p in t] for t in tables]
    found: dict[int, tuple] = {}
    for p, q, a, b in _displaced(costs, groups, costs.last):
        broken = _breaks(costs, groups, p, q, a, b)
        if p not in found or broken < found[p]:
            found[p] = broken
    trades = []
    for p in sorted(found):
        again, missed = found[p]
        player = ranking[p]
        if again:
            trades.append(ShortTrade(player, p + 1, "incomplete"))
        elif missed and allowed and not allowed[player] & 7:
            trades.append(ShortTrade(player, p + 1, "north"))
        elif missed:
            trades.append(ShortTrade(player, p + 1, "winds", missed))
        # nothing broken: `_lowest_short` would have made that swap, so it cannot happen
    return trades


def _best_first(groups: list[list[int]]) -> list[list[int]]:
    """Full tables by standings (mean place, then best place), then the three-player tables,
    the awarded table last; each table's players in standings order."""
    ordered = sorted(groups, key=lambda g: (len(g) < 4, len(g) < 3, sum(g) / len(g), min(g)))
    return [sorted(g) for g in ordered]
