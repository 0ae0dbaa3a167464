"""Random draw of tables and winds, reproducible from a seed. Imports nothing from Django."""

import random

WINDS = ("E", "S", "W", "N")


class DrawError(Exception):
    pass


def table_sizes(count: int, three_player: bool) -> list[int]:
    """Table sizes for `count` players, full tables first.

    Riichi needs a multiple of four. Sichuan (RULES.md §3, 002 §3.1) plays three-handed at
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
