"""Search for base blocks of repeat-free seatings (run offline; the results live in designs.py).

Players are Z_m × Z_3 ("x" and "level") plus k ∈ {1, 3} extra players ∞. Session t adds t to
every player's x; rotating all levels by one (and the ∞ players among themselves) maps the base
session onto itself. With k = 1, ∞ sits with (0, 0), (0, 1), (0, 2); with k = 3, ∞_0 sits with
(0, 0), (b, 1), (c, 2) and the rotations seat ∞_1 and ∞_2. The other players sit at base tables
B_i and their rotations, the B_i taking the remaining x values once each. Two players meet at
most once in the m sessions exactly when all differences (Δx, Δlevel) of the base pairs are
distinct, which a depth-first search finds in well under a second for the sizes here.
Usage: python scripts/find_designs.py N [N ...]
"""

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from seating.algorithms.designs import Field  # noqa: E402


def group(m, field):
    """Addition and negation in Z_m, or in the additive group of the field of m elements."""
    if field:
        f = Field(m)
        return f.add, [f.add[0].index(0) if a == 0 else f.add[a].index(0) for a in range(m)]
    return [[(a + b) % m for b in range(m)] for a in range(m)], [(-a) % m for a in range(m)]


def search(n, limit=30.0, field=False):
    k = 1 if n % 3 == 1 else 3
    m = (n - k) // 3
    if n % 3 not in (0, 1) or (m - k) % 4:
        return None
    started = time.time()
    used = set()
    blocks = []
    add, neg = group(m, field)

    def diffs(points):
        out = []
        for i, (x, lv) in enumerate(points):
            for y, j in points[i + 1 :]:
                out += [(add[y][neg[x]], (j - lv) % 3), (add[x][neg[y]], (lv - j) % 3)]
        return out

    def fits(new):
        return len(set(new)) == len(new) and not used & set(new)

    starts = (
        [[]]
        if k == 1
        else [[(0, 0), (b, 1), (c, 2)] for b in range(1, m) for c in range(1, m) if c != b]
    )
    for inf in starts:
        base = diffs(inf) if k == 3 else []
        if not fits(base):
            continue
        # the rotations of ∞_0's table put ∞_1, ∞_2 with the same x values at other levels
        taken = {0} | {x for x, _ in inf}
        used.clear()
        used.update(base)
        free = [x for x in range(m) if x not in taken]
        blocks.clear()

        def place(rest):
            if time.time() - started > limit:
                raise TimeoutError
            if not rest:
                return True
            first = rest[0]
            others = rest[1:]

            def grow(block, pool):
                if len(block) == 4:
                    new = diffs(block)
                    if not fits(new):
                        return False
                    used.update(new)
                    blocks.append(block)
                    remaining = [x for x in rest if x not in {p[0] for p in block}]
                    if place(remaining):
                        return True
                    blocks.pop()
                    used.difference_update(new)
                    return False
                for i, x in enumerate(pool):
                    for level in range(3):
                        candidate = block + [(x, level)]
                        if fits(diffs(candidate)):
                            if grow(candidate, pool[i + 1 :]):
                                return True
                return False

            return grow([(first, 0)], others)

        try:
            if place(free):
                return m, k, inf, blocks
        except TimeoutError:
            return None
    return None


if __name__ == "__main__":
    for arg in sys.argv[1:]:
        n = int(arg)
        t = time.time()
        found = search(n)
        if not found:
            try:
                found = search(n, field=True) + ("field",)
            except (ValueError, TypeError):
                found = None
        print(
            f"    {n}: {found[:3] + (found[3],) if found else None},  # {time.time() - t:.1f} s",
            flush=True,
        )
