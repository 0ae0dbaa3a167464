"""The public file a hall sends its federation server (issue 38, publishing.public_file) at full
size: 400 players after 6 sessions (every table confirmed, no hands recorded), in a scratch
SQLite database.

Prints the sizes (the whole tournament file, the public file as archive's dumps writes it and as
gzip, which is what goes on the wire for every change) and the CPU time to build it as the
sender does (one snapshot read, the filter, dumps, gzip), from a cold cache.
Run: .venv/bin/python benchmarks/publish_file.py [--repeat N]
"""

import argparse
import gzip
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import fixture  # noqa: E402  (sets Django up on a scratch database)
from django.core.cache import cache  # noqa: E402

from archive.tournament_file import dumps, export_tournament  # noqa: E402
from publishing import spool  # noqa: E402
from publishing.sender import public_text  # noqa: E402

PLAYERS, SESSIONS = 400, 6


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    fixture.migrate()
    t = fixture.build(PLAYERS, SESSIONS)
    full = dumps(export_tournament(t)).encode()
    cpu, wall = [], []
    for _ in range(args.repeat):
        cache.clear()
        c0, w0 = time.process_time(), time.perf_counter()
        text = public_text("tournament", t.slug)
        body = spool.pack(text)
        cpu.append(time.process_time() - c0)
        wall.append(time.perf_counter() - w0)
    raw = text.encode()
    compact = json.dumps(json.loads(text), ensure_ascii=False, separators=(",", ":")).encode()
    print(f"{PLAYERS} players, {SESSIONS} sessions, {PLAYERS // 4 * SESSIONS} tables confirmed")
    print(f"tournament file (backup):   {len(full):>9,} bytes")
    print(f"public file, JSON (dumps):  {len(raw):>9,} bytes")
    print(f"public file, gzip (wire):   {len(body):>9,} bytes")
    packed = len(gzip.compress(compact, 6, mtime=0))
    print(f"  compact JSON would be:    {len(compact):>9,} bytes, gzip {packed:,}")
    print(
        f"build (snapshot+filter+dumps+gzip), median of {args.repeat}: "
        f"CPU {statistics.median(cpu) * 1000:.0f} ms, wall {statistics.median(wall) * 1000:.0f} ms"
        f" (min CPU {min(cpu) * 1000:.0f} ms)"
    )


if __name__ == "__main__":
    main()
