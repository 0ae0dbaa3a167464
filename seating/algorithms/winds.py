"""Wind seating: who sits East, South, West and North at each table. Imports nothing from Django.

A table lists its players in wind order E, S, W, N. A three-player (Sichuan) table has no North,
so its three players sit E, S, W. Tables of one or two players are awarded: no game is played, so
their order does not matter and they count for no wind.

A plan is fair when every player sits each wind ⌊R/4⌋ or ⌈R/4⌉ times over their R games.
`balance_winds` reaches that exactly for a whole plan of four-player tables; `seat_winds` does the
best it can one session at a time, for Swiss seating where later tables are not known yet.
"""

from collections import deque
from collections.abc import Hashable, Mapping, Sequence
from itertools import permutations

Player = Hashable
Table = list[Player]
Round = list[Table]

WINDS = 4  # E, S, W, N: wind w of a table is its position w
NORTH = 3


def _plays(table: Sequence) -> bool:
    """Only tables of three or four play a game; one or two players are awarded their result."""
    if len(table) > WINDS:
        raise ValueError(f"a table seats at most {WINDS} players, not {len(table)}")
    return len(table) >= 3


def wind_counts(rounds: Sequence[Sequence[Sequence[Player]]]) -> dict[Player, list[int]]:
    """How many times each player sat [E, S, W, N], the figure wind fairness is judged by.

    Players seen only at awarded tables are listed with zeros, so every player has an entry.
    """
    counts: dict[Player, list[int]] = {}
    for tables in rounds:
        for table in tables:
            plays = _plays(table)
            for wind, player in enumerate(table):
                seat = counts.setdefault(player, [0] * WINDS)
                if plays:
                    seat[wind] += 1
    return counts


def can_reach(seen: Sequence[int], games: int, fours: int, imbalance: int) -> bool:
    """Whether a player who has sat the winds `seen` can end within `imbalance` (most-sat wind
    less least-sat) after `games` more games, `fours` of them at tables with a North seat.

    Some level m works: every wind ends between m and m + imbalance, so wind w needs at least
    m − seen[w] more and takes at most m + imbalance − seen[w]; North at most `fours` of them,
    and the games at tables of three go to East, South or West.
    """
    low = max(seen) - imbalance
    for m in range(max(0, low), min(seen) + games + 1):
        need = [max(0, m - c) for c in seen]
        room = [m + imbalance - c for c in seen]
        if min(room) < 0:
            continue
        north_most = min(room[NORTH], fours)
        if need[NORTH] > north_most:
            continue
        rest_need = sum(need[:NORTH])
        rest_room = sum(room[:NORTH])
        # North takes some n in [need, most]; the others take games − n between their bounds
        if games - north_most <= rest_room and games - need[NORTH] >= rest_need:
            return True
    return False


def reachable_imbalance(seen: Sequence[int], games: int, fours: int | None = None) -> int:
    """The least imbalance a player who has sat `seen` can end with after `games` more games
    (`fours` of them with a North seat; all of them by default), whoever the others are."""
    fours = games if fours is None else fours
    imbalance = 0
    while not can_reach(seen, games, fours, imbalance):
        imbalance += 1
    return imbalance


def _best_order(
    players: Sequence[Player], counts: Mapping[Player, Sequence[int]]
) -> tuple[int, tuple]:
    """The seating of `players` that adds least to the sum of squared wind counts.

    Sitting wind w raises that sum by 2c + 1 where c is the player's count of w, so with the
    number of players fixed, minimising the sum of the c's is the same. Orders are tried from
    the sorted players in lexicographic order and only a strictly better one replaces the best,
    so ties go to the lexicographically smallest seating, whatever order the players came in.
    """
    zeros = (0,) * WINDS
    best_cost, best = None, ()
    for order in permutations(sorted(players)):
        cost = sum(counts.get(p, zeros)[w] for w, p in enumerate(order))
        if best_cost is None or cost < best_cost:
            best_cost, best = cost, order
    return best_cost, best


