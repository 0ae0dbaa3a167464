"""Random draw of tables and winds, reproducible from a seed. Imports nothing from Django."""

import random

WINDS = ("E", "S", "W", "N")


class DrawError(Exception):
    pass


def table_sizes(count: int, three_player: bool) -> list[int]:
    """Table sizes for `count` players, full tables first.

    Riichi needs a multiple of four. Sichuan (docs/rules.md §3, 002 §3.1) plays three-handed at
    incomplete tables; as many as three such tables absorb any remainder once there are enough
    players, so everyone plays. Only when that is impossible (1, 2 or 5 players) are the one or
    two left over put at an awarded table, with no game.
    """
    full, rest = divmod(count, 4)
    if rest and not three_player:
        raise DrawError(rest)
    if not rest:
        return [4] * full
    threes = 4 - rest  # 3 players left: one table of three; 2: two; 1: three
    if full >= threes - 1:
        return [4] * (full - (threes - 1)) + [3] * threes
    return [4] * full + [rest]


def draw_tables(players: list, seed: int, three_player: bool = False) -> list[list]:
    """Shuffle the players into tables, then draw the winds at each table.

    Returns tables in number order; each table lists its players in wind order E, S, W, N.
    The same players (in any input order) and seed always give the same draw.
    """
    rng = random.Random(seed)
    pool = sorted(players)
    rng.shuffle(pool)
    tables = []
    start = 0
    for size in table_sizes(len(pool), three_player):
        table = pool[start : start + size]
        start += size
        rng.shuffle(table)  # the wind tiles: whoever draws East sits East, and so on
        tables.append(table)
    return tables


def separate(tables: list[list], keep_apart: dict, seed: int) -> list[list]:
    """Swap players between tables until no two with the same keep-apart value sit together,
    or no single swap helps any more (docs/rules.md §3: "the draw may keep players of the same
    country/region apart"). Seats keep their winds: a swapped player takes the other's wind."""
    if not keep_apart:
        return tables
    tables = [t[:] for t in tables]
    rng = random.Random(seed)

    def clashes(table):
        if len(table) < 3:
            return 0  # an awarded table plays no game
        values = [keep_apart.get(p) for p in table]
        return sum(1 for i, a in enumerate(values) if a and a in values[i + 1 :])

    improved = True
    while improved:
        improved = False
        order = list(range(len(tables)))
        rng.shuffle(order)
        for t in order:
            if not clashes(tables[t]):
                continue
            for i in range(len(tables[t])):
                for u in order:
                    if u == t:
                        continue
                    for j in range(len(tables[u])):
                        before = clashes(tables[t]) + clashes(tables[u])
                        tables[t][i], tables[u][j] = tables[u][j], tables[t][i]
                        if clashes(tables[t]) + clashes(tables[u]) < before:
                            improved = True
                            break
                        tables[t][i], tables[u][j] = tables[u][j], tables[t][i]
    return tables


def rotate_incomplete(tables: list[list], already: set, seed: int) -> list[list]:
    """Give the three-player and awarded seats to players who have not had one yet (docs/rules.md
    §3: a player who sat at an incomplete table cannot be put at one again), by swapping them with
    players drawn at random from the full tables."""
    tables = [t[:] for t in tables]
    rng = random.Random(seed)
    fresh = [(t, i) for t, table in enumerate(tables) if len(table) == 4 for i in range(4)]
    fresh = [(t, i) for t, i in fresh if tables[t][i] not in already]
    rng.shuffle(fresh)
    for table in tables:
        if len(table) == 4:
            continue
        for i, player in enumerate(table):
            if player in already and fresh:
                t, j = fresh.pop()
                table[i], tables[t][j] = tables[t][j], player
    return tables
