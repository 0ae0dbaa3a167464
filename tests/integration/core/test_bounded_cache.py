"""The desk's in-process cache bounded by its bytes (core.cache, issue 39): a session's worth of
revisions' pages does not grow the server's memory."""

import time

import pytest

from core.cache import BoundedLocMemCache

pytestmark = pytest.mark.once

KB = 1024


def bounded(name, max_bytes=20 * KB):
    return BoundedLocMemCache(name, {"OPTIONS": {"MAX_BYTES": max_bytes, "MAX_ENTRIES": 3000}})


def test_what_it_holds_stays_under_its_bytes_whatever_is_set():
    cache = bounded("bounded-a")
    cache.clear()
    for revision in range(200):  # a page of each revision, a kilobyte each
        cache.set(f"page:{revision}", b"x" * KB, 300)
        assert cache.held() <= 20 * KB
    assert cache.get("page:199") == b"x" * KB  # the newest stays
    assert cache.get("page:0") is None  # the oldest went


def test_the_least_recently_read_go_first_and_expired_entries_before_them():
    cache = bounded("bounded-b", max_bytes=6 * KB)
    cache.clear()
    cache.set("token", 1)  # read on every request: stays
    cache.set("expired", b"e" * KB, 0.01)
    for n in range(3):
        cache.set(f"old:{n}", b"o" * KB, 300)
    time.sleep(0.02)
    cache.get("token")
    cache.set("new", b"n" * (3 * KB), 300)
    assert cache.get("token") == 1 and cache.get("new") is not None
    assert cache.get("expired") is None
    assert cache.get("old:0") is None  # least recently used
    assert cache.held() <= 6 * KB


def test_deleting_and_clearing_give_the_bytes_back():
    cache = bounded("bounded-c")
    cache.clear()
    cache.set("a", b"a" * KB)
    cache.set("b", b"b" * KB)
    held = cache.held()
    cache.delete("a")
    assert cache.held() < held
    cache.set("n", 1)
    cache.incr("n", 1000000)
    assert cache.get("n") == 1000001
    cache.clear()
    assert cache.held() == 0 and cache.get("b") is None
