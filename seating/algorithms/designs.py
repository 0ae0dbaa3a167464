"""Seatings with no repeat meeting at all, built from finite-field designs. No Django.

A resolvable transversal design RTD(4, q) exists for every prime power q ≥ 4: 4q players in four
groups of q, q sessions of q tables, each table one player from each group, and every two players
of different groups meet exactly once. The players of one group never meet in it, so when q is a
multiple of four the groups can then be seated among themselves by the same construction, which
gives one more session for q = 4 or 8 and five more for q = 16: 16 players get 5 sessions, 20
get 5, 28 get 7, 32 get 9, 64 get 21 and 100 get 25 — the social-golfer optimum for 16, 20 and
64. For 32 players a cyclic design does better: 10 sessions, the social-golfer optimum
(golf_32_rounds, found by scripts/find_golf_32.py).

For other sizes the desk keeps base tables found by scripts/find_designs.py: players are
Z_m × Z_3 plus one or three more, session t adds t to every player's first coordinate, and the
base session is unchanged when the second coordinate (and the extra players) rotate. These give
24 players 7 sessions, 28 → 9, 36 → 11, 40 → 13, 48 → 15, 52 → 17 and 60 → 19, every one the most
possible or the best known. Local search (plan.py) goes on where the designs stop.

Two sizes keep a whole plan instead (FOUND_PLANS, found by scripts/find_plans.py): 24 players ×
8 sessions (18 extra meetings; the counting floor is 12) and 20 × 7 (20, the floor). The plan
uses them from session 1 for exactly those sizes.
"""

from functools import cache


def _prime_power(q: int) -> tuple[int, int] | None:
    for p in range(2, q + 1):
        if q % p == 0:
            k, rest = 0, q
            while rest % p == 0:
                rest //= p
                k += 1
            return (p, k) if rest == 1 else None
    return None


# Irreducible polynomials for the fields of 2^k and 3^k, 5^2 elements this desk can meet
# (bit/coefficient vectors, lowest degree first, leading 1 implied).
_IRREDUCIBLE = {
    (2, 2): (1, 1),  # x² + x + 1
    (2, 3): (1, 1, 0),  # x³ + x + 1
    (2, 4): (1, 1, 0, 0),  # x⁴ + x + 1
    (2, 5): (1, 0, 1, 0, 0),  # x⁵ + x² + 1
    (2, 6): (1, 1, 0, 0, 0, 0),  # x⁶ + x + 1
    (3, 2): (1, 0),  # x² + 1 (−1 is not a square mod 3)
    (3, 3): (1, 2, 0),  # x³ + 2x + 1
    (5, 2): (2, 0),  # x² + 2 (2 is not a square mod 5)
    (7, 2): (1, 0),  # x² + 1 (−1 is not a square mod 7)
}


