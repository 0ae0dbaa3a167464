"""How good a seating is, in the numbers a director compares plans by. Imports nothing from Django.

A seating is a list of rounds (sessions); a round is a list of tables; a table lists its players
in wind order E, S, W, N. Tables of one or two players are awarded tables (docs/rules.md §3): nobody
plays there, so nobody meets anybody and no wind is sat.

Beside each figure stands a bound that no seating of the same field and tables can beat. A bound
is only called the best possible when it is proven to be reached: a seating reaches it (this
one, a stored design, de Werra's colouring for the winds) or a published maximum says so.
Otherwise it is only a bound ("at least …", "at most …"), and `Bound.exact` says which.
"""

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from itertools import combinations
from math import comb

from seating.algorithms.designs import zero_repeat_rounds
from seating.algorithms.draw import table_sizes
from seating.algorithms.winds import reachable_imbalance, wind_counts

# The most sessions without a repeat meeting, proven for these small fields: the social golfer
# problem's maxima for g tables of s players (OEIS A107431, "maximal number of rounds for the
# social golfer problem with n groups of k golfers", after W. Harvey's results page). Keyed by
# (tables, players per table). Fewer tables than players per table allow one session only
# (`_second_session_possible`), which the same sequence states too.
KNOWN_ZERO_REPEAT = {(4, 4): 5, (5, 4): 5, (6, 4): 7, (7, 4): 9, (3, 3): 4}


@dataclass(frozen=True)
class Bound:
    """A bound on a figure: `value`, and whether some seating is known to reach it."""

    value: int
    exact: bool


def is_game(table) -> bool:
    return len(table) >= 3


def meetings(rounds) -> Counter:
    """How often each pair (as a sorted tuple) sat at one table."""
    met = Counter()
    for tables in rounds:
        for table in tables:
            if is_game(table):
                met.update(combinations(sorted(table), 2))
    return met


def _groups(sizes) -> list[int]:
    """The cliques a session leaves behind: its game tables, and each awarded player alone."""
    found = []
    for size in sizes:
        found.extend([size] if size >= 3 else [1] * size)
    return found


def _second_session_possible(sizes) -> bool:
    """Pigeonhole: in a second session without a repeat, a table of s players takes them from
    s different tables of the first (or awarded players), so the first needs s such groups."""
    games = [s for s in sizes if s >= 3]
    return bool(games) and len(_groups(sizes)) >= max(games)


def zero_repeat_ceiling(players: int, sizes=None) -> int:
    """The bound of `zero_repeat_bound` as a number (0 when nobody plays a game)."""
    bound = zero_repeat_bound(players, sizes)
    return 0 if bound is None else bound.value


