"""32 players, 10 rounds of 8 tables of 4, no two players ever at the same table twice.

This is the social-golfer instance 8-4-10, i.e. a resolvable 4-GDD of type 2^16. Players are
(x, level) with x in Z_16 and level in {0, 1}; player number = 16 * level + x. The sixteen pairs
that never meet are {x, x + 8} inside each level. The design is cyclic under x -> x + 1 (both
levels at once): its 80 tables are the Z_16-translates of the five base tables

    (0,1,3,16)  (0,4,9,27)  (0,19,24,25)  (0,17,21,30)  (0,6,26,28)

(in player numbers; "+ g" adds g to x and keeps the level). The rounds:

* rounds 1-8: round k (k = 0..7) is R + k, where the base round R is
  (0,4,9,27) + {0, 8},  (0,1,3,16) + {2, 10},  (0,19,24,25) + {6, 14},  (0,17,21,30) + {7, 15}
  (each of these four tables is fixed by + 8 up to the shift, so R + k, k = 0..7, are 8 rounds);
* rounds 9 and 10: (0,6,26,28) + g for g ≡ 0, 1 (mod 4), and for g ≡ 2, 3 (mod 4).

Found by `--search`: enumerate Z_16-invariant 4-GDDs of type 2^16 on Z_16 × {0,1} (groups
{x, x+8} per level) as an exact cover of the pair orbits by table orbits, then split the 80 tables
of each design into 10 rounds by a second exact cover. The first design it meets is resolvable;
the search takes a few seconds. Without `--search` the rounds are rebuilt from the parameters
above. Either way every round is checked to be a partition of 0..31 into 8 tables of 4 and no
pair to meet twice.

Usage: python scripts/find_golf_32.py [--search]
"""

import itertools
import sys
import time
from collections import defaultdict

N = 16  # Z_16
BASE_TABLES = [(0, 1, 3, 16), (0, 4, 9, 27), (0, 19, 24, 25), (0, 17, 21, 30), (0, 6, 26, 28)]
BASE_ROUND = [
    ((0, 4, 9, 27), (0, 8)),
    ((0, 1, 3, 16), (2, 10)),
    ((0, 19, 24, 25), (6, 14)),
    ((0, 17, 21, 30), (7, 15)),
]
LAST_TABLE = (0, 6, 26, 28)


def shift(player, g):
    level, x = divmod(player, N)
    return level * N + (x + g) % N


def shifted(table, g):
    return tuple(sorted(shift(p, g) for p in table))


def construct():
    base = [shifted(t, g) for t, gs in BASE_ROUND for g in gs]
    rounds = [[shifted(t, k) for t in base] for k in range(8)]
    for residues in ((0, 1), (2, 3)):
        rounds.append([shifted(LAST_TABLE, g) for g in range(N) if g % 4 in residues])
    return rounds


# ---------------------------------------------------------------- search from scratch


def exact_cover(columns, rows):
    """Algorithm X (dict-of-sets form); rows: {name: iterable of columns}. Yields lists of rows."""
    X = {c: set() for c in columns}
    for r, cols in rows.items():
        for c in cols:
            X[c].add(r)

    def select(r):
        saved = []
        for j in rows[r]:
            for i in X[j]:
                for k in rows[i]:
                    if k != j:
                        X[k].remove(i)
            saved.append(X.pop(j))
        return saved

    def deselect(r, saved):
        for j in reversed(list(rows[r])):
            X[j] = saved.pop()
            for i in X[j]:
                for k in rows[i]:
                    if k != j:
                        X[k].add(i)

    def solve(sol):
        if not X:
            yield list(sol)
            return
        c = min(X, key=lambda c: len(X[c]))
        for r in sorted(X[c]):
            sol.append(r)
            saved = select(r)
            yield from solve(sol)
            deselect(r, saved)
            sol.pop()

    yield from solve([])


def resolutions(tables):
    """Split tables (80 4-tuples) into 10 rounds: all parallel classes, then an exact cover."""
    masks = [sum(1 << p for p in t) for t in tables]
    through = defaultdict(list)
    for i, t in enumerate(tables):
        for p in t:
            through[p].append(i)
    full = (1 << 32) - 1
    classes = []

    def grow(covered, chosen):
        if covered == full:
            classes.append(tuple(chosen))
            return
        free = ~covered & full
        p = (free & -free).bit_length() - 1
        for i in through[p]:
            if not masks[i] & covered:
                chosen.append(i)
                grow(covered | masks[i], chosen)
                chosen.pop()

    grow(0, [])
    for sol in exact_cover(range(len(tables)), dict(enumerate(classes))):
        yield [[tables[i] for i in classes[c]] for c in sol]


def search():
    partner = {p: shift(p, 8) for p in range(32)}
    pair_orbit = {}
    n_orbits = 0
    for a, b in itertools.combinations(range(32), 2):
        if partner[a] != b and (a, b) not in pair_orbit:
            for g in range(N):
                pair_orbit[tuple(sorted((shift(a, g), shift(b, g))))] = n_orbits
            n_orbits += 1
    orbits = {}  # representative -> (tables of the orbit, pair orbits covered)
    seen = set()
    for t in itertools.combinations(range(32), 4):
        if t in seen:
            continue
        orbit = sorted({shifted(t, g) for g in range(N)})
        seen.update(orbit)
        pairs = [pq for u in orbit for pq in itertools.combinations(u, 2)]
        if any(partner[a] == b for a, b in pairs) or len(set(pairs)) != len(pairs):
            continue
        covered = {pair_orbit[pq] for pq in pairs}
        size = sum(1 for v in pair_orbit.values() if v in covered)
        if size == len(pairs):  # every pair orbit it touches is covered exactly once
            orbits[t] = (orbit, covered)
    rows = {t: covered for t, (_, covered) in orbits.items()}
    for n_designs, sol in enumerate(exact_cover(range(n_orbits), rows), 1):
        tables = [u for t in sol for u in orbits[t][0]]
        for rounds in resolutions(tables):
            print(f"design {n_designs}: base tables {sol}")
            return rounds
    return None


# ---------------------------------------------------------------- check and print


def verify(rounds):
    assert len(rounds) == 10
    met = set()
    for r in rounds:
        assert len(r) == 8 and all(len(t) == 4 for t in r)
        assert sorted(p for t in r for p in t) == list(range(32)), r
        for t in r:
            for pq in itertools.combinations(sorted(t), 2):
                assert pq not in met, f"pair {pq} meets twice"
                met.add(pq)
    assert len(met) == 480
    never = {pq for pq in itertools.combinations(range(32), 2)} - met
    return sorted(never)


def main():
    started = time.time()
    rounds = search() if "--search" in sys.argv[1:] else construct()
    if rounds is None:
        print("no resolvable design found")
        return 1
    rounds = [sorted(sorted(t) for t in r) for r in rounds]
    never = verify(rounds)
    for i, r in enumerate(rounds, 1):
        print(f"round {i:2}: " + " ".join("[" + ",".join(f"{p:2}" for p in t) + "]" for t in r))
    print(
        f"OK: 10 rounds, every round a partition of 0..31, 480 distinct pairs; "
        f"the 16 pairs that never meet: {never}"
    )
    print(f"time: {time.time() - started:.4f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
