"""A slow link on loopback: a TCP proxy that delays and throttles what passes through it.

The hall's internet in the issue-38 goals is "300 ms round trip and 1 Mbit/s upstream". `Link`
listens on a free loopback port and forwards every connection to `target`; each chunk read from
one side is sent on to the other when the simulated line is free (its bytes at the line's
rate, one after another: a big upload queues behind itself) plus the one-way delay (half the
round trip). Upstream is what the client sends, downstream what it receives. Nothing is
dropped; no packet-level behaviour (TCP's own windows run over loopback, so a throttled line
is modelled by the proxy's queue, not by losses). `down()` makes the link refuse and cut
connections, as a hall whose internet went away, until `up()`.

    with Link(("127.0.0.1", 8100), rtt=0.3, up_bps=1_000_000) as link:
        urlopen(f"http://127.0.0.1:{link.port}/…")

Run `python benchmarks/link.py` to see it keep its figures (a round trip and a 250 KB upload).
"""

import asyncio
import contextlib
import socket
import threading
import time

CHUNK = 16 * 1024


class _Line:
    """One direction: bytes leave when the line is free, arrive one delay later."""

    def __init__(self, delay: float, bps: float | None):
        self.delay, self.bps, self.free_at = delay, bps, 0.0

    def arrival(self, size: int, now: float) -> float:
        start = max(now, self.free_at)
        self.free_at = start + (size * 8 / self.bps if self.bps else 0.0)
        return self.free_at + self.delay


class Link:
    def __init__(self, target, rtt: float = 0.3, up_bps=1_000_000, down_bps=None):
        self.target, self.rtt = target, rtt
        self.up_bps, self.down_bps = up_bps, down_bps
        self.port = 0
        self.sent_up = 0  # bytes the client sent through the link, in total
        self._loop = asyncio.new_event_loop()
        self._server = None
        self._writers: set = set()
        self._is_down = False
        self._started = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    # --- the caller's side ---------------------------------------------------------------

    def __enter__(self) -> "Link":
        self._thread.start()
        self._started.wait(10)
        return self

    def __exit__(self, *exc) -> None:
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(10)

    def down(self) -> None:
        """Cut every connection and refuse new ones, until up()."""
        self._is_down = True
        self._loop.call_soon_threadsafe(self._cut_all)

    def up(self) -> None:
        self._is_down = False

    # --- the link itself -----------------------------------------------------------------

    def _run(self) -> None:
        asyncio.set_event_loop(self._loop)
        sock = socket.socket()
        sock.bind(("127.0.0.1", 0))
        self.port = sock.getsockname()[1]
        self._server = self._loop.run_until_complete(
            asyncio.start_server(self._connection, sock=sock)
        )
        self._started.set()
        self._loop.run_forever()
        self._server.close()
        self._cut_all()

    def _cut_all(self) -> None:
        for writer in list(self._writers):
            writer.transport.abort()
        self._writers.clear()

    async def _connection(self, reader, writer) -> None:
        if self._is_down:
            writer.transport.abort()
            return
        try:
            up_reader, up_writer = await asyncio.open_connection(*self.target)
        except OSError:
            writer.transport.abort()
            return
        self._writers |= {writer, up_writer}
        half = self.rtt / 2
        upstream = _Line(half, self.up_bps)
        downstream = _Line(half, self.down_bps)
        await asyncio.gather(
            self._pipe(reader, up_writer, upstream, count=True),
            self._pipe(up_reader, writer, downstream),
            return_exceptions=True,
        )
        for w in (writer, up_writer):
            self._writers.discard(w)
            with contextlib.suppress(Exception):
                w.close()

    async def _pipe(self, reader, writer, line: _Line, count: bool = False) -> None:
        """Read as it comes; deliver each chunk at its arrival time, in order."""
        queue: asyncio.Queue = asyncio.Queue()

        async def deliver():
            while True:
                at, data = await queue.get()
                if data is None:
                    with contextlib.suppress(Exception):
                        writer.write_eof()
                    return
                wait = at - time.monotonic()
                if wait > 0:
                    await asyncio.sleep(wait)
                writer.write(data)
                await writer.drain()

        delivering = asyncio.ensure_future(deliver())
        try:
            while True:
                data = await reader.read(CHUNK)
                if not data:
                    break
                if count:
                    self.sent_up += len(data)
                queue.put_nowait((line.arrival(len(data), time.monotonic()), data))
        finally:
            queue.put_nowait((0.0, None))
            await delivering


def _check() -> None:
    """The link keeps its figures: a small round trip takes the RTT, and 250 KB upstream at
    1 Mbit/s takes about 2 s."""

    async def echo(reader, writer):
        while data := await reader.read(CHUNK):
            writer.write(data[:1])  # an answer as small as an acknowledgement
            await writer.drain()
        writer.close()

    loop = asyncio.new_event_loop()
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    server = loop.run_until_complete(asyncio.start_server(echo, sock=sock))
    threading.Thread(target=loop.run_forever, daemon=True).start()
    with Link(sock.getsockname(), rtt=0.3, up_bps=1_000_000) as link:
        with socket.create_connection(("127.0.0.1", link.port)) as client:
            started = time.perf_counter()
            client.sendall(b"x")
            client.recv(1)
            print(f"round trip: {time.perf_counter() - started:.3f} s (link: 0.300 s)")
        body = b"y" * 250_000
        with socket.create_connection(("127.0.0.1", link.port)) as client:
            started = time.perf_counter()
            client.sendall(body)
            client.shutdown(socket.SHUT_WR)
            while client.recv(CHUNK):  # until the far end has read it all and closed
                pass
            print(
                f"250 KB upstream: {time.perf_counter() - started:.2f} s "
                f"(link: {len(body) * 8 / 1_000_000 + 0.3:.2f} s)"
            )
    loop.call_soon_threadsafe(server.close)


if __name__ == "__main__":
    _check()
