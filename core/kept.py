"""Values worked out once per revision of what they describe, kept in this process as they are.

The cache (LocMemCache) pickles what it keeps, so each read of a big value, such as a
400-player tournament's seating and scores, unpickles a new copy of it: a public page read that
snapshot 17 times, 138 ms of a 290 ms render (issue 26). Here the value itself is kept, shared
by every reader, so READERS MUST NOT CHANGE IT (but for a memo its owner keeps in it, built
empty, such as scoring.selectors.table_rows's); the cache holds only a small token naming it.
That token ties the value's life to the cache's: `cache.clear()` (a test's start, a benchmark's
cold run) forgets it too, and a tournament restored with the same pk and revision (or a test's
rolled-back one) cannot be answered from an older one's value.

The revision is bumped by every change the value could depend on (`tournament.changes.touch`,
`club.changes.touch_club`), so a kept value is never stale and needs no timeout. Threads asking
for the same value at once wait for one of them to build it: after a confirmation, a hall of
phones refreshing does not compute the same standings a dozen times over.
"""

import itertools
import threading
import uuid
from collections import OrderedDict
from collections.abc import Callable
from typing import TypeVar

from django.core.cache import cache

T = TypeVar("T")

# Values kept at once, across tournaments and clubs: a few kinds (snapshot, standings, public
# standings, feed, which session is on, the public pages' hall) for the two or three revisions
# a busy hall's requests straddle while a confirmation lands.
KEPT = 64
# ... and at most this many revisions of one kind of one owner (issue 39): a request rarely
# straddles more, and at 2,000 players a revision's hall and standings are tens of megabytes,
# so that the 64 no longer hold a dozen revisions of one tournament's.
REVISIONS_KEPT = 3

_PROCESS = uuid.uuid4().hex  # tokens name values in this process only
_values: OrderedDict = OrderedDict()  # token -> (cache key, value, owner), oldest first
_building: dict = {}  # cache key -> the lock of whoever builds it
_lock = threading.Lock()
_tokens = itertools.count(1)


def _key(kind: str, model: str, pk, revision) -> str:
    return f"kept:{_PROCESS}:{kind}:{model}:{pk}:{revision}"


def _found(key: str):
    token = cache.get(key)
    if token is None:
        return None
    with _lock:
        found = _values.get(token)
        if found is None or found[0] != key:  # not this process's token for this key
            return None
        _values.move_to_end(token)
        return found[1]


def kept(kind: str, model: str, pk, revision):
    """The value kept for that revision, or None: for a caller that knows the revision but
    has not read its owner (the public page cache's repeat requests)."""
    return _found(_key(kind, model, pk, revision))


def per_revision(kind: str, owner, build: Callable[[], T], revision=None) -> T:
    """`build()` once per `owner`'s revision (owner: a model instance with a revision field),
    or per the `revision` given (one of the owner's others, such as its seating_revision)."""
    if revision is None:
        revision = owner.revision
    key = _key(kind, type(owner).__name__, owner.pk, revision)
    value = _found(key)
    if value is not None:
        return value
    with _lock:
        building = _building.setdefault(key, threading.Lock())
    try:
        with building:
            value = _found(key)
            if value is None:
                value = build()
                token = next(_tokens)
                owner_key = (kind, type(owner).__name__, owner.pk)
                with _lock:
                    _values[token] = (key, value, owner_key)
                    while len(_values) > KEPT:
                        _values.popitem(last=False)
                    same = [t for t, found in _values.items() if found[2] == owner_key]
                    for old in same[: max(0, len(same) - REVISIONS_KEPT)]:
                        del _values[old]  # the oldest revisions of this kind and owner
                cache.set(key, token)
    finally:
        with _lock:
            _building.pop(key, None)
    return value