def zero_repeat_bound(players: int, sizes=None) -> Bound | None:
    """Most sessions that can be played without any pair meeting twice, for `players` at tables
    of `sizes` (the draw's, table_sizes, by default); None when nobody plays a game.

    The counting bound: a session fills Σ C(s, 2) of the C(N, 2) pairs (for tables of four,
    each player meets three new opponents of N − 1: ⌊(N − 1)/3⌋). The pigeonhole bound: a second
    session needs at least as many tables as seats at a table (16 players for tables of four;
    12 riichi players, or 10 Sichuan players at 4 + 3 + 3, get one). Then the published maxima
    (KNOWN_ZERO_REPEAT). The bound is exact where it is 1 (any session is repeat-free), where a
    published maximum gives it, or where a stored design reaches it.
    """
    if sizes is None:
        sizes = table_sizes(players, players % 4 != 0) if players else []
    sizes = sorted(sizes, reverse=True)
    games = [s for s in sizes if s >= 3]
    if not games:
        return None
    per_session = sum(comb(s, 2) for s in games)
    ceiling = comb(players, 2) // per_session
    if not _second_session_possible(sizes):
        return Bound(1, True)
    if len(set(sizes)) == 1 and (len(sizes), sizes[0]) in KNOWN_ZERO_REPEAT:
        return Bound(KNOWN_ZERO_REPEAT[(len(sizes), sizes[0])], True)
    if sizes == [4] * (players // 4) and players % 4 == 0:
        return Bound(ceiling, len(zero_repeat_rounds(players)) >= ceiling)
    return Bound(ceiling, ceiling <= 1)


def _one_to_one(rows, cols) -> bool:
    """Gale–Ryser: a 0/1 matrix with these row and column sums exists, so every table can take
    its players from different earlier groups."""
    rows = sorted(rows, reverse=True)
    return sum(rows) == sum(cols) and all(
        sum(rows[:k]) <= sum(min(c, k) for c in cols) for k in range(1, len(rows) + 1)
    )


@cache
def min_repeats(rows: tuple, cols: tuple) -> int:
    """Fewest pairs at tables of sizes `rows` that already sat together in an earlier session
    of the same players at tables (groups) of sizes `cols`: the least Σ C(x, 2) over how many
    (x) of each earlier group sit at each game table. Zero when Gale–Ryser allows one player
    from each group per table; otherwise (small fields only) exact by dynamic programming."""
    if sum(rows) != sum(cols) or not any(r >= 3 for r in rows) or _one_to_one(rows, cols):
        return 0
    if len(cols) > 8:
        return 0  # too big to search; 0 is still a bound

    def parts(total, slots):
        if slots == 1:
            yield (total,)
            return
        for first in range(total + 1):
            for rest in parts(total - first, slots - 1):
                yield (first, *rest)

    @cache
    def best(i, left):
        if i == len(rows):
            return 0
        found = None
        for x in parts(rows[i], len(left)):
            if any(a > b for a, b in zip(x, left, strict=True)):
                continue
            here = sum(comb(a, 2) for a in x) if rows[i] >= 3 else 0
            rest = best(i + 1, tuple(b - a for a, b in zip(x, left, strict=True)))
            if rest is not None and (found is None or here + rest < found):
                found = here + rest
        return found

    return best(0, tuple(cols)) or 0


def _sizes(tables) -> tuple:
    return tuple(sorted((len(t) for t in tables), reverse=True))


def extra_floor(players: int, sessions: int, sizes=None) -> int:
    """The counting bound on extra meetings: R sessions fill R · Σ C(s, 2) pair-meetings, and
    only C(N, 2) of them can be first meetings (for tables of four: ⌈N(3R − N + 1)/2⌉ once R
    passes ⌊(N − 1)/3⌋). `sizes` defaults to the draw's tables for N (table_sizes)."""
    if sizes is None:
        sizes = table_sizes(players, players % 4 != 0) if players else []
    per_session = sum(comb(s, 2) for s in sizes if s >= 3)
    return max(0, sessions * per_session - comb(players, 2))


def _extra_bound(rounds, players: int) -> Bound:
    """Extra meetings no seating of these sessions' tables can go below: the counting bound, or
    the pigeonhole one, whichever is higher. Pigeonhole: extra meetings are Σ over sessions of
    the pairs at its tables who met before, at least those who met in one earlier session of
    the same players, which `min_repeats` counts from the table sizes alone."""
    pairs = sum(comb(len(t), 2) for tables in rounds for t in tables if is_game(t))
    counting = max(0, pairs - comb(players, 2))
    seated = [frozenset(p for t in tables for p in t) for tables in rounds]
    pigeonhole = 0
    for r in range(1, len(rounds)):
        earlier = [j for j in range(r) if seated[j] == seated[r]]
        pigeonhole += max(
            (min_repeats(_sizes(rounds[r]), tuple(_groups(_sizes(rounds[j])))) for j in earlier),
            default=0,
        )
    value = max(counting, pigeonhole)
    shapes = {_sizes(tables) for tables in rounds}
    same = len(set(seated)) == 1 and len(seated[0]) == players and len(shapes) == 1
    ceiling = zero_repeat_bound(players, next(iter(shapes))) if same and pairs else None
    if ceiling is not None and len(rounds) > ceiling.value:
        value = max(value, 1)  # more sessions than can be repeat-free: one repeat at least
    # no repeat at all is proven reachable when a seating of that many sessions is known
    exact = value == 0 and (
        not pairs or (ceiling is not None and ceiling.exact and len(rounds) <= ceiling.value)
    )
    return Bound(value, exact)


def _clash_bound(rounds, keep_apart: dict, fixed: int = 0) -> Bound:
    """Keep-apart clashes no seating of these tables avoids: in each session the m players of
    one club spread over the T game tables as evenly as they can, which still seats ⌊m/T⌋ or
    ⌈m/T⌉ of them together. Reached when every table seats four: dealing the players club by
    club round the tables spreads every club that evenly."""
    total = clashes(rounds[:fixed], keep_apart)  # played: as they are
    even = True
    for tables in rounds[fixed:]:
        games = [t for t in tables if is_game(t)]
        if not games:
            continue
        even = even and all(len(t) == 4 for t in tables)
        clubs = Counter(keep_apart.get(p) for t in tables for p in t)
        clubs.pop(None, None)
        clubs.pop("", None)
        for members in clubs.values():
            each, rest = divmod(members, len(games))
            total += rest * comb(each + 1, 2) + (len(games) - rest) * comb(each, 2)
    return Bound(total, even)


def _wind_bound(rounds, fixed: int) -> Bound:
    """The least worst wind imbalance reachable once the first `fixed` sessions are played as
    they were: each player alone (reachable_imbalance), and the North seats — only tables of
    four have one, so when there are fewer North seats than players, that many players never
    sit North. Reached by construction with no played session and only tables of four
    (de Werra's equitable colouring, winds.py)."""
    before = wind_counts(rounds[:fixed])
    later = rounds[fixed:]
    games = Counter(p for tables in later for t in tables if is_game(t) for p in t)
    norths = sum(1 for tables in later for t in tables if len(t) == 4)
    zeros = (0, 0, 0, 0)
    players = set(games) | set(before)
    value = max((reachable_imbalance(before.get(p, zeros), games[p]) for p in players), default=0)
    playing = [p for p in players if games[p]]
    if norths < len(playing):
        without = sorted(reachable_imbalance(before.get(p, zeros), games[p], 0) for p in playing)
        value = max(value, without[len(playing) - norths - 1])
    fours = all(len(t) == 4 for tables in later for t in tables if is_game(t))
    return Bound(value, not fixed and fours)


@dataclass(frozen=True)
class Quality:
    players: int
    sessions: int
    repeated_pairs: int  # pairs meeting twice or more
    max_meetings: int
    extra_meetings: int  # Σ over pairs that met of (meetings − 1)
    clashes: int  # pairs sharing a keep-apart value seated at one table, over all sessions
    wind_counts: dict  # player → [E, S, W, N]
    worst_imbalance: int  # over players, most-sat wind minus least-sat wind
    balanced_share: float  # share of players whose imbalance is at most 1
    spread: float | None  # mean over tables of the standings-rank range at the table
    zero_repeat_ceiling: int | None  # an upper bound; None when nobody plays a game
    extra_floor: int  # a lower bound on extra_meetings
    bounds: dict  # figure → Bound: the best any seating of these tables can do

    @property
    def imbalance(self) -> dict:
        return {p: max(c) - min(c) for p, c in self.wind_counts.items()}


def clashes(rounds, keep_apart: dict) -> int:
    """Pairs at one table with the same non-empty keep-apart value (club, country, team)."""
    found = 0
    for tables in rounds:
        for table in tables:
            if not is_game(table):
                continue  # nobody plays at an awarded table
            values = [keep_apart.get(p) for p in table]
            found += sum(1 for a, b in combinations(values, 2) if a and a == b)
    return found


def table_spread(rounds, ranks) -> float | None:
    """Mean of (worst rank − best rank) over the game tables; `ranks` is one dict player → rank
    per round (the standings before that round), or None where a round has none."""
    spreads = []
    for tables, rank in zip(rounds, ranks or [], strict=False):
        if not rank:
            continue
        for table in tables:
            if is_game(table):
                seated = [rank[p] for p in table]
                spreads.append(max(seated) - min(seated))
    return sum(spreads) / len(spreads) if spreads else None


def spread_floor_one_of_each(owed: Sequence[int]) -> float:
    """The least mean table spread that a session of four-player tables can have when every
    table must seat one player of each kind: `owed[i]` is the kind (0–3, the wind still owed in
    the last session of an even plan) of the player in standings place i, each kind n/4 times.

    A table's spread (worst place − best place) is the number of cuts between neighbouring
    places that it straddles. Cut below the best x players: the tables wholly above the cut
    hold one player of each kind, so above it the counts of two kinds differ by at most the
    number of tables straddling it, and when x is not a multiple of four at least one table
    straddles it. Summed over the cuts, that bounds the total spread from below.
    """
    above = [0] * 4
    total = 0
    for x, kind in enumerate(owed[:-1], start=1):
        above[kind] += 1
        total += max(max(above) - min(above), 1 if x % 4 else 0)
    return total / (len(owed) // 4)


def _reached(bound: Bound, value) -> Bound:
    """A bound that this seating meets is the best possible: it is proven by being reached."""
    return Bound(bound.value, bound.exact or value == bound.value)


def quality(rounds, keep_apart: dict | None = None, ranks=None, fixed: int = 0) -> Quality:
    """The figures of a seating and their bounds. `fixed`: how many of the first rounds are
    already played, so that the bounds are what can still be reached after them (their
    repeats, clashes and winds stay as they are)."""
    rounds = [list(tables) for tables in rounds]
    players = {p for tables in rounds for table in tables for p in table}
    met = meetings(rounds)
    counts = wind_counts(rounds)
    imbalance = [max(c) - min(c) for c in counts.values()]
    n = len(players)
    extra = sum(m - 1 for m in met.values())
    repeated = sum(1 for m in met.values() if m > 1)
    most = max(met.values(), default=0)
    shapes = [_sizes(tables) for tables in rounds if tables]
    ceiling = zero_repeat_bound(n, shapes[-1]) if shapes else None
    floor = _extra_bound(rounds, n)
    if fixed:  # the played sessions' repeats stay; no design is known to continue them
        played = sum(m - 1 for m in meetings(rounds[:fixed]).values())
        floor = Bound(max(floor.value, played), False)
    pairs = sum(met.values())
    if floor.value == 0:
        repeated_floor = Bound(0, floor.exact)
        most_floor = Bound(1 if pairs else 0, floor.exact or not pairs)
    else:
        repeated_floor = Bound(-(-floor.value // max(1, len(rounds) - 1)), False)
        most_floor = Bound(max(2, -(-pairs // max(1, comb(n, 2)))), False)
    worst = max(imbalance, default=0)
    found_clashes = clashes(rounds, keep_apart or {})
    bounds = {
        "extra_meetings": _reached(floor, extra),
        "repeated_pairs": _reached(repeated_floor, repeated),
        "max_meetings": _reached(most_floor, most),
        "clashes": _reached(_clash_bound(rounds, keep_apart or {}, fixed), found_clashes),
        "worst_imbalance": _reached(_wind_bound(rounds, fixed), worst),
    }
    if ceiling is not None:
        bounds["zero_repeat_ceiling"] = ceiling
    return Quality(
        players=n,
        sessions=len(rounds),
        repeated_pairs=repeated,
        max_meetings=most,
        extra_meetings=extra,
        clashes=found_clashes,
        wind_counts=counts,
        worst_imbalance=worst,
        balanced_share=(sum(1 for i in imbalance if i <= 1) / len(imbalance)) if imbalance else 1,
        spread=table_spread(rounds, ranks),
        zero_repeat_ceiling=None if ceiling is None else ceiling.value,
        extra_floor=floor.value,
        bounds=bounds,
    )