def seat_winds(
    tables: Sequence[Sequence[Player]], counts: Mapping[Player, Sequence[int]]
) -> list[Table]:
    """One session's tables, each in the wind order that keeps the winds most even so far.

    For Swiss seating, where the next session's tables depend on results: each table (24 orders
    at most) is seated to favour the winds its players have sat least. Tables of a session share
    no players, so seating them one by one is optimal for the session. Players missing from
    `counts` have sat nothing yet. Awarded tables come back as they are; inputs are not changed.
    """
    seated = []
    for table in tables:
        if _plays(table):
            seated.append(list(_best_order(table, counts)[1]))
        else:
            seated.append(list(table))
    return seated


class Colouring:
    """A proper k-edge-colouring of a bipartite multigraph of degree at most k (4 by default:
    the winds), built edge by edge.

    König's theorem says k colours suffice; this is its constructive proof. For edge (u, v) take
    a colour a free at u and b free at v. If a is taken at v, swap a and b along the alternating
    path that starts at v: in a bipartite graph that path cannot reach u (it enters left vertices
    by a-edges and u has none), so afterwards a is free at both ends.
    """

    def __init__(self, edges: list[tuple[int, int]], lefts: int, rights: int, colours: int = WINDS):
        self.edges = edges
        self.colour = [-1] * len(edges)
        # at[side][vertex][c]: the edge of colour c at that vertex (side 0 left, 1 right), or -1
        self.at = ([[-1] * colours for _ in range(lefts)], [[-1] * colours for _ in range(rights)])
        for e in range(len(edges)):
            self._add(e)

    def _add(self, e: int) -> None:
        u, v = self.edges[e]
        left, right = self.at[0][u], self.at[1][v]
        a = left.index(-1)
        if right[a] != -1:
            b = right.index(-1)
            self.swap(self.chain(1, v, a, b), a, b)
        self.colour[e] = a
        left[a] = right[a] = e

    def chain(self, side: int, vertex: int, a: int, b: int) -> list[int]:
        """The edges of the a/b alternating path leaving `vertex` by its a-edge."""
        path = []
        c = a
        while (edge := self.at[side][vertex][c]) != -1:
            path.append(edge)
            side = 1 - side
            vertex = self.edges[edge][side]
            c = b if c == a else a
        return path

    def swap(self, path: list[int], a: int, b: int) -> None:
        """Swap colours a and b along `path`; on an alternating chain the colouring stays proper."""
        at = self.at
        for edge in path:  # clear all first: consecutive path edges trade the same slots
            u, v = self.edges[edge]
            at[0][u][self.colour[edge]] = at[1][v][self.colour[edge]] = -1
        for edge in path:
            u, v = self.edges[edge]
            c = b if self.colour[edge] == a else a
            self.colour[edge] = c
            at[0][u][c] = at[1][v][c] = edge


def _equitable_winds(tables: list[list[Player]]) -> list[list[Player]]:
    """Wind orders for playing tables so each player sits each wind ⌊R/4⌋ or ⌈R/4⌉ times.

    de Werra's equitable edge-colouring: cut each player's R tables into groups of four (the
    last group holds R mod 4) and make every group a vertex of its own. That bipartite graph
    has degree at most 4, so it has a proper 4-colouring; the colour is the wind. Each full
    group then sits every wind once and the short group each wind at most once: equitable.

    A table of three has no North. Where the colouring gave it one, the North/missing-wind chain
    from that table is swapped if it ends at a player group: that keeps the colouring proper, so
    the plan stays equitable. Otherwise the North player simply takes the missing wind.
    Returns each table's seats E, S, W, N, with None at a three-player table's empty seat.
    """
    group: dict[Player, int] = {}
    games: dict[Player, int] = {}
    groups = 0
    edges, sitter = [], []
    for t, table in enumerate(tables):
        for player in table:
            if games.get(player, 0) % WINDS == 0:  # every fourth game starts a new group
                group[player] = groups
                groups += 1
            games[player] = games.get(player, 0) + 1
            edges.append((group[player], t))
            sitter.append(player)
    colouring = Colouring(edges, groups, len(tables))

    for t, table in enumerate(tables):
        at = colouring.at[1][t]
        if len(table) == 3 and at[NORTH] != -1:
            missing = at.index(-1)
            path = colouring.chain(1, t, NORTH, missing)
            if len(path) % 2:  # an odd path ends at a player group, not at another table
                colouring.swap(path, NORTH, missing)

    orders = []
    for at in colouring.at[1]:
        seats = [None if edge == -1 else sitter[edge] for edge in at]
        if seats[NORTH] is not None and None in seats:  # no chain could free North here
            seats[seats.index(None)], seats[NORTH] = seats[NORTH], None
        orders.append(seats)
    return orders


