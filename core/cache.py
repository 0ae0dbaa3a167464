"""The desk's in-process cache: Django's LocMemCache, bounded by the bytes it holds as well as by
its entries (issue 39).

LocMemCache forgets an expired entry only when it is asked for again or when MAX_ENTRIES is
reached, and then a third of the entries at once. The public pages are kept per revision for a
few minutes (public.cache) and a revision is never asked for again once the next one is made: at
2,000 players each confirmation left the standings page, its gzip, the feed and the statistics
behind, a few megabytes a revision, so the server grew with every confirmation until 3,000
entries were reached (hundreds of megabytes). Here, when what it holds passes MAX_BYTES, the
expired entries go first, then the least recently used ones, until it is back under: a
revision's pages nobody asks for any more are the first to go, and the memory stays flat.

What it holds are copies: the pages a revision drew are kept with its hall too (public.hall) and
the player pages by their version (public.cache.pages), so a page it let go is pickled and
gzipped again, never drawn again while those keep it.
"""

import time

from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.locmem import LocMemCache

MAX_BYTES = 64 * 2**20  # default; OPTIONS["MAX_BYTES"] sets it
OVERHEAD = 200  # bytes an entry costs besides its key and pickled value (dicts, the expiry)

# Per cache name, like LocMemCache's own stores (each thread has its own cache object, all of
# them sharing the store of their name): key -> the bytes it holds, and their sum.
_sizes: dict = {}
_held: dict = {}


class BoundedLocMemCache(LocMemCache):
    def __init__(self, name, params):
        super().__init__(name, params)
        options = params.get("OPTIONS", {})
        self._max_bytes = int(options.get("MAX_BYTES", MAX_BYTES))
        self._name = name
        self._size = _sizes.setdefault(name, {})
        _held.setdefault(name, 0)

    def held(self) -> int:
        """The bytes this cache holds now (its keys, pickled values and their overhead)."""
        return _held[self._name]

    def _account(self, key, size: int) -> None:
        _held[self._name] += size - self._size.get(key, 0)
        if size:
            self._size[key] = size
        else:
            self._size.pop(key, None)

    def _set(self, key, value, timeout=DEFAULT_TIMEOUT):
        super()._set(key, value, timeout)
        self._account(key, len(key) + len(value) + OVERHEAD)
        if _held[self._name] > self._max_bytes:
            self._shrink(keep=key)

    def _shrink(self, keep) -> None:
        """Under the lock: expired entries out, then the least recently used, until under
        MAX_BYTES (the entry just set stays)."""
        now = time.time()
        for key in [k for k, exp in self._expire_info.items() if exp is not None and exp <= now]:
            if key != keep:
                self._delete(key)
        while _held[self._name] > self._max_bytes and len(self._cache) > 1:
            key = next(reversed(self._cache))  # the least recently used: at the end
            if key == keep:
                break
            self._delete(key)

    def _cull(self):
        if self._cull_frequency == 0:
            self._cache.clear()
            self._expire_info.clear()
            self._size.clear()
            _held[self._name] = 0
            return
        for _ in range(len(self._cache) // self._cull_frequency):
            key = next(reversed(self._cache))
            self._delete(key)

    def _delete(self, key):
        deleted = super()._delete(key)
        self._account(key, 0)
        return deleted

    def incr(self, key, delta=1, version=None):
        value = super().incr(key, delta, version)
        made = self.make_and_validate_key(key, version=version)
        with self._lock:
            if made in self._cache:
                self._account(made, len(made) + len(self._cache[made]) + OVERHEAD)
        return value

    def clear(self):
        with self._lock:
            self._cache.clear()
            self._expire_info.clear()
            self._size.clear()
            _held[self._name] = 0
