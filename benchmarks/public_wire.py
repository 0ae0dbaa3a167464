"""What a phone's refresh of the public standings costs on the wire, at 400 players.

Prints the standings page's and feed's bytes plain and gzipped (body and headers), a refresh
with nothing new (304), and the time to gzip the page once and to answer a kept request each
way (issue 26).
Run: .venv/bin/python benchmarks/public_wire.py
"""

import gzip
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import fixture  # noqa: E402  (sets Django up on a scratch database)
from django.test import Client  # noqa: E402
from timing import timed  # noqa: E402

from public.cache.wire import GZIP_LEVEL  # noqa: E402

PLAYERS, SESSIONS = 400, 12


def head_bytes(response) -> int:
    """The status line and headers as a server writes them (HTTP/1.1, CRLF)."""
    lines = [f"HTTP/1.1 {response.status_code} {response.reason_phrase}"]
    lines += [f"{name}: {value}" for name, value in response.headers.items()]
    return len("\r\n".join(lines).encode()) + 4


def main():
    fixture.migrate()
    t = fixture.build(PLAYERS, SESSIONS)
    client = Client()
    for path in (f"/t/{t.slug}/", f"/t/{t.slug}/standings.json"):
        client.get(path)  # kept
        plain = client.get(path)
        zipped = client.get(path, headers={"accept-encoding": "gzip"})
        held = client.get(
            path, headers={"accept-encoding": "gzip", "if-none-match": zipped["ETag"]}
        )
        assert held.status_code == 304 and gzip.decompress(zipped.content) == plain.content
        print(path)
        for name, r in (("plain", plain), ("gzip", zipped), ("304", held)):
            body, head = len(r.content), head_bytes(r)
            print(f"  {name:5}  body {body:8,} B  headers {head:4} B  total {body + head:8,} B")
        start = time.perf_counter()
        gzip.compress(plain.content, compresslevel=GZIP_LEVEL, mtime=0)
        print(f"  gzip once (level {GZIP_LEVEL}): {(time.perf_counter() - start) * 1000:.1f} ms")
        for name, headers in (
            ("plain", {}),
            ("gzip", {"accept-encoding": "gzip"}),
            ("304", {"accept-encoding": "gzip", "if-none-match": zipped["ETag"]}),
        ):
            median, best, _worst = timed(lambda h=headers, p=path: client.get(p, headers=h), 50)
            print(f"  kept answer, {name:5}: median {median:5.2f} ms, best {best:5.2f} ms")


if __name__ == "__main__":
    main()
