"""Which wind each player sits in each planned session, decided before the tables. No Django.

After played sessions the tables of the last ones decide whether everyone's winds can still come
out even: a table of four players who all owe North cannot. plan.py can therefore fix the winds
first and then look only for tables that hold one player of each wind:

1. `owed_winds`: how many times each player sits each wind over the planned sessions, so that
   the squared wind counts (played and planned) are as small as they can be, given that each
   session has exactly one East, South, West and North seat per table. A transportation problem
   with convex costs: each player starts from their own best (a game at a wind sat least so far)
   and units move between winds along cheapest paths until every wind has its seats.
2. `wind_sessions`: which session each of those seats is in. The players and the wind seats
   form a regular bipartite multigraph, which König's theorem splits into one perfect matching
   per session (winds.Colouring): every player sits once per session and every seat is taken.
"""

from collections.abc import Sequence

from seating.algorithms.winds import WINDS, Colouring


def _step(counts: Sequence[int], a: int, b: int) -> int:
    """Change of a player's Σ squared counts when one planned game moves from wind a to b."""
    return 2 * (counts[b] - counts[a]) + 2


def owed_winds(before: Sequence[Sequence[int]], sessions: int, tables: int) -> list[list[int]]:
    """Planned games per player and wind: `sessions` each, `sessions · tables` per wind.

    `before[p]` is what player p sat in the played sessions. Exact for the sum of squares by
    successive cheapest paths (the costs are convex, and every player starts at their own best,
    so no move pays); ties go to the lowest player and wind, so the answer is deterministic.
    """
    n = len(before)
    if n != WINDS * tables:
        raise ValueError(f"{n} players do not fill {tables} tables of four")
    plan = []
    for seen in before:
        counts = list(seen)
        mine = [0] * WINDS
        for _ in range(sessions):
            w = counts.index(min(counts))
            counts[w] += 1
            mine[w] += 1
        plan.append(mine)
    seats = sessions * tables
    while True:
        column = [sum(row[w] for row in plan) for w in range(WINDS)]
        if all(c == seats for c in column):
            return plan
        # cheapest move of one game from wind a to wind b, and who makes it
        move = {}
        for a in range(WINDS):
            for b in range(WINDS):
                if a != b:
                    options = [
                        (_step([x + y for x, y in zip(before[p], plan[p], strict=True)], a, b), p)
                        for p in range(n)
                        if plan[p][a]
                    ]
                    if options:
                        move[(a, b)] = min(options)
        # Bellman-Ford over the four winds from every over-full one
        dist = [0 if column[w] > seats else None for w in range(WINDS)]
        back: list = [None] * WINDS
        for _ in range(WINDS):
            for (a, b), (cost, p) in move.items():
                if dist[a] is not None and (dist[b] is None or dist[a] + cost < dist[b]):
                    dist[b], back[b] = dist[a] + cost, (a, p)
        short = [w for w in range(WINDS) if column[w] < seats and dist[w] is not None]
        end = min(short, key=lambda w: (dist[w], w))
        path = []
        node = end
        while back[node] is not None and len(path) < WINDS:
            a, p = back[node]
            path.append((a, node, p))
            node = a
        for a, b, p in path:
            plan[p][a] -= 1
            plan[p][b] += 1


def wind_sessions(plan: Sequence[Sequence[int]], sessions: int) -> list[list[int]]:
    """`winds[r][p]`: the wind player p sits in planned session r, so that each player sits
    `plan[p]` of each wind and every session has as many of each wind as there are tables.

    Wind w's seats of all sessions are numbered through the players in order and cut into
    seat groups of `sessions`; players (degree `sessions`) and seat groups (degree `sessions`)
    make a regular bipartite multigraph, and its proper colouring with `sessions` colours gives
    each session a perfect matching.
    """
    n = len(plan)
    edges, wind_of = [], []
    groups = 0
    for w in range(WINDS):
        unit = 0
        for p in range(n):
            for _ in range(plan[p][w]):
                edges.append((p, groups + unit // sessions))
                wind_of.append(w)
                unit += 1
        groups += unit // sessions
    colouring = Colouring(edges, n, groups, sessions)
    winds = [[0] * n for _ in range(sessions)]
    for e, (p, _group) in enumerate(edges):
        winds[colouring.colour[e]][p] = wind_of[e]
    return winds