def _reseat_tables(orders: list[list[Player]], counts: dict[Player, list[int]]) -> bool:
    """One pass reseating each table in its best order given all the others; True if any moved."""
    moved = False
    for seats in orders:
        for wind, player in enumerate(seats):
            counts[player][wind] -= 1
        current = sum(counts[player][wind] for wind, player in enumerate(seats))
        cost, best = _best_order(seats, counts)
        if cost < current:  # strictly, so equal orders never swap back and forth
            seats[:] = best
            moved = True
        for wind, player in enumerate(seats):
            counts[player][wind] += 1
    return moved


def _swap_chains(orders: list[list[Player]], counts: dict[Player, list[int]]) -> bool:
    """One pass of chained swaps of two winds across tables; True if any chain was swapped.

    Reseating one table at a time stalls when a player sits too many of wind a at tables where
    everyone else would lose by taking it. A chain gets past that: p gives a to q1 for q1's b at
    one table, q1 passes a on to q2 for b at another, and so on; everyone in between keeps their
    counts, and only p (one a fewer, one b more) and the last player (the reverse) change. That
    lowers the sum of squares when the last one's a-minus-b is at least 3 below p's. Tables of
    three have no North seat, so no chain can put anyone there.
    """
    tables_of: dict[Player, list[int]] = {}
    for t, seats in enumerate(orders):
        for player in seats:
            tables_of.setdefault(player, []).append(t)
    swapped = False
    for a in range(WINDS):
        for b in range(WINDS):
            if a == b:
                continue
            for start in tables_of:
                excess = counts[start][a] - counts[start][b]
                if excess < 2:  # below 2 nobody is far enough below to gain
                    continue
                end = _chain_end(start, a, b, excess, orders, counts, tables_of)
                if end is None:
                    continue
                swapped = True
                counts[start][a] -= 1
                counts[start][b] += 1
                counts[end[0]][a] += 1
                counts[end[0]][b] -= 1
                for t, giver, taker in end[1]:
                    orders[t][a], orders[t][b] = taker, giver
    return swapped


def _chain_end(
    start: Player,
    a: int,
    b: int,
    excess: int,
    orders: list[list[Player]],
    counts: dict[Player, list[int]],
    tables_of: dict[Player, list[int]],
) -> tuple[Player, list[tuple[int, Player, Player]]] | None:
    """The shortest chain passing wind a from `start` to a player who gains by it, if any.

    Breadth-first over players: from x, every table where x sits a leads to whoever sits b
    there. Returns that last player and the swaps (table, who gives a, who takes it).
    """
    came: dict[Player, tuple[Player, int] | None] = {start: None}
    queue = deque([start])
    while queue:
        x = queue.popleft()
        for t in tables_of[x]:
            seats = orders[t]
            if max(a, b) >= len(seats) or seats[a] != x or seats[b] in came:
                continue
            y = seats[b]
            came[y] = (x, t)
            if counts[y][a] - counts[y][b] <= excess - 3:
                swaps = []
                while (step := came[y]) is not None:
                    swaps.append((step[1], step[0], y))
                    y = step[0]
                return seats[b], swaps
            queue.append(y)
    return None


