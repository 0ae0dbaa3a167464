"""How good a seating is, in the numbers a director compares plans by. Imports nothing from Django.

A seating is a list of rounds (sessions); a round is a list of tables; a table lists its players
in wind order E, S, W, N. Tables of one or two players are awarded tables (RULES.md §3): nobody
plays there, so nobody meets anybody and no wind is sat.
"""

from collections import Counter
from dataclasses import dataclass
from itertools import combinations
from math import ceil

from seating.algorithms.winds import wind_counts


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


def zero_repeat_ceiling(players: int) -> int:
    """Sessions that can be played without any pair meeting twice: each session a player meets
    three new opponents, and there are only N − 1 of them."""
    return max(0, (players - 1) // 3)


def extra_floor(players: int, sessions: int) -> int:
    """Fewest extra meetings any seating of N players over R sessions can have.

    Every player has 3R meetings and at most N − 1 distinct opponents, so at least 3R − (N − 1)
    of them repeat; each repeat is shared by two players.
    """
    return max(0, ceil(players * (3 * sessions - players + 1) / 2))


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
    zero_repeat_ceiling: int
    extra_floor: int

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


def quality(rounds, keep_apart: dict | None = None, ranks=None) -> Quality:
    rounds = [list(tables) for tables in rounds]
    players = {p for tables in rounds for table in tables for p in table}
    met = meetings(rounds)
    counts = wind_counts(rounds)
    imbalance = [max(c) - min(c) for c in counts.values()]
    return Quality(
        players=len(players),
        sessions=len(rounds),
        repeated_pairs=sum(1 for m in met.values() if m > 1),
        max_meetings=max(met.values(), default=0),
        extra_meetings=sum(m - 1 for m in met.values()),
        clashes=clashes(rounds, keep_apart or {}),
        wind_counts=counts,
        worst_imbalance=max(imbalance, default=0),
        balanced_share=(sum(1 for i in imbalance if i <= 1) / len(imbalance)) if imbalance else 1,
        spread=table_spread(rounds, ranks),
        zero_repeat_ceiling=zero_repeat_ceiling(len(players)),
        extra_floor=extra_floor(len(players), len(rounds)),
    )
