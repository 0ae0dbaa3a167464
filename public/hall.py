"""What the public pages read of one tournament revision, built once per revision in this
process and kept as long as the cache keeps its token (core.kept), and what the pages make of it
kept with it (`once`, `digest`). The views read it; it renders nothing."""

import hashlib
import threading
from dataclasses import dataclass, field

from core.kept import kept, per_revision
from scoring import selectors
from tournament.models import Tournament


@dataclass(frozen=True)
class Hall:
    """What the public pages read of one tournament revision, as objects kept in this process.

    The cache pickles: a player page unpickled the standings and the whole tournament's seating
    five times per request (two thirds of its time at 200 players), and after a confirmation
    every busy thread rendered the same 200-row standings at once (a third of a second each).
    Built once per revision under a lock and read-only afterwards, except what `once` adds.
    """

    tournament: Tournament  # as read for this revision
    standings: object  # mahjong.standings.Standings
    rows: dict  # player key -> StandingRow (ranked rows first, then substitutes)
    current: int | None  # the session it is now (selectors.session_now)
    live: bool
    seating_now: dict  # table number -> seats of the current session
    seats_now: dict  # player key -> {"table", "wind", "seats"} in the current session
    tables: dict  # player key -> session -> seats of the table the player sat at or replaced at
    hands: object  # selectors.HandStatistics of the sessions the public sees
    rendered: dict = field(default_factory=dict)  # what pages made of this revision (once)
    versions: dict = field(default_factory=dict)  # page -> digest of what it shows (digest)
    building: dict = field(default_factory=dict)  # key -> the lock of whoever makes it
    lock: threading.Lock = field(default_factory=threading.Lock)


RENDERED_MAX = 32  # variants (sort order, language) kept per revision; more are made each time


def kept_hall(key) -> Hall | None:
    """The Hall kept for (pk, revision), if this process still keeps it (core.kept)."""
    return kept("public-hall", "Tournament", *key)


def tournament_hall(tournament) -> Hall:
    """The tournament's Hall for its revision, built once (core.kept: other threads wait for
    it) and kept as long as the cache keeps its token: whatever clears the cache clears it too.
    Requests still on the previous revision while a confirmation lands find theirs kept."""
    return per_revision("public-hall", tournament, lambda: _build_hall(tournament))


def _build_hall(tournament) -> Hall:
    data = selectors.public_standings(tournament)
    rows = {}
    for row in data.rows + data.substitutes:
        rows.setdefault(row.player.key, row)
    seating = selectors.seating(tournament)
    current = selectors.session_now(tournament).number
    seating_now = seating.get(current, {})
    seats_now = {}
    for number, seats in seating_now.items():
        for seat in seats:
            seats_now.setdefault(
                seat["player__key"], {"table": number, "wind": seat["wind"], "seats": seats}
            )
    tables = {}
    for session, session_tables in sorted(seating.items()):
        for seats in session_tables.values():
            keys = {k for s in seats for k in (s["player__key"], s["replaces__key"]) if k}
            for k in keys:
                tables.setdefault(k, {})[session] = seats
    return Hall(
        tournament=tournament,
        standings=data,
        rows=rows,
        current=current,
        # A finished tournament's pages stop refreshing, whatever session was seated next.
        live=not tournament.finished and selectors.session_on(tournament, current),
        seating_now=seating_now,
        seats_now=seats_now,
        tables=tables,
        hands=selectors.hand_statistics(tournament, selectors.released_sessions(tournament)),
    )


def once(hall, key, build):
    """build() once per revision in this process; other threads wait for it, not repeat it.

    One lock per key: the feed need not wait while the standings table renders.
    """
    value = hall.rendered.get(key)
    if value is not None:
        return value
    with hall.lock:
        lock = hall.building.get(key)
        if lock is None and len(hall.building) < RENDERED_MAX:
            lock = hall.building[key] = threading.Lock()
    if lock is None:  # more variants than are kept (odd sort orders): made for this one alone
        return build()
    with lock:
        value = hall.rendered.get(key)
        if value is None:
            value = hall.rendered[key] = build()
    return value


def digest(hall, page, shows) -> str:
    """A short digest of `shows()`, what `page` shows of the hall's revision, made once."""
    found = hall.versions.get(page)
    if found is None:
        found_digest = hashlib.blake2b(repr(shows()).encode(), digest_size=12).hexdigest()
        found = hall.versions[page] = f"{page[0]}-{found_digest}"
    return found