def _improve(orders: list[list[Player]], counts: dict[Player, list[int]]) -> None:
    """Reseat tables, then swap chains, while either lowers the sum of squared wind counts.

    Used where an exact equitable plan is out of reach: earlier sessions already played, or
    three-player tables with no North. Each change strictly lowers an integer sum that cannot go
    below zero, so the loop ends; everything is visited in a fixed order, so it is deterministic.
    """
    while _reseat_tables(orders, counts) or _swap_chains(orders, counts):
        pass


def _online(later, before) -> list[list[Player]]:
    """The later rounds seated one session at a time, each table to its players' least-sat
    winds: a second start for the improvement when played sessions left the counts uneven."""
    counts = {p: list(c) for p, c in before.items()}
    orders = []
    for tables in later:
        playing = [sorted(t) for t in tables if _plays(t)]
        for seats in seat_winds(playing, counts):
            orders.append(seats)
            for wind, p in enumerate(seats):
                counts.setdefault(p, [0] * WINDS)[wind] += 1
    return orders


def _improved(orders, before) -> tuple[list[list[Player]], tuple[int, int]]:
    """`orders` improved against the played counts, with (worst imbalance, Σ squares)."""
    orders = [list(t) for t in orders]
    counts = wind_counts([orders])
    for player, seen in before.items():
        mine = counts.setdefault(player, [0] * WINDS)
        for wind in range(WINDS):
            mine[wind] += seen[wind]
    _improve(orders, counts)
    worst = max((max(c) - min(c) for c in counts.values()), default=0)
    return orders, (worst, sum(x * x for c in counts.values() for x in c))


def least_imbalance(
    tables: Sequence[Sequence[Player]], before: Mapping[Player, Sequence[int]]
) -> int:
    """No wind seating of these playing tables, after the counts `before`, ends with a worst
    imbalance below this: each player alone, with their games at tables of four and of three."""
    games: dict[Player, list[int]] = {}
    for table in tables:
        for player in table:
            seen = games.setdefault(player, [0, 0])
            seen[0] += 1
            seen[1] += len(table) == WINDS
    zeros = (0,) * WINDS
    players = set(games) | set(before)
    return max(
        (reachable_imbalance(before.get(p, zeros), *games.get(p, (0, 0))) for p in players),
        default=0,
    )


EXACT_STEPS = 20000  # table seatings examined per target at most: the same on any machine
EXACT_TABLES = 400  # larger plans keep the local reseating (the search recurses table by table)
_ORDERS = {3: list(permutations(range(3))), 4: list(permutations(range(4)))}