class Field:
    """GF(p^k) with elements numbered 0..q−1 (base-p digits are the polynomial's coefficients)."""

    def __init__(self, q: int):
        pk = _prime_power(q)
        if pk is None or (pk[1] > 1 and pk not in _IRREDUCIBLE):
            raise ValueError(q)
        self.q, (self.p, self.k) = q, pk
        self.add = [[self._add(a, b) for b in range(q)] for a in range(q)]
        self.mul = [[self._mul(a, b) for b in range(q)] for a in range(q)]

    def _digits(self, a):
        return [(a // self.p**i) % self.p for i in range(self.k)]

    def _number(self, digits):
        return sum(d * self.p**i for i, d in enumerate(digits))

    def _add(self, a, b):
        digits = zip(self._digits(a), self._digits(b), strict=True)
        return self._number([(x + y) % self.p for x, y in digits])

    def _mul(self, a, b):
        if self.k == 1:
            return a * b % self.p
        product = [0] * (2 * self.k - 1)
        for i, x in enumerate(self._digits(a)):
            for j, y in enumerate(self._digits(b)):
                product[i + j] = (product[i + j] + x * y) % self.p
        low = _IRREDUCIBLE[(self.p, self.k)]
        for deg in range(len(product) - 1, self.k - 1, -1):  # x^k = −(low terms)
            c = product[deg]
            if c:
                product[deg] = 0
                for i, coefficient in enumerate(low):
                    product[deg - self.k + i] = (
                        product[deg - self.k + i] - c * coefficient
                    ) % self.p
        return self._number(product[: self.k])


def transversal_rounds(q: int) -> list[list[list[int]]]:
    """The q parallel classes of RTD(4, q): player (group i, element x) is numbered i·q + x.

    Table (a, b) seats a + e_i·b from group i, for four distinct field elements e_i; two
    players of groups i ≠ j fix b = (y − x)/(e_j − e_i), so they meet exactly once; fixing b
    and running a over the field seats everyone once, which makes each b a session.
    """
    field = Field(q)
    elements = [0, 1, 2, 3]
    rounds = []
    for b in range(q):
        tables = []
        for a in range(q):
            tables.append([i * q + field.add[a][field.mul[elements[i]][b]] for i in range(4)])
        rounds.append(tables)
    return rounds


# players: (m, extra players, x-group is a field's, ∞_0's tablemates, base tables); found and
# checked by scripts/find_designs.py
_BASE = {
    24: (7, 3, False, [(0, 0), (1, 1), (3, 2)], [[(2, 0), (4, 0), (5, 0), (6, 2)]]),
    28: (9, 1, True, [], [[(1, 0), (2, 0), (3, 0), (6, 1)], [(4, 0), (5, 1), (7, 2), (8, 1)]]),
    36: (
        11,
        3,
        False,
        [(0, 0), (1, 1), (3, 2)],
        [[(2, 0), (6, 2), (7, 2), (9, 2)], [(4, 0), (5, 2), (8, 0), (10, 2)]],
    ),
    40: (
        13,
        1,
        False,
        [],
        [
            [(1, 0), (5, 1), (8, 1), (12, 0)],
            [(2, 0), (3, 1), (10, 1), (11, 0)],
            [(4, 0), (6, 1), (7, 1), (9, 0)],
        ],
    ),
    48: (
        15,
        3,
        False,
        [(0, 0), (1, 1), (3, 2)],
        [
            [(2, 0), (6, 2), (7, 1), (13, 2)],
            [(4, 0), (9, 2), (11, 2), (12, 2)],
            [(5, 0), (8, 1), (10, 0), (14, 0)],
        ],
    ),
    52: (
        17,
        1,
        False,
        [],
        [
            [(1, 0), (2, 0), (3, 1), (8, 0)],
            [(4, 0), (10, 2), (12, 2), (15, 2)],
            [(5, 0), (6, 2), (9, 0), (13, 1)],
            [(7, 0), (11, 2), (14, 1), (16, 0)],
        ],
    ),
    60: (
        19,
        3,
        False,
        [(0, 0), (1, 1), (3, 2)],
        [
            [(2, 0), (4, 0), (8, 2), (15, 0)],
            [(5, 0), (9, 1), (14, 0), (17, 0)],
            [(6, 0), (7, 0), (12, 1), (16, 1)],
            [(10, 0), (11, 2), (13, 1), (18, 1)],
        ],
    ),
}


def rotational_rounds(players: int) -> list[list[list[int]]]:
    """The m sessions developed from the stored base tables: (x, level) is level·m + x and the
    extra players are 3m, 3m + 1, 3m + 2."""
    if players not in _BASE:
        return []
    m, extra, field, inf, blocks = _BASE[players]
    add = Field(m).add if field else [[(a + b) % m for b in range(m)] for a in range(m)]
    base = []
    if extra == 1:
        base.append([(0, 0), (0, 1), (0, 2), "inf0"])
    else:
        for r in range(3):
            base.append([(x, (level + r) % 3) for x, level in inf] + [f"inf{r}"])
    for block in blocks:
        for r in range(3):
            base.append([(x, (level + r) % 3) for x, level in block])
    rounds = []
    for t in range(m):
        tables = []
        for table in base:
            tables.append(
                [
                    3 * m + int(p[3:]) if isinstance(p, str) else p[1] * m + add[p[0]][t]
                    for p in table
                ]
            )
        rounds.append(tables)
    return rounds


# 32 players as (x, level), x in Z_16, numbered 16·level + x; adding g to every x (mod 16) maps
# the 80 tables onto themselves. Found and checked by scripts/find_golf_32.py.
_GOLF_32_ROUND = [((0, 4, 9, 27), (0, 8)), ((0, 1, 3, 16), (2, 10)), ((0, 19, 24, 25), (6, 14))]
_GOLF_32_ROUND.append(((0, 17, 21, 30), (7, 15)))
_GOLF_32_LAST = (0, 6, 26, 28)  # sessions 9 and 10: shifts g ≡ 0, 1 and g ≡ 2, 3 (mod 4)


def _shift16(table, g):
    return [16 * (p // 16) + (p % 16 + g) % 16 for p in table]


def golf_32_rounds() -> list[list[list[int]]]:
    """Ten sessions of 32 players with no pair meeting twice (each player misses one other)."""
    rounds = []
    for k in range(8):
        rounds.append([_shift16(table, g + k) for table, shifts in _GOLF_32_ROUND for g in shifts])
    for residues in ((0, 1), (2, 3)):
        rounds.append([_shift16(_GOLF_32_LAST, g) for g in range(16) if g % 4 in residues])
    return rounds


# Whole plans for sizes the designs above leave far from the floor (issue 36), players 0..N−1,
# found by scripts/find_plans.py: 24 × 8 with 18 extra meetings (the least an eighth session can
# add to the 7-session design; the counting floor is 12), 20 × 7 with 20 (the floor).
FOUND_PLANS: dict[tuple[int, int], tuple] = {
    (24, 8): (
        (
            (1, 10, 14, 23),
            (7, 13, 18, 21),
            (0, 2, 5, 12),
            (6, 8, 11, 17),
            (3, 4, 20, 22),
            (9, 15, 16, 19),
        ),
        (
            (0, 1, 4, 15),
            (6, 9, 10, 13),
            (12, 17, 18, 20),
            (5, 7, 11, 22),
            (2, 3, 14, 19),
            (8, 16, 21, 23),
        ),
        (
            (1, 2, 16, 17),
            (4, 11, 13, 23),
            (3, 7, 9, 12),
            (6, 14, 18, 22),
            (0, 19, 20, 21),
            (5, 8, 10, 15),
        ),
        (
            (1, 7, 8, 20),
            (2, 13, 15, 22),
            (6, 12, 19, 23),
            (0, 9, 11, 14),
            (3, 10, 17, 21),
            (4, 5, 16, 18),
        ),
        (
            (1, 3, 5, 6),
            (13, 14, 16, 20),
            (11, 12, 15, 21),
            (0, 17, 22, 23),
            (4, 7, 10, 19),
            (2, 8, 9, 18),
        ),
        (
            (1, 11, 18, 19),
            (0, 3, 8, 13),
            (10, 12, 16, 22),
            (7, 14, 15, 17),
            (2, 4, 6, 21),
            (5, 9, 20, 23),
        ),
        (
            (1, 9, 21, 22),
            (5, 13, 17, 19),
            (4, 8, 12, 14),
            (0, 6, 7, 16),
            (2, 10, 11, 20),
            (3, 15, 18, 23),
        ),
        (
            (2, 7, 13, 23),
            (1, 5, 14, 21),
            (0, 10, 18, 22),
            (6, 12, 15, 20),
            (4, 9, 17, 19),
            (3, 8, 11, 16),
        ),
    ),
    (20, 7): (
        ((1, 3, 4, 7), (8, 9, 12, 13), (6, 10, 14, 15), (2, 11, 16, 19), (0, 5, 17, 18)),
        ((2, 4, 10, 13), (12, 14, 18, 19), (0, 1, 6, 11), (5, 7, 8, 16), (3, 9, 15, 17)),
        ((0, 4, 8, 14), (7, 11, 12, 15), (2, 5, 6, 9), (3, 10, 16, 18), (1, 13, 17, 19)),
        ((4, 9, 11, 18), (1, 5, 10, 12), (3, 6, 8, 19), (0, 13, 15, 16), (2, 7, 14, 17)),
        ((4, 5, 15, 19), (0, 2, 3, 12), (6, 7, 9, 16), (1, 13, 14, 18), (8, 10, 11, 17)),
        ((4, 12, 16, 17), (1, 2, 8, 15), (3, 5, 11, 14), (0, 9, 10, 19), (6, 7, 13, 18)),
        ((2, 8, 15, 18), (4, 6, 12, 17), (3, 5, 11, 13), (0, 7, 10, 19), (1, 9, 14, 16)),
    ),
}


def found_rounds(players: int, sessions: int) -> tuple:
    """A stored plan of exactly `players` × `sessions` from session 1, or ()."""
    return FOUND_PLANS.get((players, sessions), ())


@cache
def zero_repeat_rounds(players: int) -> tuple:
    """The longest repeat-free seating this module can build for `players`, or () if none."""
    if players % 4 or players == 0:
        return ()
    q = players // 4
    if q < 4:  # 4, 8 or 12 players: one session is all there is without a repeat
        return (tuple(tuple(range(t, t + 4)) for t in range(0, players, 4)),)
    try:
        rounds = transversal_rounds(q)
    except ValueError:
        rounds = []
    else:
        for sub in zero_repeat_rounds(q):  # the groups, each seated among itself
            rounds.append([[i * q + x for x in table] for i in range(4) for table in sub])
    rotational = golf_32_rounds() if players == 32 else rotational_rounds(players)
    if len(rotational) > len(rounds):
        rounds = rotational
    if not rounds:
        return ()
    return tuple(tuple(tuple(t) for t in tables) for tables in rounds)