def exact_winds(
    tables: Sequence[Sequence[Player]],
    before: Mapping[Player, Sequence[int]],
    imbalance: int,
    steps: int = EXACT_STEPS,
) -> list[list[Player]] | None | bool:
    """Wind orders for the playing `tables` that leave every player, counted with `before`,
    within `imbalance`; None when there are none, False when `steps` ran out first.

    A complete search: a table at a time, the one with fewest orders left first, each order
    kept only if every player at it can still end within `imbalance` (can_reach) with the
    games they have left; a choice that leaves another table no order is undone at once.
    Tables and orders are taken in a fixed order, so the same input gives the same answer.
    """
    tables = [list(t) for t in tables]
    zeros = (0,) * WINDS
    count = {p: list(before.get(p, zeros)) for t in tables for p in t}
    left = {p: [0, 0] for p in count}  # games left, of them at tables of four
    where: dict[Player, list[int]] = {p: [] for p in count}
    for t, table in enumerate(tables):
        for p in table:
            left[p][0] += 1
            left[p][1] += len(table) == WINDS
            where[p].append(t)
    memo: dict = {}

    def allowed(p, size) -> int:
        key = (tuple(count[p]), left[p][0], left[p][1], size)
        if key not in memo:
            games, fours = left[p][0] - 1, left[p][1] - (size == WINDS)
            mask = 0
            for w in range(size):
                seen = list(count[p])
                seen[w] += 1
                if can_reach(seen, games, fours, imbalance):
                    mask |= 1 << w
            memo[key] = mask
        return memo[key]

    def options(t) -> list[tuple]:
        table = tables[t]
        masks = [allowed(p, len(table)) for p in table]
        return [
            order
            for order in _ORDERS[len(table)]
            if all(m >> w & 1 for m, w in zip(masks, order, strict=True))
        ]

    domain = {t: options(t) for t in range(len(tables))}
    if any(not d for d in domain.values()):
        return None
    chosen: dict[int, tuple] = {}
    budget = [steps]

    def place(t, order, sign):
        for p, w in zip(tables[t], order, strict=True):
            count[p][w] += sign
            left[p][0] -= sign
            left[p][1] -= sign * (len(tables[t]) == WINDS)

    def search() -> bool | None:
        if not domain:
            return True
        t = min(domain, key=lambda u: (len(domain[u]), u))
        mine = domain.pop(t)
        touched = sorted({u for p in tables[t] for u in where[p] if u in domain})
        saved = {u: domain[u] for u in touched}
        for order in mine:
            if budget[0] <= 0:
                break
            budget[0] -= 1
            place(t, order, +1)
            dead = False
            for u in touched:
                budget[0] -= 1  # each table looked at again counts as a step too
                domain[u] = options(u)
                if not domain[u]:
                    dead = True
                    break
            if not dead:
                chosen[t] = order
                found = search()
                if found:
                    return True
                del chosen[t]
            place(t, order, -1)
            domain.update(saved)
        domain[t] = mine
        return False if budget[0] <= 0 else None

    found = search()
    if not found:
        return False if budget[0] <= 0 else None
    seated = []
    for t, table in enumerate(tables):
        seats = [None] * len(table)
        for p, w in zip(table, chosen[t], strict=True):
            seats[w] = p
        seated.append(seats)
    return seated


def balance_winds(rounds: Sequence[Sequence[Sequence[Player]]], fixed: int = 0) -> list[Round]:
    """The same tables with the players at each reseated so everyone's winds come out even.

    Tables stay in order and keep their players; only who sits which wind changes. The first
    `fixed` rounds are already played (or announced): they come back unchanged, and their winds
    count towards the balance. With no fixed rounds and only four-player tables the result is
    exactly equitable by construction (every player sits each wind ⌊R/4⌋ or ⌈R/4⌉ times).
    Otherwise local reseating comes first; when it leaves a worst imbalance above what each
    player could reach alone (least_imbalance), exact_winds searches for a seating that does
    better, target by target, so the result is the least worst imbalance these tables allow
    unless the search runs out of steps (or the plan has more than EXACT_TABLES tables).
    Three-player tables never seat North; awarded tables
    come back as they are. Same input, same output.
    """
    if not 0 <= fixed <= len(rounds):
        raise ValueError(f"fixed must be between 0 and {len(rounds)}, not {fixed}")
    later = rounds[fixed:]
    # Sorted, so the result depends only on who is at each table, not on the order given.
    playing = [sorted(table) for tables in later for table in tables if _plays(table)]
    orders = [[p for p in seats if p is not None] for seats in _equitable_winds(playing)]

    if fixed or any(len(seats) == 3 for seats in orders):
        before = wind_counts(rounds[:fixed])
        orders, (worst, _squares) = min(
            (_improved(orders, before), _improved(_online(later, before), before)),
            key=lambda pair: pair[1],
        )
        targets = range(least_imbalance(playing, before), worst)
        for target in targets if len(playing) <= EXACT_TABLES else ():
            found = exact_winds(playing, before, target)
            if found is None:
                continue  # proven impossible: try the next
            if found:
                polished, (after, _squares) = _improved(found, before)
                orders = polished if after <= target else found
            break  # found, or out of steps: keep what there is

    result: list[Round] = [[list(table) for table in tables] for tables in rounds[:fixed]]
    seated = iter(orders)
    for tables in later:
        result.append([next(seated) if _plays(table) else list(table) for table in tables])
    return result
